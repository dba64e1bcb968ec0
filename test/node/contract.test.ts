import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CreateLinkBodySchema,
  CreateOrderBodySchema,
  CreatedLinkSchema,
  DashboardStatsQuerySchema,
  DashboardStatsSchema,
  ErrorResponseSchema,
  IntegrationUninstalledPayloadSchema,
  OrderPaymentPayloadSchema,
  OtpBodySchema,
  PartnerWebhookConfigSchema,
  PatchWebhookBodySchema,
  PatchWebhookResultSchema,
  StoreOnboardedPayloadSchema,
  WebhookTestResultSchema,
} from '../../src/contract/index.js';
import { accepts, changed, exampleOrderPayment, refuses } from './contract-helpers.js';

const at = '2025-06-01T12:00:00Z';

describe('webhook payloads of the contract', () => {
  const orderPayment = structuredClone(exampleOrderPayment);

  it('order_payment accepts the Order shape of Resources, extra fields kept', () => {
    const parsed = accepts(OrderPaymentPayloadSchema, { ...orderPayment, id_store: 7, extra: 'kept' });
    assert.equal(parsed.id_order, 123);
    assert.equal(parsed.payment_method.gateway, 'nequi');
    assert.equal((parsed as Record<string, unknown>).extra, 'kept');
  });

  it('order_payment refuses bad fields by name', () => {
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { id_order: undefined }), 'id_order');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { id_order: 0 }), 'id_order');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { status: 'paid' }), 'status');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { timestamp: 'yesterday' }), 'timestamp');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { 'payment_method.gateway': undefined }), 'payment_method.gateway');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { totalItems: 1.5 }), 'totalItems');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { currency: 'cop' }), 'currency');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { 'shopper.email': undefined }), 'shopper.email');
    refuses(OrderPaymentPayloadSchema, changed(orderPayment, { event: 'link_paid' }), 'event');
  });

  const uninstalled = { event: 'integration_uninstalled', timestamp: at, id_store: 7, external_id: 'demo-store', store_name: 'Demo' };

  it('integration_uninstalled accepts the listed fields and refuses bad ones', () => {
    assert.equal(accepts(IntegrationUninstalledPayloadSchema, uninstalled).id_store, 7);
    refuses(IntegrationUninstalledPayloadSchema, changed(uninstalled, { id_store: '7' }), 'id_store');
    refuses(IntegrationUninstalledPayloadSchema, changed(uninstalled, { store_name: undefined }), 'store_name');
    refuses(IntegrationUninstalledPayloadSchema, changed(uninstalled, { timestamp: undefined }), 'timestamp');
  });

  const onboarded = { event: 'store_onboarded', timestamp: at, merchant_key: 'mk_test_new', id_store: 8, store_name: 'Nueva', external_id: null };

  it('store_onboarded carries the merchant_key', () => {
    assert.equal(accepts(StoreOnboardedPayloadSchema, onboarded).merchant_key, 'mk_test_new');
    refuses(StoreOnboardedPayloadSchema, changed(onboarded, { merchant_key: undefined }), 'merchant_key');
    refuses(StoreOnboardedPayloadSchema, changed(onboarded, { merchant_key: '' }), 'merchant_key');
    refuses(StoreOnboardedPayloadSchema, changed(onboarded, { id_store: -1 }), 'id_store');
  });
});

describe('partner webhook configuration', () => {
  const config = { url: 'https://partner.example/hooks', events: ['store_onboarded', 'integration_uninstalled'], signing_enabled: true };

  it('PartnerWebhookConfig accepts a URL or null, and refuses bad fields', () => {
    accepts(PartnerWebhookConfigSchema, config);
    accepts(PartnerWebhookConfigSchema, { ...config, url: null, events: [] });
    refuses(PartnerWebhookConfigSchema, changed(config, { signing_enabled: 'yes' }), 'signing_enabled');
    refuses(PartnerWebhookConfigSchema, changed(config, { events: undefined }), 'events');
    refuses(PartnerWebhookConfigSchema, changed(config, { url: undefined }), 'url');
  });

  it('PATCH body: both fields optional, https only, configurable events only, nothing else', () => {
    accepts(PatchWebhookBodySchema, {});
    accepts(PatchWebhookBodySchema, { url: 'https://partner.example/hooks' });
    accepts(PatchWebhookBodySchema, { events: ['store_onboarded', 'store_updated', 'store_deleted', 'integration_installed', 'integration_uninstalled'] });
    refuses(PatchWebhookBodySchema, { url: 'http://partner.example/hooks' }, 'url');
    refuses(PatchWebhookBodySchema, { url: 'not a url' }, 'url');
    refuses(PatchWebhookBodySchema, { events: ['store_onboarded', 'order_payment'] }, 'events.1');
    refuses(PatchWebhookBodySchema, { events: 'store_onboarded' }, 'events');
    refuses(PatchWebhookBodySchema, { url: 'https://partner.example/hooks', secret: 'x' }, 'body');
  });

  it('PATCH response data: success, webhook, updated_integrations', () => {
    const result = { success: true, webhook: config, updated_integrations: 3 };
    assert.equal(accepts(PatchWebhookResultSchema, result).updated_integrations, 3);
    refuses(PatchWebhookResultSchema, changed(result, { updated_integrations: -1 }), 'updated_integrations');
    refuses(PatchWebhookResultSchema, changed(result, { 'webhook.url': undefined }), 'webhook.url');
    refuses(PatchWebhookResultSchema, changed(result, { success: undefined }), 'success');
  });

  it('webhook test response', () => {
    const sent = { success: true, test_sent: true, url: 'https://partner.example/hooks', response_status: 200, response_time_ms: 120, error: null };
    accepts(WebhookTestResultSchema, sent);
    accepts(WebhookTestResultSchema, { ...sent, success: false, response_status: null, error: 'timeout after 5000 ms' });
    refuses(WebhookTestResultSchema, changed(sent, { response_time_ms: 1.5 }), 'response_time_ms');
    refuses(WebhookTestResultSchema, changed(sent, { error: undefined }), 'error');
    refuses(WebhookTestResultSchema, changed(sent, { test_sent: 'true' }), 'test_sent');
  });
});

describe('ErrorResponse', () => {
  const body = { code: 4007, api_code: 'INVALID_MERCHANT_KEY', message: 'Invalid merchant key', error: true };

  it('accepts the minimal and the full body', () => {
    accepts(ErrorResponseSchema, body);
    accepts(ErrorResponseSchema, {
      code: 2000,
      api_code: 'VALIDATION_FAILED',
      message: 'Validation failed',
      description: 'See validation_errors',
      error: true,
      validation_errors: [{ field: 'shopper.email', message: 'must be a valid email', value: 'x' }],
    });
    accepts(ErrorResponseSchema, { code: 6105, api_code: 'DAVIPLATA_OTP_ERROR', message: 'Invalid or expired OTP', error: true, gateway_name: 'daviplata' });
  });

  it('refuses bodies that are not errors', () => {
    refuses(ErrorResponseSchema, changed(body, { error: false }), 'error');
    refuses(ErrorResponseSchema, changed(body, { code: '4007' }), 'code');
    refuses(ErrorResponseSchema, changed(body, { message: undefined }), 'message');
    refuses(ErrorResponseSchema, { ...body, validation_errors: [{ message: 'x' }] }, 'validation_errors.0.field');
  });
});

describe('payment links', () => {
  const standard = { description: 'Camiseta talla M', amount: 50000, currency: 'COP', order_key: 'order-1', redirect_link: 'https://shop.example/ok' };
  const dynamic = { description: 'Donación', collect_shopper_data: true };

  it('accepts a standard and a dynamic link body', () => {
    assert.equal(accepts(CreateLinkBodySchema, standard).amount, 50000);
    assert.equal(accepts(CreateLinkBodySchema, dynamic).amount, undefined);
  });

  it('refuses bad link bodies by field', () => {
    refuses(CreateLinkBodySchema, { ...standard, collect_shopper_data: true }, 'collect_shopper_data');
    refuses(CreateLinkBodySchema, changed(standard, { description: '' }), 'description');
    refuses(CreateLinkBodySchema, changed(standard, { description: 'x'.repeat(256) }), 'description');
    refuses(CreateLinkBodySchema, changed(standard, { description: undefined }), 'description');
    refuses(CreateLinkBodySchema, changed(standard, { currency: 'cop' }), 'currency');
    refuses(CreateLinkBodySchema, changed(standard, { amount: 0 }), 'amount');
    refuses(CreateLinkBodySchema, changed(standard, { order_key: 'k'.repeat(101) }), 'order_key');
    refuses(CreateLinkBodySchema, changed(standard, { redirect_link: 'javascript:alert(1)' }), 'redirect_link');
  });

  it('link response data', () => {
    const created = { payment_link_id: 10, payment_url: 'https://checkout.wava.co/aBcDeFgH', hash: 'aBcDeFgH', expires_at: '2025-06-05T12:00:00.000Z' };
    assert.equal(accepts(CreatedLinkSchema, created).hash, 'aBcDeFgH');
    refuses(CreatedLinkSchema, changed(created, { hash: undefined }), 'hash');
    refuses(CreatedLinkSchema, changed(created, { payment_link_id: 0 }), 'payment_link_id');
  });
});

describe('direct orders', () => {
  const order = {
    amount: 50000,
    description: 'Pedido 1',
    currency: 'COP',
    shopper: {
      first_name: 'Ana',
      last_name: 'Pérez',
      email: 'ana@example.com',
      phone_number: '+573001234567',
      country: 'CO',
      id_number: '12345678',
      id_type: 1,
    },
    payment_gateway: { id_payment_gateway: 1 },
    order_key: 'order-12345',
  };

  it('accepts the documented create body', () => {
    const parsed = accepts(CreateOrderBodySchema, order);
    assert.equal(parsed.shopper.id_number, '12345678');
    assert.equal(parsed.payment_gateway?.id_payment_gateway, 1);
  });

  it('refuses bad order bodies by field', () => {
    refuses(CreateOrderBodySchema, changed(order, { 'shopper.id_number': undefined }), 'shopper.id_number');
    refuses(CreateOrderBodySchema, changed(order, { 'shopper.id_type': undefined }), 'shopper.id_type');
    refuses(CreateOrderBodySchema, changed(order, { 'shopper.email': 'not-an-email' }), 'shopper.email');
    refuses(CreateOrderBodySchema, changed(order, { 'payment_gateway.id_payment_gateway': 0 }), 'payment_gateway.id_payment_gateway');
    refuses(CreateOrderBodySchema, changed(order, { amount: -5 }), 'amount');
    refuses(CreateOrderBodySchema, changed(order, { currency: undefined }), 'currency');
    refuses(CreateOrderBodySchema, changed(order, { shopper: undefined }), 'shopper');
  });

  it('the digital-wallet code is exactly 6 digits', () => {
    accepts(OtpBodySchema, { daviplata_otp: '123456' });
    refuses(OtpBodySchema, { daviplata_otp: '12345' }, 'daviplata_otp');
    refuses(OtpBodySchema, { daviplata_otp: '12345a' }, 'daviplata_otp');
    refuses(OtpBodySchema, { daviplata_otp: 123456 }, 'daviplata_otp');
    refuses(OtpBodySchema, {}, 'daviplata_otp');
  });
});

describe('dashboard statistics', () => {
  const stats = {
    currency: 'COP',
    date_from: '2025-06-01',
    date_to: '2025-06-07',
    total_revenue: 1250000,
    total_orders: 25,
    conversion_rate: 62.5,
    delta_revenue_pct: 12.3,
    delta_orders_pct: null,
    daily_revenue: [{ date: '2025-06-01', value: 150000 }],
    gateway_split: [{ gateway: 'nequi', tpv: 800000, pct: 0.64 }],
    fees_vs_net: [{ date: '2025-06-01', net_to_merchant: 145000, fees: 5000 }],
  };

  it('accepts the documented result and refuses bad fields', () => {
    assert.equal(accepts(DashboardStatsSchema, stats).total_orders, 25);
    refuses(DashboardStatsSchema, changed(stats, { total_orders: 1.5 }), 'total_orders');
    refuses(DashboardStatsSchema, { ...stats, daily_revenue: [{ date: '2025-06-01' }] }, 'daily_revenue.0.value');
    refuses(DashboardStatsSchema, changed(stats, { gateway_split: undefined }), 'gateway_split');
  });

  it('query: currency and both dates required', () => {
    accepts(DashboardStatsQuerySchema, { currency: 'COP', date_from: '2025-06-01', date_to: '2025-06-07' });
    refuses(DashboardStatsQuerySchema, { currency: 'COP', date_from: '2025/06/01', date_to: '2025-06-07' }, 'date_from');
    refuses(DashboardStatsQuerySchema, { date_from: '2025-06-01', date_to: '2025-06-07' }, 'currency');
  });
});
