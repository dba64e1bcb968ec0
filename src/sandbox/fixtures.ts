/** The fixed sandbox data (docs/site/sandbox/index.md), printed at start and restored by reset(). */
import type { DocumentType } from '../contract/index.js';
import type { SandboxGateway, SandboxIntegration, SandboxLink, SandboxPartner, SandboxStore } from './model.js';

export const demoMerchantKey = 'mk_test_demo';
export const demoPartner = { name: 'demo-partner', apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo', signingSecret: 'whsec_test_demo' } as const;
/** A second store and partner, connected to each other but not to the demo pair (the 401 "may not act" rule). */
export const otherMerchantKey = 'mk_test_other';
export const otherPartner = { name: 'other-partner', apiKey: 'pk_test_other', apiSecret: 'sk_test_other', signingSecret: 'whsec_test_other' } as const;
export const demoLinks = { fixed: 'demo-fixed', dynamic: 'demo-dynamic' } as const;
export const demoFixedAmount = 50_000;
/** The sandbox card page's test cards. */
export const testCards = { pays: '4242424242424242', declines: '4000000000000002' } as const;

/** Amount limits per gateway, in whole COP; the contract publishes none, these are the sandbox's. */
export const gatewayAmountLimits = { min: 1_000, max: 10_000_000 } as const;

const idFields = ['document_type', 'document_number'];

export function fixtureGateways(): SandboxGateway[] {
  const common = { min_amount: gatewayAmountLimits.min, max_amount: gatewayAmountLimits.max };
  return [
    { id_payment_gateway: 1, name: 'Nequi', kind: 'push', gateway: 'nequi', required_fields: ['phone_number', ...idFields], id_types: [1, 2, 3], currencies: ['COP'], icon_path: '/sandbox/icons/nequi.png', direct_orders: true, ...common },
    { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp', gateway: 'daviplata', required_fields: [...idFields], id_types: [1, 2, 3], currencies: ['COP'], icon_path: '/sandbox/icons/daviplata.png', direct_orders: true, ...common },
    { id_payment_gateway: 9, name: 'Bre-B', kind: 'transfer', gateway: 'breb', required_fields: [...idFields], id_types: [1, 2, 3], currencies: ['COP'], icon_path: '/sandbox/icons/breb.png', direct_orders: true, ...common },
    { id_payment_gateway: 4, name: 'Tarjeta', kind: 'card', gateway: 'stripe', required_fields: [...idFields], id_types: [1, 2, 3], currencies: ['COP', 'USD'], icon_path: '/sandbox/icons/card.png', direct_orders: false, ...common },
  ];
}

/** Document types by country; only CO exists, as on the live service. */
export function fixtureDocumentTypes(): DocumentType[] {
  return [
    { id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' },
    { id_national_document_type: 2, country_code: 'CO', type: 'CE', description: 'Cédula de Extranjería' },
    { id_national_document_type: 3, country_code: 'CO', type: 'TI', description: 'Tarjeta de Identidad' },
  ];
}

export function fixtureStores(): SandboxStore[] {
  return [
    { id_store: 1, store_name: 'Tienda Demo', merchant_key: demoMerchantKey, external_id: 'demo-store', external_store_id: 'demo-store', currency: 'COP', signing_secret: 'whsec_store_demo', active: true },
    { id_store: 2, store_name: 'Otra Tienda', merchant_key: otherMerchantKey, external_id: 'other-store', external_store_id: 'other-store', currency: 'COP', signing_secret: 'whsec_store_other', active: true },
  ];
}

export function fixturePartners(): SandboxPartner[] {
  const partner = (id: number, p: typeof demoPartner | typeof otherPartner): SandboxPartner => ({
    id_partner: id,
    name: p.name,
    api_key: p.apiKey,
    api_secret: p.apiSecret,
    signing_secret: p.signingSecret,
    webhook: { url: null, events: ['store_onboarded', 'integration_uninstalled'], signing_enabled: true },
    operator_events: ['order_payment', 'link_paid'],
    active: true,
  });
  return [partner(1, demoPartner), partner(2, otherPartner)];
}

export function fixtureIntegrations(now: number): SandboxIntegration[] {
  const webhook = () => ({ url: null, events: ['store_onboarded' as const, 'integration_uninstalled' as const], signing_enabled: true });
  return [
    { id_integration: 1, id_partner: 1, id_store: 1, active: true, webhook: webhook(), created_at: now },
    { id_integration: 2, id_partner: 2, id_store: 2, active: true, webhook: webhook(), created_at: now },
  ];
}

export function fixtureLinks(now: number): SandboxLink[] {
  const base = { id_store: 1, currency: 'COP', order_key: null, redirect_link: null, redirect_link_cancel: null, redirect_link_failure: null, created_at: now, expires_at: null, paid_at: null, source: 'api' as const, id_partner: null };
  return [
    { ...base, payment_link_id: 1, hash: demoLinks.fixed, description: 'Pedido de demostración', amount: demoFixedAmount, collect_shopper_data: false },
    { ...base, payment_link_id: 2, hash: demoLinks.dynamic, description: 'Aporte voluntario', amount: undefined, collect_shopper_data: false },
  ];
}
