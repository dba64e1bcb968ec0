import type { CheckoutGateway, CheckoutLink, CheckoutOrder, CheckoutOrderCreated, NextAction } from '../../src/contract/index.js';
import { CheckoutLinkSchema, CheckoutOrderCreatedSchema, CheckoutOrderSchema } from '../../src/contract/index.js';
import { initialState, transition, type FlowEvent, type FlowState } from '../../src/flow/index.js';

/** The sandbox's demo gateways and document types, checked against the contract. */
export const gateways: Record<'push' | 'otp' | 'transfer' | 'card', CheckoutGateway> = {
  push: { id_payment_gateway: 1, name: 'Nequi', kind: 'push', required_fields: ['phone_number'], id_types: [1, 2, 3], min_amount: 1_000, max_amount: 5_000_000, icon: '/icons/nequi.svg' },
  otp: { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp', required_fields: ['document_type', 'document_number'], id_types: [1, 2, 3], min_amount: 1_000, max_amount: 3_000_000, icon: '/icons/daviplata.svg' },
  transfer: { id_payment_gateway: 9, name: 'Bre-B', kind: 'transfer', required_fields: ['document_type', 'document_number'], id_types: [1, 2, 3], min_amount: 500, max_amount: 10_000_000, icon: '/icons/breb.svg' },
  card: { id_payment_gateway: 4, name: 'Tarjeta', kind: 'card', required_fields: [], id_types: [1, 2], min_amount: 2_000, max_amount: 20_000_000, icon: '/icons/card.svg' },
};

export function makeLink(over: Partial<CheckoutLink> = {}): CheckoutLink {
  return CheckoutLinkSchema.parse({
    hash: 'demo-fixed',
    store_name: 'Tienda Demo',
    description: 'Camiseta',
    amount: 50_000,
    currency: 'COP',
    status: 'active',
    expires_at: null,
    collect_shopper_data: false,
    gateways: Object.values(gateways),
    document_types: [
      { id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' },
      { id_national_document_type: 2, country_code: 'CO', type: 'CE', description: 'Cédula de Extranjería' },
      { id_national_document_type: 3, country_code: 'CO', type: 'TI', description: 'Tarjeta de Identidad' },
    ],
    ...over,
  });
}
export const standardLink = makeLink();
export const dynamicLink = makeLink({ hash: 'demo-dynamic', amount: null });

export const actions = {
  push: { type: 'approve_push', phone_hint: '****4567', expires_at: '2030-01-01T00:05:00Z' },
  otp: { type: 'enter_otp', length: 6, expires_at: '2030-01-01T00:05:00Z', attempts_left: 3 },
  transfer: { type: 'transfer', key: 'BREB-TXN-0001', qr_data: '000201010212', expires_at: '2030-01-01T00:15:00Z' },
  card: { type: 'redirect', url: 'http://127.0.0.1:9/card/1' },
} as const satisfies Record<string, NextAction>;

export function makeOrder(kind: keyof typeof gateways, over: Partial<CheckoutOrder> = {}): CheckoutOrder {
  const g = gateways[kind];
  return CheckoutOrderSchema.parse({
    id_order: 101,
    status: 'processing',
    amount: 50_000,
    currency: 'COP',
    gateway: { id_payment_gateway: g.id_payment_gateway, name: g.name, kind: g.kind },
    created_at: '2030-01-01T00:00:00Z',
    cancel_reason: null,
    next_action: actions[kind],
    ...over,
  });
}

export function makeCreated(kind: keyof typeof gateways, over: Partial<CheckoutOrder> = {}): CheckoutOrderCreated {
  return CheckoutOrderCreatedSchema.parse({ ...makeOrder(kind, over), order_token: 'tok_0123456789abcdef' });
}

/** Applies events in order. */
export function run(state: FlowState, ...events: FlowEvent[]): FlowState {
  return events.reduce((s, e) => transition(s, e), state);
}

/** Asserts the step and narrows the type. */
export function expectStep<S extends FlowState['step']>(state: FlowState, step: S): Extract<FlowState, { step: S }> {
  if (state.step !== step) throw new Error(`expected step ${step}, got ${state.step}: ${JSON.stringify(state).slice(0, 400)}`);
  return state as Extract<FlowState, { step: S }>;
}

export const buyer = {
  push: [
    { type: 'field_changed', field: 'id_type', value: '1' },
    { type: 'field_changed', field: 'id_number', value: '1.020.304.050' },
    { type: 'field_changed', field: 'phone_number', value: '+57 300 123 4567' },
  ],
  document: [
    { type: 'field_changed', field: 'id_type', value: '1' },
    { type: 'field_changed', field: 'id_number', value: '1020304050' },
  ],
} as const satisfies Record<string, FlowEvent[]>;

/** From a fresh checkout of `link` to the details screen of `kind`. */
export function toDetailsOf(kind: keyof typeof gateways, link = standardLink): FlowState {
  const loaded = run(initialState(), { type: 'link_loaded', link });
  const method = loaded.step === 'amount' ? run(loaded, { type: 'amount_changed', text: '50000' }, { type: 'amount_submitted' }) : loaded;
  return run(method, { type: 'method_chosen', id_payment_gateway: gateways[kind].id_payment_gateway });
}

/** From a fresh checkout to the order's first screen for `kind`. */
export function toOrderOf(kind: keyof typeof gateways, link = standardLink): FlowState {
  const details = run(toDetailsOf(kind, link), ...(kind === 'push' ? buyer.push : buyer.document), {
    type: 'details_submitted',
    idempotencyKey: 'key-1',
    returnUrl: 'https://shop.example/return',
  });
  return run(details, { type: 'order_created', order: makeCreated(kind) });
}
