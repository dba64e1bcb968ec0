import { hasApiCode, isRetryable } from './errors.js';
import { detailsStep } from './details.js';
import { gatewayOfOrder, orderState } from './orders.js';
import { parseAmount, formatAmountInput } from './rules.js';
import { amountState, emptyFields, errorState, isDynamic, toDetails, toMethod } from './screens.js';
import type { AmountState, ErrorState, FlowError, FlowEvent, FlowState, LoadingState, MethodState, UnavailableState } from './types.js';
import type { CheckoutLink } from '../contract/index.js';
import type { DetailsFields } from './types.js';
import { waitingTransition } from './waiting.js';

/** Where every checkout starts: load the link. */
export function initialState(): LoadingState {
  return { step: 'loading', request: { kind: 'load_link' } };
}

/**
 * The whole buyer flow. Total: an event that does not apply to the state
 * returns the very same state object, so the host can compare by identity.
 */
export function transition(state: FlowState, event: FlowEvent): FlowState {
  return next(state, event) ?? state;
}

/** The next state, or undefined when the event does not apply. */
function next(state: FlowState, event: FlowEvent): FlowState | undefined {
  if (event.type === 'resumed') return resume(state, event);
  switch (state.step) {
    case 'loading':
      if (event.type === 'link_loaded') return afterLink(event.link, emptyFields);
      if (event.type === 'link_failed') return linkFailed(event.error);
      return undefined;
    case 'unavailable':
      return undefined;
    case 'amount':
      return amountStep(state, event);
    case 'method':
      return methodStep(state, event);
    case 'details':
      return detailsStep(state, event);
    case 'error':
      return errorStep(state, event);
    default:
      return waitingTransition(state, event);
  }
}

function afterLink(link: CheckoutLink, fields: DetailsFields): FlowState {
  if (link.status === 'paid' || link.status === 'expired') return { step: 'unavailable', reason: link.status, link, request: null };
  if (link.gateways.length === 0) return errorState({ category: 'config' }, null, { step: 'loading', request: null }, link, 'error.no_methods');
  if (isDynamic(link)) return amountState(link, fields, null);
  return toMethod(link, link.amount as number, fields, null);
}

function linkFailed(error: FlowError): FlowState {
  const unavailable = (reason: UnavailableState['reason']): UnavailableState => ({ step: 'unavailable', reason, link: null, request: null });
  const status = error.category === 'service' ? error.status : undefined;
  if (hasApiCode(error, 'LINK_NOT_FOUND') || status === 404) return unavailable('not_found');
  if (hasApiCode(error, 'LINK_EXPIRED') || status === 410) return unavailable('expired');
  if (hasApiCode(error, 'LINK_ALREADY_PAID')) return unavailable('paid');
  return errorState(error, isRetryable(error) ? { kind: 'load_link' } : null, { step: 'loading', request: null }, null);
}

function amountStep(state: AmountState, event: FlowEvent): FlowState | undefined {
  switch (event.type) {
    case 'amount_changed': {
      const text = formatAmountInput(event.text);
      return text === state.text && state.error === null ? undefined : { ...state, text, error: null };
    }
    case 'amount_submitted': {
      const parsed = parseAmount(state.text, state.range);
      if (!parsed.ok) return { ...state, error: parsed.error };
      return toMethod(state.link, parsed.value, state.fields, state.gateway);
    }
    default:
      return undefined;
  }
}

function methodStep(state: MethodState, event: FlowEvent): FlowState | undefined {
  switch (event.type) {
    case 'method_chosen': {
      const choice = state.choices.find((c) => c.gateway.id_payment_gateway === event.id_payment_gateway);
      if (!choice) return undefined;
      if (!choice.available) return { ...state, error: choice.reason };
      return toDetails(state.link, state.amount, state.fields, choice.gateway);
    }
    case 'back':
      return isDynamic(state.link) ? amountState(state.link, state.fields, state.amount, state.gateway) : undefined;
    default:
      return undefined;
  }
}

function errorStep(state: ErrorState, event: FlowEvent): FlowState | undefined {
  const { retry, resume } = state;
  if (event.type === 'retry' && retry) {
    if (resume.step === 'loading') return { step: 'loading', request: { kind: 'load_link' } };
    if (retry.kind !== 'create_order') return undefined;
    // The same request object, so the same Idempotency-Key and body.
    return { ...resume, submitting: true, request: retry, attempt: { idempotencyKey: retry.idempotencyKey, body: retry.body } };
  }
  if (event.type === 'back' && resume.step === 'details') return resume;
  return undefined;
}

/**
 * A saved order found on (re)load: straight to its step or result, as long as
 * no new order is under way. It also replaces "link already paid/expired": the
 * buyer's own order says more than the link does.
 */
function resume(state: FlowState, event: Extract<FlowEvent, { type: 'resumed' }>): FlowState | undefined {
  const beforeOrder =
    state.step === 'loading' ||
    (state.step === 'unavailable' && state.link !== null) ||
    state.step === 'amount' ||
    state.step === 'method' ||
    (state.step === 'details' && !state.submitting) ||
    (state.step === 'error' && state.resume.step === 'loading');
  if (!beforeOrder) return undefined;
  const { link, order, orderToken } = event;
  const fields = 'fields' in state ? state.fields : emptyFields;
  const resumed = orderState({ link, amount: order.amount, gateway: gatewayOfOrder(link, order), fields, order, orderToken, body: null });
  if (resumed.step === 'redirect' && event.returnedFromCard) {
    return { ...resumed, returning: true, request: { kind: 'check_status', id_order: order.id_order, order_token: orderToken, final: false } };
  }
  return resumed;
}
