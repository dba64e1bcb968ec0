/** How the sandbox's records look on the wire, in the contract's shapes. */
import type {
  CheckoutGateway,
  CheckoutLink,
  CheckoutOrder,
  CreatedLink,
  CreatedOrder,
  OrderDetails,
  PaymentGateway,
  Store,
} from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { maskPhone, nextActionOf } from './gateways/simulators.js';
import type { SandboxGateway, SandboxLink, SandboxOrder, SandboxStore } from './model.js';
import { gatewayById, storeById } from './state.js';

export const checkoutUrlOf = (origin: string) => `${origin}/checkout`;

export function gatewayView(g: SandboxGateway, origin: string): PaymentGateway & CheckoutGateway {
  return {
    id_payment_gateway: g.id_payment_gateway,
    name: g.name,
    kind: g.kind,
    required_fields: g.required_fields,
    id_types: g.id_types,
    min_amount: g.min_amount,
    max_amount: g.max_amount,
    icon: origin + g.icon_path,
  };
}

function gatewayBlock(order: SandboxOrder): CreatedOrder['payment_gateway'] {
  const s = order.gateway_state;
  switch (s.kind) {
    case 'push':
      return { nequi: { phone_number: maskPhone(s.phone) } };
    case 'otp':
      return { daviplata: { attempts_left: s.attempts_left } };
    case 'transfer':
      return { breb: { ...(s.qr_png ? { qr_code: s.qr_png } : {}), qr_data: s.qr_data, key: s.key } };
    case 'card':
      return { stripe: { url: `/sandbox/card/${s.session}` } };
  }
}

/** `data` of `POST /orders`, per gateway as the live service answers. */
export function createdOrderView(ctx: SandboxContext, order: SandboxOrder): CreatedOrder {
  return {
    id_order: order.id_order,
    id_external: order.id_external,
    status: order.status,
    ...(order.gateway_state.kind === 'otp' ? { daviplata_token_required: true } : {}),
    payment_gateway: gatewayBlock(order),
    expires_at: order.expires_at === null ? null : ctx.iso(order.expires_at),
  };
}

/** `data` of `GET /orders/{orderId}`. */
export function orderDetailsView(ctx: SandboxContext, order: SandboxOrder): OrderDetails {
  const gateway = gatewayById(ctx.state, order.id_payment_gateway);
  return {
    id_order: order.id_order,
    id_external: order.id_external,
    purchase_date: ctx.iso(order.created_at),
    status: order.status,
    total: order.amount,
    currency: order.currency,
    description: order.description,
    payment_method: {
      gateway: gateway?.gateway ?? 'unknown',
      id_payment_gateway: order.id_payment_gateway,
      status: order.status === 'confirmed' || order.status === 'refunded' ? 'processed' : order.status === 'cancelled' ? 'failed' : 'pending',
    },
    payment_gateway: gatewayBlock(order),
    expires_at: order.expires_at === null ? null : ctx.iso(order.expires_at),
    confirmed_at: order.confirmed_at === null ? null : ctx.iso(order.confirmed_at),
    cancel_reason: order.cancel_reason,
    ...(order.refunded_at !== null ? { refunded_at: ctx.iso(order.refunded_at) } : {}),
  };
}

/** An order as the buyer sees it (no secrets, no other buyer's data). */
export function checkoutOrderView(ctx: SandboxContext, order: SandboxOrder, origin: string): CheckoutOrder {
  const gateway = gatewayById(ctx.state, order.id_payment_gateway);
  return {
    id_order: order.id_order,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    description: order.description,
    gateway: { id_payment_gateway: order.id_payment_gateway, name: gateway?.name ?? '', kind: gateway?.kind ?? 'push' },
    created_at: ctx.iso(order.created_at),
    confirmed_at: order.confirmed_at === null ? null : ctx.iso(order.confirmed_at),
    cancel_reason: order.cancel_reason,
    next_action: nextActionOf(order, origin, ctx.iso),
    // A paid transfer's reference at the bank is its transfer key: the receipt shows it.
    ...(order.status === 'confirmed' && order.gateway_state.kind === 'transfer' ? { reference: order.gateway_state.key } : {}),
  };
}

/**
 * An item of `GET /sandbox/orders`: the control view without the transfer QR's base64 PNG, which made every poll of
 * the list heavy; `qr_data` (what the bank app and the element render) stays, and `GET /sandbox/orders/{id}` has the PNG.
 */
export function sandboxOrderListItemView(ctx: SandboxContext, order: SandboxOrder, origin: string) {
  const view = sandboxOrderView(ctx, order, origin);
  const breb = view.payment_gateway?.breb;
  if (breb) view.payment_gateway = { ...view.payment_gateway, breb: { key: breb.key, qr_data: breb.qr_data } };
  if (view.next_action?.type === 'transfer') {
    const { type, key, qr_data, expires_at } = view.next_action;
    view.next_action = { type, key, ...(qr_data === undefined ? {} : { qr_data }), expires_at };
  }
  return view;
}

/** The control API's view: everything, including the SMS code the sandbox "sent". */
export function sandboxOrderView(ctx: SandboxContext, order: SandboxOrder, origin: string) {
  const s = order.gateway_state;
  const store = storeById(ctx.state, order.id_store);
  const link = [...ctx.state.links.values()].find((l) => l.payment_link_id === order.payment_link_id);
  return {
    ...orderDetailsView(ctx, order),
    id_store: order.id_store,
    store_name: store?.store_name ?? null,
    source: order.source,
    id_partner: order.id_partner,
    link_hash: link?.hash ?? null,
    gateway_kind: s.kind,
    shopper: order.shopper,
    otp: s.kind === 'otp' ? s.code : null,
    otp_attempts_left: s.kind === 'otp' ? s.attempts_left : null,
    phone: s.kind === 'push' ? s.phone : null,
    push_behaviour: s.kind === 'push' ? s.behaviour : null,
    transfer_key: s.kind === 'transfer' ? s.key : null,
    card_url: s.kind === 'card' ? `${origin}/sandbox/card/${s.session}` : null,
    next_action: nextActionOf(order, origin, ctx.iso),
    // A paid transfer's reference at the bank is its transfer key: the receipt shows it.
    ...(order.status === 'confirmed' && order.gateway_state.kind === 'transfer' ? { reference: order.gateway_state.key } : {}),
  };
}

export function linkStatusOf(ctx: SandboxContext, link: SandboxLink): 'active' | 'paid' | 'expired' {
  if (link.paid_at !== null) return 'paid';
  if (link.expires_at !== null && link.expires_at <= ctx.clock.now()) return 'expired';
  return 'active';
}

export function createdLinkView(ctx: SandboxContext, link: SandboxLink, origin: string): CreatedLink {
  return {
    payment_link_id: link.payment_link_id,
    payment_url: `${checkoutUrlOf(origin)}/${link.hash}`,
    hash: link.hash,
    expires_at: link.expires_at === null ? null : ctx.iso(link.expires_at),
  };
}

/** `GET /checkout/links/{hash}`: everything the first screen needs. */
export function checkoutLinkView(ctx: SandboxContext, link: SandboxLink, origin: string): CheckoutLink {
  const store = storeById(ctx.state, link.id_store);
  return {
    hash: link.hash,
    store_name: store?.store_name ?? '',
    description: link.description,
    ...(link.amount !== undefined ? { amount: link.amount } : {}),
    currency: link.currency,
    status: linkStatusOf(ctx, link),
    expires_at: link.expires_at === null ? null : ctx.iso(link.expires_at),
    collect_shopper_data: link.collect_shopper_data,
    gateways: ctx.state.gateways.filter((g) => g.currencies.includes(link.currency)).map((g) => gatewayView(g, origin)),
    document_types: ctx.state.documentTypes,
    ...(link.redirect_link ? { redirect_link: link.redirect_link } : {}),
    ...(link.image_url ? { image_url: link.image_url } : {}),
  };
}

export function storeView(store: SandboxStore, withKey = false): Store {
  return {
    id_store: store.id_store,
    external_id: store.external_id,
    external_store_id: store.external_store_id,
    store_name: store.store_name,
    ...(withKey ? { merchant_key: store.merchant_key } : {}),
  };
}
