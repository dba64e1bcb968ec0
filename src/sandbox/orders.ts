/**
 * The order lifecycle of the contract's transition table: create (pending → processing as the
 * gateway starts), confirm, cancel, refund, expire. Every change goes through `findTransition`,
 * so a refused transition is INVALID_ORDER_STATUS and changes nothing.
 */
import {
  findTransition,
  refundWindowMs,
  type CancelReason,
  type OrderTrigger,
  type Shopper,
} from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { emitOrderEvent } from './events.js';
import { acceptedOtpCodes, expiryFor, normalizeMobile, startGateway } from './gateways/simulators.js';
import { ApiError, fieldError, validationError } from './http.js';
import type { OrderSource, SandboxGateway, SandboxLink, SandboxOrder, SandboxStore } from './model.js';
import { storeById } from './state.js';
import { orderChanged } from './status-wait.js';

export interface NewOrder {
  store: SandboxStore;
  gateway: SandboxGateway;
  amount: number;
  currency: string;
  description: string;
  shopper: Shopper;
  source: OrderSource;
  id_external: string | null;
  id_partner: number | null;
  link: SandboxLink | null;
  redirect_link?: string | null | undefined;
  redirect_link_cancel?: string | null | undefined;
  redirect_link_failure?: string | null | undefined;
  return_url?: string | null | undefined;
  order_token?: string | null;
}

/**
 * Checks what the gateway needs (currency, whole pesos, amount range, document type, phone).
 * Throws before anything is stored, so a refusal changes no state.
 */
export function checkPaymentInput(ctx: SandboxContext, input: Pick<NewOrder, 'gateway' | 'amount' | 'currency' | 'shopper'>): { phone: string | null } {
  const { gateway, amount, currency, shopper } = input;
  if (!gateway.currencies.includes(currency)) {
    throw new ApiError('INVALID_CURRENCY', { message: `${gateway.name} does not accept ${currency}.`, provided_currency: currency, supported_currency: gateway.currencies.join(',') });
  }
  if (currency === 'COP' && !Number.isInteger(amount)) throw fieldError('amount', 'must be whole pesos for COP');
  if (amount < gateway.min_amount || amount > gateway.max_amount) {
    throw fieldError('amount', `must be between ${gateway.min_amount} and ${gateway.max_amount} for ${gateway.name}`, 'AMOUNT_OUT_OF_RANGE');
  }
  if (!ctx.state.documentTypes.some((d) => d.id_national_document_type === shopper.id_type)) {
    throw fieldError('shopper.id_type', 'must be one of the national document types (GET /national-document-types/CO)');
  }
  if (!gateway.id_types.includes(shopper.id_type)) {
    throw new ApiError('GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED', { gateway_name: gateway.gateway, validation_errors: [{ field: 'shopper.id_type', message: `is not accepted by ${gateway.name}` }] });
  }
  if (gateway.kind !== 'push') return { phone: null };
  const rawPhone = typeof shopper.phone_number === 'string' ? shopper.phone_number : undefined;
  const phone = normalizeMobile(rawPhone);
  if (!phone) {
    const problem = { field: 'shopper.phone_number', message: rawPhone ? 'must be a Colombian mobile number: 10 digits starting with 3' : 'is required' };
    throw validationError([problem]);
  }
  return { phone };
}

/** Creates the order and starts its gateway: pending, then processing at once. Synchronous, so atomic. */
export function createOrder(ctx: SandboxContext, input: NewOrder): SandboxOrder {
  const { phone } = checkPaymentInput(ctx, input);
  const now = ctx.clock.now();
  const id_order = ctx.state.nextOrderId;
  const gateway_state = startGateway({
    gateway: input.gateway,
    store: input.store,
    idOrder: id_order,
    amount: input.amount,
    now,
    phone,
    returnUrl: input.return_url ?? null,
    pushAutoDeclineMs: ctx.pushAutoDeclineMs,
  });
  const order: SandboxOrder = {
    id_order,
    id_store: input.store.id_store,
    id_external: input.id_external,
    status: 'pending',
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    id_payment_gateway: input.gateway.id_payment_gateway,
    shopper: input.shopper,
    source: input.source,
    id_partner: input.id_partner,
    payment_link_id: input.link?.payment_link_id ?? null,
    created_at: now,
    confirmed_at: null,
    cancelled_at: null,
    refunded_at: null,
    cancel_reason: null,
    expires_at: now + expiryFor(input.gateway.kind),
    redirect_link: input.redirect_link ?? input.link?.redirect_link ?? null,
    redirect_link_cancel: input.redirect_link_cancel ?? input.link?.redirect_link_cancel ?? null,
    redirect_link_failure: input.redirect_link_failure ?? input.link?.redirect_link_failure ?? null,
    order_token: input.order_token ?? null,
    gateway_state,
  };
  ctx.state.nextOrderId += 1;
  ctx.state.orders.set(id_order, order);
  ctx.state.openOrders.add(id_order);
  ctx.state.nextDeadline = Math.min(ctx.state.nextDeadline, deadlineOf(order));
  if (gateway_state.kind === 'card') ctx.state.cardSessions.set(gateway_state.session, id_order);
  apply(ctx, order, 'gateway_processing');
  return order;
}

function apply(ctx: SandboxContext, order: SandboxOrder, trigger: OrderTrigger): void {
  const transition = findTransition(order.status, trigger);
  if (!transition) {
    throw new ApiError('INVALID_ORDER_STATUS', { description: `The order is ${order.status}; ${trigger.replace('_', ' ')} is not allowed from that status.` });
  }
  order.status = transition.to;
  if (transition.to !== 'pending' && transition.to !== 'processing') ctx.state.openOrders.delete(order.id_order);
  orderChanged(ctx.state, order.id_order);
}

export const isOpen = (order: SandboxOrder) => order.status === 'pending' || order.status === 'processing';

/**
 * Payment completed: confirmed, link paid, `order_payment` (+ `link_paid`) unless made in the dashboard. Each receiver
 * gets `link_paid` after its `order_payment` delivery has finished, or after `linkPaidWaitMs` if that one stalls.
 */
export function confirmOrder(ctx: SandboxContext, order: SandboxOrder): void {
  apply(ctx, order, 'payment_completed');
  const now = ctx.clock.now();
  order.confirmed_at = now;
  const link = linkOf(ctx, order);
  // A standard link is paid once; a dynamic link stays active for the next buyer.
  if (link && link.amount !== undefined && link.paid_at === null) link.paid_at = now;
  if (order.source === 'dashboard') return;
  const store = storeById(ctx.state, order.id_store);
  if (!store) return;
  const gateway = ctx.state.gateways.find((g) => g.id_payment_gateway === order.id_payment_gateway);
  const payment = emitOrderEvent(ctx, store, 'order_payment', {
    event: 'order_payment',
    timestamp: ctx.iso(now),
    id_order: order.id_order,
    id_external: order.id_external,
    status: order.status,
    total_price: order.amount,
    currency: order.currency,
    payment_method: { gateway: gateway?.gateway ?? 'unknown', status: 'processed' },
    totalItems: 1,
    shopper: { first_name: order.shopper.first_name ?? null, last_name: order.shopper.last_name ?? null, email: order.shopper.email ?? null },
    external_store_id: store.external_store_id,
    id_store: store.id_store,
    external_id: store.external_id,
  });
  if (link && link.source === 'api') {
    emitOrderEvent(ctx, store, 'link_paid', {
      event: 'link_paid',
      timestamp: ctx.iso(now),
      id_order: order.id_order,
      id_external: order.id_external,
      hash: link.hash,
      payment_link_id: link.payment_link_id,
      amount: order.amount,
      currency: order.currency,
      status: 'paid',
      id_store: store.id_store,
      external_store_id: store.external_store_id,
    }, payment);
  }
}

export function cancelOrder(ctx: SandboxContext, order: SandboxOrder, reason: CancelReason): void {
  apply(ctx, order, 'cancel');
  order.cancelled_at = ctx.clock.now();
  order.cancel_reason = reason;
  if (order.source === 'dashboard') return;
  const store = storeById(ctx.state, order.id_store);
  // Not finalized by the contract; sent only where the operator enabled it (off in the fixtures).
  if (store) emitOrderEvent(ctx, store, 'order_cancelled', { event: 'order_cancelled', timestamp: ctx.iso(), id_order: order.id_order, id_external: order.id_external, status: order.status, cancel_reason: reason, id_store: store.id_store, external_store_id: store.external_store_id });
}

/** Full refund of a confirmed order within 96 h of purchase; `id_external`, when sent, must match. */
export function refundOrder(ctx: SandboxContext, order: SandboxOrder, idExternal: string | undefined): void {
  if (idExternal !== undefined && idExternal !== order.id_external) {
    throw new ApiError('ORDER_NOT_FOUND', { description: 'No order with this id has that id_external.' });
  }
  if (order.status === 'confirmed' && ctx.clock.now() - order.created_at > refundWindowMs) {
    throw new ApiError('INVALID_ORDER_STATUS', { description: 'The 96-hour refund window has passed.' });
  }
  apply(ctx, order, 'refund');
  order.refunded_at = ctx.clock.now();
  const store = order.source === 'dashboard' ? undefined : storeById(ctx.state, order.id_store);
  // Not finalized by the contract; sent only where the operator enabled it (off in the fixtures).
  if (store) emitOrderEvent(ctx, store, 'order_refunded', { event: 'order_refunded', timestamp: ctx.iso(), id_order: order.id_order, id_external: order.id_external, status: order.status, total_price: order.amount, currency: order.currency, id_store: store.id_store, external_store_id: store.external_store_id });
}

/** The SMS code: an accepted code confirms; a wrong one is 6105 and three wrong ones cancel. */
export function submitOtp(ctx: SandboxContext, order: SandboxOrder, code: string): void {
  const state = order.gateway_state;
  if (state.kind !== 'otp') throw new ApiError('INVALID_ORDER_STATUS', { description: 'This order does not take an SMS code.' });
  if (!isOpen(order)) throw new ApiError('INVALID_ORDER_STATUS', { description: `The order is ${order.status}.` });
  if (acceptedOtpCodes.includes(code)) {
    confirmOrder(ctx, order);
    return;
  }
  state.attempts_left = Math.max(0, state.attempts_left - 1);
  if (state.attempts_left === 0) cancelOrder(ctx, order, 'otp_attempts');
  throw new ApiError('DAVIPLATA_OTP_ERROR', {
    gateway_name: 'daviplata',
    description: state.attempts_left === 0 ? 'Three wrong codes: the order was cancelled.' : `Wrong code; ${state.attempts_left} attempt(s) left.`,
    attempts_left: state.attempts_left,
    status: order.status,
  });
}

export function linkOf(ctx: SandboxContext, order: SandboxOrder): SandboxLink | undefined {
  if (order.payment_link_id === null) return undefined;
  for (const link of ctx.state.links.values()) if (link.payment_link_id === order.payment_link_id) return link;
  return undefined;
}

/** The next moment this open order changes by itself: its expiry, or a 0002 phone's own decline. */
function deadlineOf(order: SandboxOrder): number {
  const push = order.gateway_state.kind === 'push' ? order.gateway_state : null;
  return Math.min(order.expires_at ?? Number.POSITIVE_INFINITY, push?.auto_decline_at ?? Number.POSITIVE_INFINITY);
}

/** Lazy time: called before every request and after every clock advance. Costs nothing until a deadline passes. */
export function sweepExpired(ctx: SandboxContext): void {
  const now = ctx.clock.now();
  if (now < ctx.state.nextDeadline) return;
  let next = Number.POSITIVE_INFINITY;
  for (const id of ctx.state.openOrders) {
    const order = ctx.state.orders.get(id);
    if (!order) continue;
    const push = order.gateway_state.kind === 'push' ? order.gateway_state : null;
    if (push?.auto_decline_at != null && push.auto_decline_at <= now && (order.expires_at === null || push.auto_decline_at < order.expires_at)) {
      cancelOrder(ctx, order, 'declined');
    } else if (order.expires_at !== null && order.expires_at <= now) {
      cancelOrder(ctx, order, 'expired');
    } else {
      next = Math.min(next, deadlineOf(order));
    }
  }
  ctx.state.nextDeadline = next;
}
