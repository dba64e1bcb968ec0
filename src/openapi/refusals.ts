/**
 * Which 4xx answers each operation can give, as `api_code`s of the error catalog (src/contract/errors.ts): what every
 * route of its caller, path and body can be refused with, plus the refusals of its own rules (`Route.refuses`); and
 * which 5xx failures, in the document's `default` response. The sandbox (src/sandbox/) and `createCheckoutHandler()`
 * (src/server/) are what these lists describe; the document groups them by HTTP status, so a generated client or an
 * API portal sees each one with its code and message.
 */
import { errorCatalog, type ApiCode } from '../contract/index.js';
import type { Caller, Route } from './routes.js';

/** Refused before any route rule runs, by who the caller must be. An order's wrong token is a 404, like no order. */
const byCaller: Record<Caller, readonly ApiCode[]> = {
  merchant: ['MISSING_MERCHANT_KEY', 'INVALID_MERCHANT_KEY', 'INVALID_PARTNER_CREDENTIALS', 'UNAUTHORIZED_ACCESS'],
  partner: ['INVALID_PARTNER_CREDENTIALS'],
  'order-token': ['ORDER_NOT_FOUND'],
  public: [],
};

/**
 * Every write reads a JSON body within the contract's limits before routing (src/server/http/body.ts), a bodiless write
 * included, so hostile JSON is refused rather than ignored: broken, too deep or too large.
 */
const jsonRefusals: readonly ApiCode[] = ['MALFORMED_JSON', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE'];
/** A route that takes a body refuses one that is not JSON; a bodiless route leaves any other type unread. */
const bodyRefusals: readonly ApiCode[] = [...jsonRefusals, 'UNSUPPORTED_MEDIA_TYPE'];

/** A path parameter that is not a well-formed id, a body or query that does not parse: `validation_errors` says which. */
const validation: readonly ApiCode[] = ['VALIDATION_FAILED'];

/** Past an abuse limit of `createCheckoutHandler()` (per address, link, phone, document or order). */
const limited: readonly ApiCode[] = ['LIMIT_REACHED'];

/**
 * Answers that carry `Retry-After`: when the limit lets the request through, or when an order still being created, or
 * a link the shop's app did not give in time, can be asked for again.
 */
export const retryAfterCodes: ReadonlySet<ApiCode> = new Set(['LIMIT_REACHED', 'IDEMPOTENCY_KEY_IN_USE', 'LINK_SOURCE_UNAVAILABLE']);

/** Any operation can fail on the server's side: an unexpected error, or the service (or its claim store) not answering. */
const serverFailures: readonly ApiCode[] = ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'];
/** `pay-checkout serve` asks the shop's app for a link: it may not answer in time, or answer with no link record. */
const linkSourceFailures: readonly ApiCode[] = ['LINK_SOURCE_UNAVAILABLE', 'LINK_SOURCE_INVALID'];

/**
 * What the handler's webhook intake (`POST {basePath}/webhooks`, src/server/buyer/webhook-intake.ts) answers a delivery it
 * refuses: a signature or timestamp that does not verify, a body that is not the event's JSON, one over 100 KB.
 */
export const intakeRefusals: readonly ApiCode[] = ['UNAUTHORIZED_ACCESS', 'MALFORMED_JSON', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE'];

const idParameter = /\{(orderId|id_order|id_store|countryCode)\}/;
/** A link is looked up before anything else about it: no such link, or its store is no longer active. */
const linkParameter = /\{hash\}/;
const unknownLink: readonly ApiCode[] = ['LINK_NOT_FOUND'];

/** The `api_code`s of every 4xx answer a route can give, each once. */
export function refusalsOf(route: Route): ApiCode[] {
  const write = route.method !== 'get';
  const takesBody = route.body !== undefined;
  return [
    ...new Set([
      ...byCaller[route.caller],
      ...(idParameter.test(route.path) ? validation : []),
      ...(linkParameter.test(route.path) ? unknownLink : []),
      ...(takesBody ? bodyRefusals : write ? jsonRefusals : []),
      ...(route.query ? validation : []),
      ...(route.limited ? limited : []),
      ...(route.refuses ?? []),
    ]),
  ];
}

/** The `api_code`s of the 5xx answers a route can give (the document's `default` response), each once. */
export function failuresOf(route: Route): ApiCode[] {
  return [...serverFailures, ...(linkParameter.test(route.path) ? linkSourceFailures : [])];
}

/** `api_code`s by HTTP status, statuses ascending, each status's codes in catalog order. */
export function byStatus(codes: readonly ApiCode[]): Map<number, ApiCode[]> {
  const order = Object.keys(errorCatalog) as ApiCode[];
  const sorted = [...new Set(codes)].sort((a, b) => errorCatalog[a].httpStatus - errorCatalog[b].httpStatus || order.indexOf(a) - order.indexOf(b));
  const out = new Map<number, ApiCode[]>();
  for (const code of sorted) {
    const status = errorCatalog[code].httpStatus;
    if (status < 400 || status > 499) throw new Error(`OpenAPI: ${code} is ${status}, not a 4xx refusal.`);
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
}
