import type { DetailsField, FieldErrors, FlowError, MessageKey } from './types.js';

/**
 * Turns whatever a client call threw into a `FlowError`, reading the `kind` of
 * the client's `PayCheckoutError` (duck-typed, so the flow imports no client code).
 * Timeouts and aborts count as `network`: the outcome is unknown either way.
 */
export function toFlowError(thrown: unknown): FlowError {
  const e = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as Record<string, unknown>;
  switch (e['kind']) {
    case 'service': {
      const error: FlowError = { category: 'service' };
      if (typeof e['status'] === 'number') error.status = e['status'];
      if (typeof e['code'] === 'number') error.code = e['code'];
      if (typeof e['apiCode'] === 'string') error.apiCode = e['apiCode'];
      if (Array.isArray(e['validationErrors'])) error.validationErrors = e['validationErrors'] as NonNullable<FlowError['validationErrors']>;
      return error;
    }
    case 'network':
    case 'timeout':
    case 'aborted':
      return { category: 'network' };
    case 'invalid_response':
      return { category: 'invalid_response' };
    default:
      // invalid_request or a plain exception: a bug or a bad setup on our side.
      return { category: 'config' };
  }
}

const rateLimited = (e: FlowError) => e.status === 429 || e.apiCode === 'RATE_LIMITED';
const serverSide = (e: FlowError) =>
  (e.status !== undefined && e.status >= 500) || e.apiCode === 'SERVICE_UNAVAILABLE' || e.apiCode === 'INTERNAL_SERVER_ERROR';

/** The error screen's message for a failure. */
export function errorMessage(error: FlowError): MessageKey {
  switch (error.category) {
    case 'network':
      return 'error.network';
    case 'invalid_response':
      return 'error.invalid_response';
    case 'config':
      return 'error.config';
    case 'service':
      if (rateLimited(error)) return 'error.rate_limited';
      return serverSide(error) ? 'error.unavailable' : 'error.service';
  }
}

/** Whether repeating the same request may succeed: unknown outcomes, rate limits and server faults. */
export function isRetryable(error: FlowError): boolean {
  return error.category === 'network' || error.category === 'invalid_response' || (error.category === 'service' && (rateLimited(error) || serverSide(error)));
}

export function isOtpError(error: FlowError): boolean {
  return error.category === 'service' && (error.apiCode === 'DAVIPLATA_OTP_ERROR' || error.code === 6105);
}

export function hasApiCode(error: FlowError, ...apiCodes: string[]): boolean {
  return error.category === 'service' && error.apiCode !== undefined && apiCodes.includes(error.apiCode);
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
