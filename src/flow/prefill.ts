import type { DocumentType } from '../contract/gateways.js';
import { normalizePhone, validateDetails, validateEmail, validateName } from './rules.js';
import type { ShopperDetails } from './rules.js';
import type { DetailsField, DetailsFields, DetailsState, FieldErrors, FlowState, Prefill, RuleResult } from './types.js';

/**
 * What the page already knows about the buyer (the element's attributes `id-type`, `id-number`, `phone`, `email`, `first-name`,
 * `last-name`, or `shopper`), met on the details screen: checked by the same rules as typed values, so a value the
 * method cannot take shows its error, and a buyer whose every needed detail is there and valid is taken to pay.
 */

/** `id_type` as the select holds it: a document code (`CC`, `ce`) becomes its id (`"1"`); an unknown code stays, to be refused. */
export function documentTypeId(idType: string, documentTypes: readonly DocumentType[]): string {
  const code = idType.trim().toUpperCase();
  if (code === '' || /^\d+$/.test(code)) return code;
  const found = documentTypes.find((d) => d.type.toUpperCase() === code);
  return found ? String(found.id_national_document_type) : code;
}

/** Whether `next` opens the details screen afresh (not a refusal's, an error's or "change number"'s return to it). */
export function opensDetails(prev: FlowState, next: FlowState): next is DetailsState {
  return (
    next.step === 'details' &&
    prev.step !== 'details' &&
    prev.step !== 'error' &&
    !next.submitting &&
    next.focus === null &&
    next.formError === null &&
    Object.keys(next.errors).length === 0
  );
}

/**
 * The details screen as it opens: what the buyer typed before (`typed`) kept, the page's prefill in the fields still
 * empty, then each value there checked, its error shown; focus on the first one in error, or on the pay button when
 * every field the method needs is valid.
 */
export function openDetails(state: DetailsState, typed: DetailsFields, prefill?: Prefill): DetailsState {
  const fields = { ...state.fields };
  for (const f of Object.keys(fields) as DetailsField[]) fields[f] = typed[f] || prefill?.[f] || state.fields[f];
  fields.id_type = documentTypeId(fields.id_type, state.link.document_types);
  const checked = validateDetails(state.gateway, state.link.document_types, fields, state.link);
  const given = (f: DetailsField) => fields[f].trim() !== '';
  const errors: FieldErrors = {};
  if (!checked.ok) for (const f of state.needed) if (given(f) && checked.errors[f]) errors[f] = checked.errors[f];
  const wrong = state.needed.find((f) => errors[f]);
  const focus = wrong ?? (checked.ok ? 'pay' : null);
  return { ...state, fields, errors, focus };
}

const extraRules: Record<Exclude<DetailsField, 'id_type' | 'id_number'>, (text: string) => RuleResult<string>> = {
  phone_number: normalizePhone,
  first_name: (text) => validateName('first_name', text),
  last_name: (text) => validateName('last_name', text),
  email: validateEmail,
};

/**
 * The known details the method does not ask for (a prefilled email on a link that does not collect it, a phone for a
 * transfer), valid ones only: sent with the order, so the service gets what the store already told it.
 */
export function knownShopper(fields: DetailsFields, needed: readonly DetailsField[]): Partial<ShopperDetails> {
  const known: Partial<ShopperDetails> = {};
  for (const [field, rule] of Object.entries(extraRules) as [keyof typeof extraRules, (text: string) => RuleResult<string>][]) {
    if (needed.includes(field) || fields[field].trim() === '') continue;
    const result = rule(fields[field]);
    if (result.ok) known[field] = result.value;
  }
  return known;
}
