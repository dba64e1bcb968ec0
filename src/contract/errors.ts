import * as z from 'zod/mini';

/** Error body of every failed request. */
export const ErrorResponseSchema = z.looseObject({
  code: z.int(),
  api_code: z.optional(z.string()),
  message: z.string(),
  description: z.optional(z.string()),
  error: z.literal(true),
  gateway_name: z.optional(z.string()),
  provided_currency: z.optional(z.string()),
  supported_currency: z.optional(z.string()),
  validation_errors: z.optional(
    z.array(z.looseObject({ field: z.string(), message: z.string(), value: z.optional(z.unknown()) })),
  ),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export interface ErrorCatalogEntry {
  code: number;
  httpStatus: number;
  message: string;
  /** Where the entry comes from: the contract, the live service's documentation, or our own choice (docs/site/contributing/decisions.md). */
  source: 'contract' | 'live-docs' | 'pay-checkout';
}

/**
 * Every error the service (and so the sandbox) can return, by `api_code`.
 * The contract's codes win; live-docs codes fill what it leaves out, except
 * where the contract overrides them (ORDER_NOT_FOUND is 4010 not 3003,
 * INVALID_ORDER_STATUS is 4011 not 3005, an expired refund window is 4011 not
 * 3018). Codes marked `pay-checkout` are ours where both are silent.
 */
export const errorCatalog = {
  MISSING_MERCHANT_KEY: { code: 1001, httpStatus: 401, message: 'The merchant-key header is missing.', source: 'live-docs' },
  UNAUTHORIZED_ACCESS: { code: 1003, httpStatus: 401, message: 'These credentials may not act for this store.', source: 'live-docs' },
  INSUFFICIENT_SCOPE: { code: 1004, httpStatus: 401, message: 'These credentials have no access to this resource.', source: 'live-docs' },
  INVALID_PARTNER_CREDENTIALS: { code: 1005, httpStatus: 401, message: 'X-API-Key and X-API-Secret must both be present and valid.', source: 'pay-checkout' },
  INVALID_STORE_API_KEY: { code: 1007, httpStatus: 401, message: 'The shop API key is missing, unknown or revoked.', source: 'pay-checkout' },
  REQUEST_NOT_ALLOWED: { code: 1006, httpStatus: 403, message: 'The sandbox does not take this request from that host or origin.', source: 'pay-checkout' },
  VALIDATION_FAILED: { code: 2000, httpStatus: 400, message: 'The request did not pass validation.', source: 'live-docs' },
  REQUIRED_FIELD_MISSING: { code: 2001, httpStatus: 400, message: 'A required field is missing.', source: 'live-docs' },
  INVALID_FIELD_FORMAT: { code: 2002, httpStatus: 400, message: 'A field has the wrong format.', source: 'live-docs' },
  AMOUNT_REQUIRED: { code: 2003, httpStatus: 400, message: 'The amount is required and must be positive.', source: 'live-docs' },
  DESCRIPTION_REQUIRED: { code: 2004, httpStatus: 400, message: 'The description is required.', source: 'live-docs' },
  INVALID_CURRENCY: { code: 2005, httpStatus: 400, message: 'The currency must be a 3-letter ISO code.', source: 'live-docs' },
  INVALID_EMAIL: { code: 2006, httpStatus: 400, message: 'The email address is invalid.', source: 'live-docs' },
  INVALID_PHONE: { code: 2007, httpStatus: 400, message: 'The phone number is invalid.', source: 'live-docs' },
  INVALID_URL: { code: 2008, httpStatus: 400, message: 'The URL is invalid.', source: 'live-docs' },
  INVALID_WEBHOOK_URL: { code: 2009, httpStatus: 400, message: 'The webhook URL must use https.', source: 'contract' },
  UNSUPPORTED_EVENT: { code: 2010, httpStatus: 400, message: 'One of the events is not supported.', source: 'contract' },
  AMOUNT_OUT_OF_RANGE: { code: 2011, httpStatus: 400, message: 'The amount is outside what this payment method accepts.', source: 'pay-checkout' },
  MALFORMED_JSON: { code: 2012, httpStatus: 400, message: 'The request body is not valid JSON.', source: 'pay-checkout' },
  UNSUPPORTED_MEDIA_TYPE: { code: 2013, httpStatus: 415, message: 'The request body must be application/json.', source: 'pay-checkout' },
  PAYLOAD_TOO_LARGE: { code: 2014, httpStatus: 413, message: 'The request body is larger than 100 KB.', source: 'pay-checkout' },
  IDEMPOTENCY_KEY_REQUIRED: { code: 2015, httpStatus: 400, message: 'The Idempotency-Key header is required.', source: 'pay-checkout' },
  NOTIFY_URL_NOT_PUBLIC: { code: 2016, httpStatus: 400, message: 'The notify URL must be https on a public address.', source: 'pay-checkout' },
  MERCHANT_KEY_NOT_ACCEPTED: { code: 2017, httpStatus: 400, message: 'The service did not accept this merchant key for this partner.', source: 'pay-checkout' },
  STORE_NOT_FOUND: { code: 3001, httpStatus: 404, message: 'The store does not exist.', source: 'live-docs' },
  STORE_INACTIVE: { code: 3002, httpStatus: 400, message: 'The store is not active.', source: 'live-docs' },
  ORDER_ALREADY_PROCESSED: { code: 3004, httpStatus: 400, message: 'The order can no longer be changed.', source: 'live-docs' },
  LINK_NOT_FOUND: { code: 3010, httpStatus: 404, message: 'The payment link does not exist.', source: 'pay-checkout' },
  LINK_EXPIRED: { code: 3011, httpStatus: 410, message: 'The payment link has expired.', source: 'pay-checkout' },
  LINK_ALREADY_PAID: { code: 3012, httpStatus: 409, message: 'The payment link has already been paid.', source: 'pay-checkout' },
  IDEMPOTENCY_KEY_REUSED: { code: 3013, httpStatus: 409, message: 'This Idempotency-Key was used with a different request body.', source: 'pay-checkout' },
  NOT_FOUND: { code: 3014, httpStatus: 404, message: 'No such endpoint.', source: 'pay-checkout' },
  METHOD_NOT_ALLOWED: { code: 3015, httpStatus: 405, message: 'This method is not allowed on this endpoint.', source: 'pay-checkout' },
  IDEMPOTENCY_KEY_IN_USE: { code: 3016, httpStatus: 409, message: 'The order for this Idempotency-Key is still being created or checked; retry with the same key.', source: 'pay-checkout' },
  LIMIT_REACHED: { code: 3017, httpStatus: 429, message: 'Too many attempts; wait before trying again.', source: 'pay-checkout' },
  BOT_CHECK_FAILED: { code: 3019, httpStatus: 403, message: 'The check that a person is paying did not pass; complete it again.', source: 'pay-checkout' },
  STORE_NOT_CONNECTED: { code: 3020, httpStatus: 409, message: 'The shop is not connected to the service; connect it first.', source: 'pay-checkout' },
  STORE_DISCONNECTED: { code: 3021, httpStatus: 410, message: 'The shop of this link has disconnected; its links take no payments.', source: 'pay-checkout' },
  STORE_ALREADY_CONNECTED: { code: 3022, httpStatus: 409, message: 'The shop is connected already.', source: 'pay-checkout' },
  CONNECT_URL_EXPIRED: { code: 3023, httpStatus: 410, message: 'This connect URL is used or expired; ask for a fresh one.', source: 'pay-checkout' },
  PAYMENT_GATEWAY_REQUIRED: { code: 4001, httpStatus: 400, message: 'No payment gateway was specified.', source: 'contract' },
  PAYMENT_PROCESSING_FAILED: { code: 4002, httpStatus: 400, message: 'The payment could not be processed.', source: 'live-docs' },
  GATEWAY_NOT_SUPPORTED: { code: 4004, httpStatus: 400, message: 'This payment gateway is not supported here.', source: 'live-docs' },
  PAYMENT_VALIDATION_FAILED: { code: 4005, httpStatus: 400, message: 'The payment data did not pass validation.', source: 'live-docs' },
  INVALID_MERCHANT_KEY: { code: 4007, httpStatus: 401, message: 'The merchant key is invalid or expired.', source: 'contract' },
  ORDER_NOT_FOUND: { code: 4010, httpStatus: 404, message: 'The order does not exist or is not accessible.', source: 'contract' },
  INVALID_ORDER_STATUS: { code: 4011, httpStatus: 400, message: 'The order is not in a status that allows this operation.', source: 'contract' },
  SERVICE_UNAVAILABLE: { code: 5002, httpStatus: 503, message: 'The service is temporarily unavailable.', source: 'live-docs' },
  RATE_LIMITED: { code: 5003, httpStatus: 429, message: 'Too many requests.', source: 'live-docs' },
  LINK_SOURCE_UNAVAILABLE: { code: 5010, httpStatus: 503, message: "The shop's app did not answer for this link in time; try again.", source: 'pay-checkout' },
  LINK_SOURCE_INVALID: { code: 5011, httpStatus: 502, message: "The shop's app answered for this link with something that is not a link record.", source: 'pay-checkout' },
  GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED: { code: 6001, httpStatus: 400, message: 'This payment method does not accept that document type.', source: 'pay-checkout' },
  DAVIPLATA_OTP_ERROR: { code: 6105, httpStatus: 400, message: 'Invalid or expired OTP', source: 'live-docs' },
  INTERNAL_SERVER_ERROR: { code: 7001, httpStatus: 500, message: 'An unexpected error occurred.', source: 'contract' },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type ApiCode = keyof typeof errorCatalog;

/** Builds the ErrorResponse body for a catalog entry. */
export function errorBody(
  apiCode: ApiCode,
  extra: Partial<Omit<ErrorResponse, 'code' | 'api_code' | 'error'>> = {},
): ErrorResponse {
  const entry = errorCatalog[apiCode];
  return { code: entry.code, api_code: apiCode, message: entry.message, error: true, ...extra };
}
