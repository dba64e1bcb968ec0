import { beforeOrder } from './before-order.js';
import { detailsStep } from './details.js';
import { gatewayOfOrder, orderState } from './orders.js';
import { emptyFields } from './screens.js';
import { openDetails, opensDetails } from './prefill.js';
import type { FlowEvent, FlowState, Prefill } from './types.js';
import { waitingTransition } from './waiting.js';

export { initialState } from './before-order.js';

/**
 * The whole buyer flow. Total: an event that does not apply to the state
 * returns the very same state object, so the host can compare by identity.
 */
export function transition(state: FlowState, event: FlowEvent, prefill?: Prefill): FlowState {
  const after = next(state, event) ?? state;
  // Whatever way the details screen opens, the page's prefill fills what is empty, and all that is there is checked.
  return opensDetails(state, after) ? openDetails(after, 'fields' in state ? state.fields : emptyFields, prefill) : after;
}

/** The next state, or undefined when the event does not apply. */
function next(state: FlowState, event: FlowEvent): FlowState | undefined {
  if (event.type === 'resume_retrying') return state.step === 'loading' ? { step: 'resuming', card: event.card, request: null } : undefined;
  // Resuming answers as loading does: the order, the link's first screen, or the error screen.
  if (state.step === 'resuming') return next({ step: 'loading', request: null }, event);
  if (event.type === 'resumed') return resume(state, event);
  if (event.type === 'receipt_restored') return restoreReceipt(state, event);
  switch (state.step) {
    case 'loading':
    case 'unavailable':
    case 'amount':
    case 'method':
    case 'error':
      return beforeOrder(state, event);
    case 'details':
      return detailsStep(state, event);
    default:
      return waitingTransition(state, event);
  }
}

/**
 * A saved order found on (re)load: straight to its step or result, as long as
 * no new order is under way. It also replaces "link already paid/expired": the
 * buyer's own order says more than the link does.
 */
function resume(state: FlowState, event: Extract<FlowEvent, { type: 'resumed' }>): FlowState | undefined {
  if (!noOrderYet(state)) return undefined;
  const { link, order, orderToken } = event;
  const fields = 'fields' in state ? state.fields : emptyFields;
  const resumed = orderState({ link, amount: order.amount, gateway: gatewayOfOrder(link, order), fields, order, orderToken, body: null });
  if (resumed.step === 'redirect' && event.returnedFromCard) {
    return { ...resumed, returning: true, request: { kind: 'check_status', id_order: order.id_order, order_token: orderToken, final: false } };
  }
  return resumed;
}

/** A receipt this device kept: the paid screen again, marked restored (no token, nothing to report again). */
function restoreReceipt(state: FlowState, event: Extract<FlowEvent, { type: 'receipt_restored' }>): FlowState | undefined {
  const { link, order } = event;
  if (!noOrderYet(state) || order.status !== 'confirmed') return undefined;
  const fields = 'fields' in state ? state.fields : emptyFields;
  const seed = { link, amount: order.amount, gateway: gatewayOfOrder(link, order), fields, order, orderToken: '', body: null };
  return { step: 'paid', ...seed, request: null, restored: true };
}

/** No new order is under way: a saved one may take the screen. */
function noOrderYet(state: FlowState): boolean {
  return (
    state.step === 'loading' ||
    (state.step === 'unavailable' && state.link !== null) ||
    state.step === 'amount' ||
    state.step === 'method' ||
    (state.step === 'details' && !state.submitting) ||
    (state.step === 'error' && state.resume.step === 'loading')
  );
}
