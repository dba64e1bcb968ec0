import type { CheckoutGateway, DocumentType } from '../contract/index.js';
import { walletDocumentTypes } from '../contract/index.js';
import type { AmountRange, DetailsField, DetailsFields, FieldErrors, MessageKey, RuleResult } from './types.js';

export type { MessageKey, RuleResult } from './types.js';

/** Buyer input rules for Colombia (design.md §6). Pure: no DOM, no Intl needed to validate. */

const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const fail = <T>(error: MessageKey): RuleResult<T> => ({ ok: false, error });

/** Whole pesos: the most digits an amount input keeps (a trillion pesos is plenty). */
const maxAmountDigits = 13;

/**
 * Parses a COP amount as a Colombian buyer types it: "50.000", "$ 50.000", "50000".
 * Dots group thousands; a comma, or a dot followed by 1–2 trailing digits, is a decimal.
 */
export function parseAmount(text: string, range?: AmountRange): RuleResult<number> {
  const trimmed = text.replace(/[\s\u00a0]+/g, '').replace(/^(COP)?\$?/i, '').replace(/(COP)$/i, '');
  if (trimmed === '') return fail('amount.required');
  if (/[,]|\.\d{1,2}$/.test(trimmed) && /^[\d.,]+$/.test(trimmed)) return fail('amount.decimals');
  if (!/^(\d+|\d{1,3}(\.\d{3})+)$/.test(trimmed)) return fail('amount.invalid');
  const digits = trimmed.replace(/\./g, '').replace(/^0+(?=\d)/, '');
  if (digits.length > maxAmountDigits) return fail(range ? 'amount.above_max' : 'amount.invalid');
  const value = Number(digits);
  if (value === 0) return fail('amount.zero');
  if (range && value < range.min) return fail('amount.below_min');
  if (range && value > range.max) return fail('amount.above_max');
  return ok(value);
}

/** As-you-type formatting: keeps the digits and groups thousands with dots ("50000" → "50.000"). */
export function formatAmountInput(text: string): string {
  const digits = text.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, maxAmountDigits);
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

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

/** Keeps what an SMS-code input may hold: digits, at most 6. */
export function otpInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, 6);
}

const nameMaxLength = 100;

function validateName(field: 'first_name' | 'last_name', text: string): RuleResult<string> {
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

/** Lowest `min_amount` and highest `max_amount` of the gateways: what the amount screen accepts. */
export function amountRange(gateways: readonly CheckoutGateway[]): AmountRange {
  if (gateways.length === 0) return { min: 1, max: Number.MAX_SAFE_INTEGER };
  return {
    min: Math.max(1, Math.min(...gateways.map((g) => g.min_amount))),
    max: Math.max(...gateways.map((g) => g.max_amount)),
  };
}

export function gatewayAcceptsAmount(gateway: CheckoutGateway, amount: number): boolean {
  return amount >= gateway.min_amount && amount <= gateway.max_amount;
}

/**
 * The fields a method needs, in display order: always the document (the service
 * requires it for every gateway), the phone for push or when the gateway lists
 * it, and the contact fields when the link collects shopper data.
 */
export function neededFields(gateway: CheckoutGateway, collectShopperData: boolean): DetailsField[] {
  const phone =
    gateway.kind === 'push' || gateway.required_fields.includes('phone_number') || collectShopperData;
  const fields: DetailsField[] = ['id_type', 'id_number'];
  if (phone) fields.push('phone_number');
  if (collectShopperData) fields.push('first_name', 'last_name', 'email');
  return fields;
}

/**
 * The document types a method accepts: the gateway's `id_types` (all of them
 * when it lists none), and for the digital wallet and transfer only CC, CE, TI.
 */
export function idTypeChoices(gateway: CheckoutGateway, documentTypes: readonly DocumentType[]): DocumentType[] {
  const walletOnly = gateway.kind === 'otp' || gateway.kind === 'transfer';
  return documentTypes.filter(
    (d) =>
      (gateway.id_types.length === 0 || gateway.id_types.includes(d.id_national_document_type)) &&
      (!walletOnly || (walletDocumentTypes as readonly string[]).includes(d.type.toUpperCase())),
  );
}

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
  collectShopperData: boolean,
): DetailsResult {
  const needed = neededFields(gateway, collectShopperData);
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
