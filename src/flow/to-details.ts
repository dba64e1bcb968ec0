import type { CheckoutGateway, CheckoutLink } from '../contract/checkout-link.js';
import { idTypeChoices, neededFields } from './method-fields.js';
import { methodState, onlyMethod } from './screens.js';
import type { DetailsFields, DetailsState, FlowState } from './types.js';

/**
 * Builders of the details screen and of the way to it, with the later steps: the first screens' script stops at the
 * method screen (screens.ts), so none of the details' rules ride in it.
 */

/** The method screen, or straight to details when the link offers a single method that takes the amount. */
export function toMethod(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway | null): FlowState {
  return openOnlyMethod(methodState(link, amount, fields, gateway));
}

/** A method screen with one method that takes the amount opens that method's details instead. */
export function openOnlyMethod<S extends FlowState>(state: S): S | DetailsState {
  const only = onlyMethod(state);
  return only && state.step === 'method' ? toDetails(state.link, state.amount, state.fields, only) : state;
}

/**
 * A fresh details screen for a method; a single accepted document type is chosen for the buyer. A document type the
 * method does not take is kept, so the screen shows its error (prefill.ts) instead of dropping it silently.
 */
export function toDetails(link: CheckoutLink, amount: number, fields: DetailsFields, gateway: CheckoutGateway): DetailsState {
  const idTypes = idTypeChoices(gateway, link.document_types);
  const onlyType = idTypes.length === 1 ? idTypes[0] : undefined;
  const id_type = fields.id_type || (onlyType ? String(onlyType.id_national_document_type) : '');
  return {
    step: 'details',
    link,
    amount,
    gateway,
    fields: { ...fields, id_type },
    needed: neededFields(gateway, link),
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
