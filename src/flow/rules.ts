import type { CheckoutGateway } from '../contract/checkout-link.js';
import type { DocumentType } from '../contract/gateways.js';
import { idTypeChoices, neededFields, type ContactAsked } from './method-fields.js';
import { fail, ok } from './types.js';
import type { DetailsField, DetailsFields, FieldErrors, RuleResult } from './types.js';

export type { MessageKey, RuleResult } from './types.js';
export { parseAmount, formatAmountInput } from './amount-rules.js';
export { amountRange, gatewayAcceptsAmount } from './gateway-rules.js';
export { neededFields, idTypeChoices } from './method-fields.js';

/**
 * Buyer input rules for Colombia (docs/site/merchants/buyer-details.md). Pure: no DOM, no Intl needed to validate. The amount rules
 * (amount-rules.ts) and the per-method ones (gateway-rules.ts) live apart: the first screen needs only those.
 */

/** Mobile phone: 10 digits starting with 3, after stripping +57/57, spaces, dashes, dots and parentheses. */
export function normalizePhone(text: string): RuleResult<string> {
  const compact = text.replace(/[\s\u00a0().-]+/g, '');
  if (compact === '') return fail('phone_number.required');
  const national = compact.replace(/^\+57(?=\d{10}$)/, '').replace(/^57(?=\d{10}$)/, '');
  if (/^3\d{9}$/.test(national)) return ok(national);
  if (/^60\d{8}$/.test(national)) return fail('phone_number.landline');
  return fail('phone_number.invalid');
}

/** The most characters a CE has; other types get a sanity range and the service has the last word. */
const ceMaxLength = 12;
const idMinLength = 3;
const idMaxLength = 15;

/**
 * National ID number, normalized: dots, spaces and dashes stripped, letters upper-cased.
 * CC and TI: digits only. CE (and other types): letters and digits, CE up to 12.
 */
export function normalizeIdNumber(idTypeCode: string | undefined, text: string): RuleResult<string> {
  const compact = text.replace(/[\s\u00a0.-]+/g, '').toUpperCase();
  if (compact === '') return fail('id_number.required');
  const code = idTypeCode?.toUpperCase();
  const digitsOnly = code === 'CC' || code === 'TI';
  if (digitsOnly && !/^\d+$/.test(compact)) return fail('id_number.digits_only');
  if (!digitsOnly && !/^[A-Z0-9]+$/.test(compact)) return fail('id_number.letters_and_digits_only');
  if (compact.length < idMinLength) return fail('id_number.too_short');
  if (compact.length > (code === 'CE' ? ceMaxLength : idMaxLength)) return fail('id_number.too_long');
  return ok(compact);
}

/** SMS code: exactly 6 digits; spaces and dashes of a pasted "123 456" are dropped. */
export function validateOtp(text: string): RuleResult<string> {
  const compact = text.replace(/[\s\u00a0-]+/g, '');
  if (compact === '') return fail('otp.required');
  return /^\d{6}$/.test(compact) ? ok(compact) : fail('otp.invalid');
}

/**
 * The code in a paste: the text's only run of exactly 6 digits ("Tu código Daviplata es 123456…"), else its digits
 * (at most 6, for the buyer to complete); null when it holds none.
 */
export function otpFromText(text: string): string | null {
  const codes = text.match(/(?<!\d)\d{6}(?!\d)/g) ?? [];
  if (codes.length === 1) return codes[0] ?? null;
  const digits = otpInput(text);
  return digits === '' ? null : digits;
}

/** Keeps what an SMS-code input may hold: digits, at most 6. */
export function otpInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, 6);
}

const nameMaxLength = 100;

export function validateName(field: 'first_name' | 'last_name', text: string): RuleResult<string> {
  const value = text.trim().replace(/\s+/g, ' ');
  if (value === '') return fail(`${field}.required`);
  if (value.length > nameMaxLength) return fail(`${field}.too_long`);
  return ok(value);
}

/** A plain shape check; the service has the final word. */
export function validateEmail(text: string): RuleResult<string> {
  const value = text.trim();
  if (value === '') return fail('email.required');
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value) ? ok(value) : fail('email.invalid');
}

// ---------------------------------------------------------------------------
// Per-gateway rules

/** The shopper fields, normalized, ready for the order body. */
export type ShopperDetails = {
  id_type: number;
  id_number: string;
  phone_number?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
};

export type DetailsResult = { ok: true; value: ShopperDetails } | { ok: false; errors: FieldErrors };

/** Checks every needed field at once, so the screen can show all messages and a summary. */
export function validateDetails(
  gateway: CheckoutGateway,
  documentTypes: readonly DocumentType[],
  fields: DetailsFields,
  contact: ContactAsked,
): DetailsResult {
  const needed = neededFields(gateway, contact);
  const errors: FieldErrors = {};
  const value: Partial<ShopperDetails> = {};

  const idType = fields.id_type.trim();
  const docType = /^\d+$/.test(idType)
    ? idTypeChoices(gateway, documentTypes).find((d) => d.id_national_document_type === Number(idType))
    : undefined;
  if (idType === '') errors.id_type = 'id_type.required';
  else if (!docType) errors.id_type = 'id_type.not_accepted';
  else value.id_type = docType.id_national_document_type;

  const checks: [DetailsField, RuleResult<string>][] = [['id_number', normalizeIdNumber(docType?.type, fields.id_number)]];
  if (needed.includes('phone_number')) checks.push(['phone_number', normalizePhone(fields.phone_number)]);
  if (needed.includes('first_name')) checks.push(['first_name', validateName('first_name', fields.first_name)]);
  if (needed.includes('last_name')) checks.push(['last_name', validateName('last_name', fields.last_name)]);
  if (needed.includes('email')) checks.push(['email', validateEmail(fields.email)]);
  for (const [field, result] of checks) {
    if (result.ok) (value as Record<string, unknown>)[field] = result.value;
    else errors[field] = result.error;
  }

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value as ShopperDetails };
}
