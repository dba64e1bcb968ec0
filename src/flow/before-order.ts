import { beforeOrderSteps, firstScreen, initialState } from './first-screen.js';
import { amountState, isDynamic } from './screens.js';
import { openOnlyMethod, toDetails } from './to-details.js';
import type { ErrorState, FlowEvent, FlowState, MethodState } from './types.js';

export { beforeOrderSteps, initialState };

/**
 * The flow up to choosing a method: loading, link unavailable, amount, method and the error screen. `transition()`
 * (machine.ts) runs these for those steps; the element's first script carries only first-screen.ts of it.
 */

/** The next state for a step of `beforeOrderSteps`, or undefined when the event does not apply. */
export function beforeOrder(state: FlowState, event: FlowEvent): FlowState | undefined {
  switch (state.step) {
    case 'method':
      return methodStep(state, event);
    case 'error':
      return state.resume.step === 'details' ? orderErrorStep(state, event) : firstScreen(state, event);
    default: {
      // The first screens stop at the method screen; a link with one method opens its details here.
      const next = firstScreen(state, event);
      return next && openOnlyMethod(next);
    }
  }
}

/**
 * The error screen after an order was tried: retry repeats the same request, back returns to the details. (Only the
 * later steps reach it, so the first script's first-screen.ts does not carry it.)
 */
function orderErrorStep(state: ErrorState, event: FlowEvent): FlowState | undefined {
  const { retry, resume } = state;
  if (event.type === 'retry' && retry?.kind === 'create_order' && resume.step === 'details') {
    // The same request object, so the same Idempotency-Key and body.
    return { ...resume, submitting: true, request: retry, attempt: { idempotencyKey: retry.idempotencyKey, body: retry.body } };
  }
  if (event.type === 'back' && resume.step === 'details') return resume;
  return undefined;
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
