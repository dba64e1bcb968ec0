import type { CheckoutGateway, CheckoutLink, CheckoutOrder, CheckoutOrderInput } from '../contract/checkout.js';
import type { CheckStatusRequest, DetailsFields, FlowState, OrderState, ResultState, WaitingState } from './types.js';

/** Everything a state with an order is built from. */
export interface OrderSeed {
  link: CheckoutLink;
  amount: number;
  gateway: CheckoutGateway | null;
  fields: DetailsFields;
  order: CheckoutOrder;
  orderToken: string;
  body: CheckoutOrderInput | null;
}

export function seedOf(state: OrderState): OrderSeed {
  const { link, amount, gateway, fields, order, orderToken, body } = state;
  return { link, amount, gateway, fields, order, orderToken, body };
}

/** The gateway of an order, from the link (the order itself only names it). */
export function gatewayOfOrder(link: CheckoutLink, order: CheckoutOrder): CheckoutGateway | null {
  return link.gateways.find((g) => g.id_payment_gateway === order.gateway.id_payment_gateway) ?? null;
}

/**
 * The screen an order calls for, fresh (no carry-over): confirmed → paid;
 * cancelled by decline → declined, by timeout → expired, by anyone else → cancelled;
 * refunded → cancelled (the money went back); pending/processing → the step of
 * its `next_action`, or `processing` when the buyer has nothing to do.
 */
export function orderState(seed: OrderSeed): OrderState {
  const { order } = seed;
  switch (order.status) {
    case 'confirmed':
      return result('paid', seed);
    case 'refunded':
      return result('cancelled', seed);
    case 'cancelled':
      if (order.cancel_reason === 'declined') return result('declined', seed);
      if (order.cancel_reason === 'expired') return result('expired', seed);
      return result('cancelled', seed);
    case 'pending':
    case 'processing':
      return waiting(seed);
  }
}

function result(step: ResultState['step'], seed: OrderSeed): ResultState {
  return { step, ...seed, request: null };
}

function waiting(seed: OrderSeed): WaitingState {
  const base = { ...seed, timeUp: false, notice: null, cancelling: false, after: null, request: null };
  const action = seed.order.next_action;
  if (!action) return { step: 'processing', ...base };
  switch (action.type) {
    case 'approve_push':
      return { step: 'push', ...base, action };
    case 'enter_otp':
      return { step: 'otp', ...base, action, code: '', error: null, attemptsLeft: action.attempts_left, submitting: false };
    case 'transfer':
      return { step: 'transfer', ...base, action };
    case 'redirect':
      return { step: 'redirect', ...base, action, returning: false };
  }
}

export function checkStatus(state: OrderState, final: boolean): CheckStatusRequest {
  return { kind: 'check_status', id_order: state.order.id_order, order_token: state.orderToken, final };
}

/**
 * A still-open order seen while waiting: follow its step, keeping what the
 * buyer's screen holds (typed code, countdown ended, a cancel in flight) when
 * the step is unchanged. A finished status check is cleared; a cancel or code
 * submission stays in flight until its own answer comes.
 */
export function updateWaiting(prev: WaitingState, order: CheckoutOrder): FlowState {
  const next = orderState({ ...seedOf(prev), order });
  if (next.step !== prev.step) return next;
  const keepRequest = prev.request && prev.request.kind !== 'check_status' ? prev.request : null;
  const kept = {
    timeUp: prev.timeUp,
    // A status answer ends "could not check", not "could not cancel": that one stays until the buyer acts again.
    notice: prev.notice === 'notice.status_check_failed' ? null : prev.notice,
    cancelling: keepRequest?.kind === 'cancel_order',
    after: keepRequest?.kind === 'cancel_order' ? prev.after : null,
    request: keepRequest,
  };
  if (next.step === 'otp' && prev.step === 'otp') {
    const submitting = keepRequest?.kind === 'submit_otp' || keepRequest?.kind === 'create_order';
    return { ...next, ...kept, code: prev.code, error: prev.error, submitting };
  }
  if (next.step === 'redirect' && prev.step === 'redirect') return { ...next, ...kept, returning: prev.returning };
  return { ...next, ...kept } as WaitingState;
}
