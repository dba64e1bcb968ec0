import type { CheckoutOrder } from '../contract/checkout.js';
import { detailsInFlight } from './details.js';
import { errorMessage, hasApiCode } from './errors.js';
import { isOtpError } from './refusal-fields.js';
import { checkStatus, orderState, seedOf, updateWaiting } from './orders.js';
import { isWaitingStep } from './selectors.js';
import { otpInput, validateOtp } from './rules.js';
import { amountState, errorState, isDynamic } from './screens.js';
import { startOver, toDetails } from './to-details.js';
import type { FlowError, FlowEvent, FlowState, OrderState, OtpState, ResultState, WaitingState } from './types.js';

/** Every step with an order: waiting for the payment, and the results. */
export function waitingTransition(state: OrderState, event: FlowEvent): FlowState | undefined {
  switch (state.step) {
    case 'paid':
    case 'declined':
    case 'cancelled':
    case 'expired':
      return resultStep(state, event);
    default:
      return waitingStep(state, event);
  }
}

function resultStep(state: ResultState, event: FlowEvent): FlowState | undefined {
  // A dynamic link may be paid again, but only when the buyer asks from the receipt: never an empty form instead of it.
  if (state.step === 'paid') return event.type === 'new_payment' && isDynamic(state.link) ? amountState(state.link, state.fields, null) : undefined;
  // The service is the authority: a late confirmation of this very order wins over what we showed.
  if (event.type === 'status_received' && event.order.id_order === state.order.id_order && event.order.status === 'confirmed') {
    return orderState({ ...seedOf(state), order: event.order });
  }
  if (event.type === 'try_again') return startOver(state.link, state.amount, state.fields, state.gateway);
  return undefined;
}

/** A request the buyer started (not a status check) is in flight: no second one. */
const busy = (state: WaitingState) => state.request !== null && state.request.kind !== 'check_status';

function waitingStep(state: WaitingState, event: FlowEvent): FlowState | undefined {
  switch (event.type) {
    case 'status_received':
      return event.order.id_order === state.order.id_order ? statusReceived(state, event.order) : undefined;
    case 'status_failed':
      if (state.request?.kind === 'check_status') return { ...state, request: null, notice: 'notice.status_check_failed' };
      return state.notice === 'notice.status_check_failed' ? undefined : { ...state, notice: 'notice.status_check_failed' };
    case 'order_created':
      // Only "send a new code" creates an order from here.
      if (state.request?.kind !== 'create_order') return undefined;
      return orderState({ ...seedOf(state), order: stripToken(event.order), orderToken: event.order.order_token, body: state.request.body });
    case 'order_failed':
      return requestFailed(state, event);
    case 'otp_changed':
      if (state.step !== 'otp' || busy(state)) return undefined;
      return { ...state, code: otpInput(event.code), error: null };
    case 'otp_submitted': {
      if (state.step !== 'otp' || busy(state)) return undefined;
      const checked = validateOtp(event.code);
      if (!checked.ok) return { ...state, code: otpInput(event.code), error: checked.error };
      const request = { kind: 'submit_otp' as const, id_order: state.order.id_order, order_token: state.orderToken, code: checked.value };
      return { ...state, code: checked.value, error: null, submitting: true, request };
    }
    case 'otp_rejected':
      if (state.step !== 'otp' || (busy(state) && state.request?.kind !== 'submit_otp')) return undefined;
      return otpRejected(state, event.attempts_left);
    case 'cancel_requested':
      return busy(state) ? undefined : cancel(state, null);
    case 'change_number':
      return state.step === 'push' && !busy(state) ? cancel(state, { kind: 'change_number' }) : undefined;
    case 'change_method':
      return busy(state) ? undefined : cancel(state, { kind: 'change_method' });
    case 'new_code':
      if (state.step !== 'otp' || busy(state)) return undefined;
      return { ...cancel(state, { kind: 'new_code', idempotencyKey: event.idempotencyKey }), code: '', error: null };
    case 'time_up':
      if (state.request?.kind === 'check_status' && state.request.final) return undefined;
      if (busy(state)) return state.timeUp ? undefined : { ...state, timeUp: true };
      return { ...state, timeUp: true, request: checkStatus(state, true) };
    case 'retry':
      // "Check again" after a failed status check.
      return state.request === null && state.notice ? { ...state, notice: null, request: checkStatus(state, state.timeUp) } : undefined;
    case 'handoff_refused':
      return state.step === 'redirect' ? handoffRefused(state) : undefined;
    case 'returned_from_card':
      if (state.step !== 'redirect' || state.returning) return undefined;
      return { ...state, returning: true, request: state.request ?? checkStatus(state, false) };
    default:
      return undefined;
  }
}

/** An unreadable hand-off is the service's broken answer: the error screen, whose back leads to the details. */
function handoffRefused(state: WaitingState): FlowState {
  const resume = state.gateway ? toDetails(state.link, state.amount, state.fields, state.gateway) : ({ step: 'loading', request: null } as const);
  return errorState({ category: 'invalid_response' }, null, resume, state.link);
}

function stripToken(created: CheckoutOrder & { order_token: string }): CheckoutOrder {
  const { order_token: _token, ...order } = created;
  return order;
}

function cancel<S extends WaitingState>(state: S, after: S['after']): S {
  const request = { kind: 'cancel_order' as const, id_order: state.order.id_order, order_token: state.orderToken };
  return { ...state, cancelling: true, after, notice: null, request };
}

function statusReceived(state: WaitingState, order: CheckoutOrder): FlowState | undefined {
  const open = order.status === 'pending' || order.status === 'processing';
  if (!open && order.status === 'cancelled' && state.after) return afterCancel(state, order);
  // The old order of "send a new code" finished cancelling; the new one is on its way.
  if (state.request?.kind === 'create_order' && order.status === 'cancelled') return undefined;
  if (!open) return orderState({ ...seedOf(state), order });
  // The last check after the countdown still says open: only the service can end it. Cancel there, then say what is
  // true (cancelled: the time is up; refused because it was paid: the receipt).
  if (state.request?.kind === 'check_status' && state.request.final) {
    const still = updateWaiting(state, order);
    return isWaitingStep(still) ? { ...cancel(still, { kind: 'expire' }), timeUp: true } : still;
  }
  return updateWaiting(state, order);
}

/** The cancel the buyer asked for is done: go where they wanted. */
function afterCancel(state: WaitingState, order: CheckoutOrder): FlowState {
  const after = state.after;
  if (after?.kind === 'new_code' && state.step === 'otp' && state.body) {
    const request = { kind: 'create_order' as const, idempotencyKey: after.idempotencyKey, body: state.body };
    return { ...state, order, cancelling: false, after: null, submitting: true, timeUp: false, request };
  }
  if (after?.kind === 'expire') return { step: 'expired', ...seedOf(state), order, request: null };
  if (after?.kind === 'change_method' || !state.gateway) return startOver(state.link, state.amount, state.fields, null);
  const details = toDetails(state.link, state.amount, state.fields, state.gateway);
  return after?.kind === 'change_number' ? { ...details, focus: 'phone_number' } : details;
}

function requestFailed(state: WaitingState, event: Extract<FlowEvent, { type: 'order_failed' }>): FlowState | undefined {
  const request = state.request;
  if (!request) return undefined;
  switch (request.kind) {
    case 'submit_otp':
      return state.step === 'otp' ? otpFailed(state, event.error) : undefined;
    case 'cancel_order':
      return cancelFailed(state, event.error);
    case 'create_order': {
      // "Send a new code" failed to create the new order: answer it as the details screen would.
      if (!state.gateway) return undefined;
      const details = toDetails(state.link, state.amount, state.fields, state.gateway);
      const inFlight = { ...details, submitting: true, request, attempt: { idempotencyKey: request.idempotencyKey, body: request.body } };
      return detailsInFlight(inFlight, event);
    }
    default:
      return undefined;
  }
}

function otpFailed(state: OtpState, error: FlowError): FlowState {
  if (isOtpError(error)) return otpRejected(state, undefined);
  const idle = { ...state, submitting: false, request: null, error: errorMessage(error) };
  // The code may have reached the service; an unknown outcome keeps the screen, anything else asks the order.
  if (error.category === 'network' || error.category === 'invalid_response') return idle;
  return { ...idle, request: checkStatus(state, false) };
}

function otpRejected(state: OtpState, attemptsLeft: number | undefined): FlowState {
  const left = Math.max(0, attemptsLeft ?? state.attemptsLeft - 1);
  // No attempts left: the service cancels the order; ask it, so the screen follows.
  const request = left === 0 ? checkStatus(state, false) : null;
  return { ...state, attemptsLeft: left, code: '', error: 'otp.rejected', submitting: false, request };
}

function cancelFailed(state: WaitingState, error: FlowError): FlowState {
  const idle = { ...state, cancelling: false, request: null };
  // INVALID_ORDER_STATUS: the order already moved on (paid, or cancelled); ask it where it stands.
  if (hasApiCode(error, 'INVALID_ORDER_STATUS', 'ORDER_ALREADY_PROCESSED')) return { ...idle, request: checkStatus(state, false) };
  // The time-up cancel could not be confirmed: nothing can be said about a charge yet; "check again" repeats it.
  if (state.after?.kind === 'expire') return { ...idle, after: null, notice: 'notice.status_check_failed' };
  return { ...idle, after: null, notice: 'notice.cancel_failed' };
}
