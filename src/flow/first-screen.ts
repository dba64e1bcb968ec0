import type { CheckoutLink } from '../contract/checkout-link.js';
import { hasApiCode, isRetryable } from './errors.js';
import { formatAmountInput, parseAmount } from './amount-rules.js';
import { amountState, emptyFields, errorState, isDynamic, methodState } from './screens.js';
import type { AmountState, ErrorState, FlowError, FlowEvent, FlowState, FlowStep, LoadingState, UnavailableState } from './types.js';
import type { DetailsFields } from './types.js';

/**
 * The flow as far as the first interactive screen: loading, link unavailable and the error screen, and the screen the
 * link opens on, and typing the amount. Choosing a method leads to a later step, so it is before-order.ts's, a later chunk.
 */

/** The steps `beforeOrder()` answers for (every event but `resumed`). */
export const beforeOrderSteps: readonly FlowStep[] = ['loading', 'unavailable', 'amount', 'method', 'error'];

/** Where every checkout starts: load the link. */
export function initialState(): LoadingState {
  return { step: 'loading', request: { kind: 'load_link' } };
}

/** The steps `firstScreen()` answers for entirely (typing stays instant); on `method` it answers nothing. */
export const firstScreenSteps: readonly FlowStep[] = ['loading', 'unavailable', 'amount', 'error'];

/** The next state for a step of `firstScreenSteps`, or undefined when the event does not apply. */
export function firstScreen(state: FlowState, event: FlowEvent): FlowState | undefined {
  switch (state.step) {
    case 'loading':
      if (event.type === 'link_loaded') return afterLink(event.link, emptyFields);
      if (event.type === 'link_failed') return linkFailed(event.error);
      // Always retryable: the order is still saved, and loading again resumes it.
      if (event.type === 'resume_failed') return errorState(event.error, { kind: 'load_link' }, { step: 'loading', request: null }, null);
      return undefined;
    case 'amount':
      return amountStep(state, event);
    case 'error':
      return errorStep(state, event);
    default:
      return undefined;
  }
}

function afterLink(link: CheckoutLink, fields: DetailsFields): FlowState {
  if (link.status === 'paid' || link.status === 'expired') return { step: 'unavailable', reason: link.status, link, request: null };
  if (link.gateways.length === 0) return errorState({ category: 'config' }, null, { step: 'loading', request: null }, link, 'error.no_methods');
  if (isDynamic(link)) return amountState(link, fields, null);
  return methodState(link, link.amount as number, fields, null);
}

function linkFailed(error: FlowError): FlowState {
  const unavailable = (reason: UnavailableState['reason']): UnavailableState => ({ step: 'unavailable', reason, link: null, request: null });
  const status = error.category === 'service' ? error.status : undefined;
  if (hasApiCode(error, 'LINK_NOT_FOUND') || status === 404) return unavailable('not_found');
  if (hasApiCode(error, 'LINK_EXPIRED') || status === 410) return unavailable('expired');
  if (hasApiCode(error, 'LINK_ALREADY_PAID')) return unavailable('paid');
  return errorState(error, isRetryable(error) ? { kind: 'load_link' } : null, { step: 'loading', request: null }, null);
}

/** The error screen before any order; one after an order was tried (it resumes details) is before-order.ts's. */
function errorStep(state: ErrorState, event: FlowEvent): FlowState | undefined {
  if (event.type === 'retry' && state.retry && state.resume.step === 'loading') return { step: 'loading', request: { kind: 'load_link' } };
  return undefined;
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
      return methodState(state.link, parsed.value, state.fields, state.gateway);
    }
    default:
      return undefined;
  }
}
