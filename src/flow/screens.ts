import type { CheckoutGateway, CheckoutLink } from '../contract/checkout-link.js';
import { errorMessage } from './errors.js';
import { formatAmountInput } from './amount-rules.js';
import { amountRange, gatewayAcceptsAmount, idTypeChoices, neededFields } from './gateway-rules.js';
import type { AmountState, DetailsFields, DetailsState, ErrorMessageKey, ErrorState, FlowError, FlowRequest, FlowState, ResumableState } from './types.js';

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

/** The method screen, or straight to details when the link offers a single method that takes the amount. */
export function toMethod(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway | null): FlowState {
  const choices = link.gateways.map((g) => {
    const available = gatewayAcceptsAmount(g, amount);
    return { gateway: g, available, reason: available ? null : ('method.amount_out_of_range' as const) };
  });
  const only = choices.length === 1 ? choices[0] : undefined;
  if (only?.available) return toDetails(link, amount, fields, only.gateway);
  const kept = gateway && choices.some((c) => c.available && c.gateway.id_payment_gateway === gateway.id_payment_gateway) ? gateway : null;
  return { step: 'method', link, amount, gateway: kept, fields, choices, error: null, request: null };
}

/** A fresh details screen for a method; a single accepted document type is chosen for the buyer. */
export function toDetails(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway): DetailsState {
  const idTypes = idTypeChoices(gateway, link.document_types);
  const accepted = idTypes.some((d) => String(d.id_national_document_type) === fields.id_type);
  const onlyType = idTypes.length === 1 ? idTypes[0] : undefined;
  const id_type = accepted ? fields.id_type : onlyType ? String(onlyType.id_national_document_type) : '';
  return {
    step: 'details',
    link,
    amount,
    gateway,
    fields: { ...fields, id_type },
    needed: neededFields(gateway, link.collect_shopper_data),
    idTypes,
    errors: {},
    formError: null,
    submitting: false,
    request: null,
    attempt: null,
    focus: null,
  };
}

/** "Try again" after a result: choose a method again, with the amount and what was typed. */
export function startOver(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway | null): FlowState {
  return toMethod(link, amount, fields, gateway);
}
