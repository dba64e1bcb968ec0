import type { CheckoutGateway, CheckoutLink } from '../contract/checkout-link.js';
import { errorMessage } from './errors.js';
import { formatAmountInput } from './amount-rules.js';
import { amountRange, gatewayAcceptsAmount } from './gateway-rules.js';
import type { AmountState, DetailsFields, ErrorMessageKey, ErrorState, FlowError, FlowRequest, FlowState, MethodState, ResumableState } from './types.js';

/** Builders of the pre-order screens, shared by every step that leads back to them. */

export const emptyFields: DetailsFields = { id_type: '', id_number: '', phone_number: '', first_name: '', last_name: '', email: '' };

/** A link without an amount is dynamic: the buyer types it. */
export const isDynamic = (link: CheckoutLink) => link.amount === undefined || link.amount === null;

export function errorState(
  error: FlowError,
  retry: FlowRequest | null,
  resume: ResumableState,
  link: CheckoutLink | null,
  message: ErrorMessageKey = errorMessage(error),
): ErrorState {
  return { step: 'error', error, message, retry, resume, link, request: null };
}

export function amountState(link: CheckoutLink, fields: DetailsFields, amount: number | null, gateway: CheckoutGateway | null = null): AmountState {
  const text = amount === null ? '' : formatAmountInput(String(amount));
  return { step: 'amount', link, amount, gateway, fields, text, error: null, range: amountRange(link.gateways), request: null };
}

/** The method screen: the link's methods, each marked available or not for this amount (the chosen one kept if it is). */
export function methodState(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway | null): MethodState {
  const choices = link.gateways.map((g) => {
    const available = gatewayAcceptsAmount(g, amount);
    return { gateway: g, available, reason: available ? null : ('method.amount_out_of_range' as const) };
  });
  const kept = gateway && choices.some((c) => c.available && c.gateway.id_payment_gateway === gateway.id_payment_gateway) ? gateway : null;
  return { step: 'method', link, amount, gateway: kept, fields, choices, error: null, request: null };
}

/**
 * The link's one method, when it takes the amount: its details open instead of a method screen (to-details.ts, with
 * the later steps; the first screens' script leaves that to them).
 */
export function onlyMethod(state: FlowState): CheckoutGateway | undefined {
  const only = state.step === 'method' && state.choices.length === 1 ? state.choices[0] : undefined;
  return only?.available ? only.gateway : undefined;
}
