import type { ErrorMessageKey, FlowError } from './types.js';

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
      if (typeof e['retryAfterS'] === 'number') error.retryAfterS = e['retryAfterS'];
      if (Array.isArray(e['validationErrors'])) error.validationErrors = e['validationErrors'] as NonNullable<FlowError['validationErrors']>;
      return error;
    }
    case 'network':
    case 'timeout':
    case 'aborted':
      return { category: 'network' };
    case 'invalid_response': {
      // A proxy's or CDN's outage page (an HTML 502/503) is an unreadable answer, but what the buyer needs
      // to hear is that the service is unavailable: keep the status so the message can say so.
      const error: FlowError = { category: 'invalid_response' };
      if (typeof e['status'] === 'number') error.status = e['status'];
      if (Array.isArray(e['problems']) && e['problems'].length > 0) error.problems = e['problems'] as NonNullable<FlowError['problems']>;
      return error;
    }
    default:
      // invalid_request or a plain exception: a bug or a bad setup on our side.
      return { category: 'config' };
  }
}

const rateLimited = (e: FlowError) => e.status === 429 || e.apiCode === 'RATE_LIMITED';
/** A limit said no (429): the same request may pass once `Retry-After` has gone by. */
export const isRateLimited = (e: FlowError) => e.category === 'service' && rateLimited(e);
/** The server still creates or checks the order under this Idempotency-Key: the same request must be repeated. */
const beingChecked = (e: FlowError) => e.apiCode === 'IDEMPOTENCY_KEY_IN_USE';
const serverSide = (e: FlowError) =>
  (e.status !== undefined && e.status >= 500) || e.apiCode === 'SERVICE_UNAVAILABLE' || e.apiCode === 'INTERNAL_SERVER_ERROR';

/** When to try again after a 429, as the buyer hears it: in a minute, in a few minutes, in a few hours. */
const rateLimitedMessage = (seconds: number): ErrorMessageKey =>
  seconds <= 60 ? 'error.rate_limited' : seconds <= 20 * 60 ? 'error.rate_limited_minutes' : 'error.rate_limited_hours';

/** The error screen's message for a failure. */
export function errorMessage(error: FlowError): ErrorMessageKey {
  switch (error.category) {
    case 'network':
      return 'error.network';
    case 'invalid_response':
      return serverSide(error) ? 'error.unavailable' : 'error.invalid_response';
    case 'config':
      return 'error.config';
    case 'service':
      if (rateLimited(error)) return rateLimitedMessage(error.retryAfterS ?? 0);
      if (beingChecked(error)) return 'error.checking';
      return serverSide(error) ? 'error.unavailable' : 'error.service';
  }
}

/** Whether repeating the same request may succeed: unknown outcomes, rate limits and server faults. */
export function isRetryable(error: FlowError): boolean {
  return error.category === 'network' || error.category === 'invalid_response' || (error.category === 'service' && (rateLimited(error) || serverSide(error) || beingChecked(error)));
}

export function hasApiCode(error: FlowError, ...apiCodes: string[]): boolean {
  return error.category === 'service' && error.apiCode !== undefined && apiCodes.includes(error.apiCode);
}
