import type { CheckoutOrderInput } from '../contract/checkout.js';
import { errorMessage, hasApiCode, isRateLimited, isRetryable } from './errors.js';
import { isAmountError, serviceFieldErrors } from './refusal-fields.js';
import { orderState } from './orders.js';
import { validateDetails, type ShopperDetails } from './rules.js';
import { amountState, errorState, isDynamic } from './screens.js';
import { toMethod } from './to-details.js';
import { knownShopper } from './prefill.js';
import type { DetailsState, FieldErrors, FlowError, FlowEvent, FlowState } from './types.js';

/** The buyer details screen: fields, submit, and the answer to `create_order`. */
export function detailsStep(state: DetailsState, event: FlowEvent): FlowState | undefined {
  if (state.submitting) return detailsInFlight(state, event);
  switch (event.type) {
    case 'field_changed': {
      if (!state.needed.includes(event.field) || state.fields[event.field] === event.value) return undefined;
      const { [event.field]: _cleared, ...errors } = state.errors;
      return { ...state, fields: { ...state.fields, [event.field]: event.value }, errors, formError: null, focus: null };
    }
    case 'consent_changed': {
      const { consent: _cleared, ...errors } = state.errors;
      return { ...state, consented: event.checked, errors, formError: null, focus: null };
    }
    case 'details_submitted': {
      const checked = validateDetails(state.gateway, state.link.document_types, state.fields, state.link);
      // Ley 1581: without the buyer's express consent (when the page asks for it) no order is made.
      const unconsented = event.consentRequired === true && state.consented !== true;
      if (!checked.ok || unconsented) {
        const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
        if (unconsented) errors.consent = 'consent.required';
        const focus = [...state.needed, 'consent' as const].find((f) => errors[f]) ?? null;
        return { ...state, errors, formError: null, focus };
      }
      const body = orderBody(state, { ...knownShopper(state.fields, state.needed), ...checked.value }, event.returnUrl);
      // One key per intent: the same body after an unknown outcome is the same intent.
      const idempotencyKey = state.attempt && sameBody(state.attempt.body, body) ? state.attempt.idempotencyKey : event.idempotencyKey;
      const request = { kind: 'create_order' as const, idempotencyKey, body };
      return { ...state, errors: {}, formError: null, focus: null, submitting: true, request, attempt: { idempotencyKey, body } };
    }
    case 'back':
      if (state.link.gateways.length > 1) return toMethod(state.link, state.amount, state.fields, state.gateway);
      return isDynamic(state.link) ? amountState(state.link, state.fields, state.amount, state.gateway) : undefined;
    default:
      return undefined;
  }
}

function orderBody(state: DetailsState, shopper: ShopperDetails, returnUrl: string | undefined): CheckoutOrderInput {
  const body: CheckoutOrderInput = {
    ...(isDynamic(state.link) ? { amount: state.amount } : {}),
    payment_gateway: { id_payment_gateway: state.gateway.id_payment_gateway },
    shopper,
  };
  if (state.gateway.kind === 'card' && returnUrl) body.return_url = returnUrl;
  return body;
}

/** Bodies are built by `orderBody` in a fixed key order, so their JSON compares them. */
const sameBody = (a: CheckoutOrderInput, b: CheckoutOrderInput) => JSON.stringify(a) === JSON.stringify(b);

/** While `create_order` is in flight only its answer applies: a second submit is ignored. */
export function detailsInFlight(state: DetailsState, event: FlowEvent): FlowState | undefined {
  if (event.type === 'order_created') {
    const { order_token: orderToken, ...order } = event.order;
    const body = state.request?.body ?? null;
    return orderState({ link: state.link, amount: state.amount, gateway: state.gateway, fields: state.fields, order, orderToken, body });
  }
  if (event.type === 'order_failed') return createFailed(state, event.error);
  return undefined;
}

/**
 * `create_order` failed. Unknown outcomes and server faults go to the error
 * screen with the same request to retry; refusals come back to the field (or
 * the amount, or the method) they are about, and drop the attempt's key.
 */
function createFailed(state: DetailsState, error: FlowError): FlowState {
  const idle = { ...state, submitting: false, request: null };
  // A limit keeps the buyer on the form, focus where it was, with the same attempt ready for when the wait is over.
  if (isRateLimited(error)) return { ...idle, formError: errorMessage(error) };
  if (isRetryable(error)) return errorState(error, state.request, idle, state.link);
  const settled = { ...idle, attempt: null };
  if (error.category !== 'service') return errorState(error, null, settled, state.link);
  if (hasApiCode(error, 'LINK_EXPIRED', 'LINK_ALREADY_PAID')) {
    return { step: 'unavailable', reason: error.apiCode === 'LINK_EXPIRED' ? 'expired' : 'paid', link: state.link, request: null };
  }
  if (isAmountError(error)) {
    if (isDynamic(state.link)) return { ...amountState(state.link, state.fields, state.amount, state.gateway), error: 'amount.out_of_range' };
    const method = toMethod(state.link, state.amount, state.fields, null);
    return method.step === 'method' ? { ...method, error: 'method.amount_out_of_range' } : { ...settled, formError: 'details.refused' };
  }
  const errors = serviceFieldErrors(error, state.needed);
  const focus = state.needed.find((f) => errors[f]) ?? null;
  if (focus) return { ...settled, errors, focus };
  // IDEMPOTENCY_KEY_REUSED: the attempt is dropped, so the next submit takes a fresh key.
  return { ...settled, formError: hasApiCode(error, 'IDEMPOTENCY_KEY_REUSED') ? 'details.try_again' : 'details.refused' };
}
