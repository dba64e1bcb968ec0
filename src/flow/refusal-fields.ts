import { hasApiCode } from './errors.js';
import type { DetailsField, FieldErrors, FlowError, MessageKey } from './types.js';

/** What a service refusal of an order or a code is about: a field, the amount, the SMS code. */

export function isOtpError(error: FlowError): boolean {
  return error.category === 'service' && (error.apiCode === 'DAVIPLATA_OTP_ERROR' || error.code === 6105);
}

/** Service field names (with or without `shopper.`, legacy aliases too) → our field and its message. */
const serviceFields: Record<string, [DetailsField, MessageKey]> = {
  id_number: ['id_number', 'id_number.rejected'],
  national_id_number: ['id_number', 'id_number.rejected'],
  id_type: ['id_type', 'id_type.not_accepted'],
  id_national_document_type: ['id_type', 'id_type.not_accepted'],
  phone_number: ['phone_number', 'phone_number.invalid'],
  email: ['email', 'email.invalid'],
  first_name: ['first_name', 'first_name.required'],
  last_name: ['last_name', 'last_name.required'],
};

/** Whole-error codes that point at one field. */
const apiCodeFields: Record<string, [DetailsField, MessageKey]> = {
  GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED: ['id_type', 'id_type.not_accepted'],
  INVALID_PHONE: ['phone_number', 'phone_number.invalid'],
  INVALID_EMAIL: ['email', 'email.invalid'],
};

/** Field messages for a service refusal of the order body; empty when none maps to a shown field. */
export function serviceFieldErrors(error: FlowError, shown: readonly DetailsField[]): FieldErrors {
  const errors: FieldErrors = {};
  const byCode = error.apiCode ? apiCodeFields[error.apiCode] : undefined;
  if (byCode && shown.includes(byCode[0])) errors[byCode[0]] = byCode[1];
  for (const problem of error.validationErrors ?? []) {
    const mapped = serviceFields[problem.field.replace(/^shopper\./, '')];
    if (mapped && shown.includes(mapped[0]) && !errors[mapped[0]]) errors[mapped[0]] = mapped[1];
  }
  return errors;
}

/** Whether a service refusal is about the amount (AMOUNT_OUT_OF_RANGE, or a validation error on `amount`). */
export function isAmountError(error: FlowError): boolean {
  return (
    hasApiCode(error, 'AMOUNT_OUT_OF_RANGE', 'AMOUNT_REQUIRED') ||
    (error.category === 'service' && (error.validationErrors ?? []).some((p) => p.field === 'amount'))
  );
}
