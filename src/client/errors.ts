import type { ErrorResponse } from '../contract/errors.js';
import type { FieldProblem } from '../contract/problems.js';
import { summarizeProblems } from '../contract/problems.js';

/** What went wrong, as a category a caller can branch on. */
export type PayCheckoutErrorKind = 'service' | 'network' | 'timeout' | 'aborted' | 'invalid_response' | 'invalid_request';

/** Base of every error the clients throw; `kind` tells the categories apart. */
export abstract class PayCheckoutError extends Error {
  abstract readonly kind: PayCheckoutErrorKind;
}

/** The service answered with its ErrorResponse body. */
export class ServiceError extends PayCheckoutError {
  readonly kind = 'service' as const;
  /** Numeric code, e.g. 4007. */
  readonly code: number;
  /** Machine-readable identifier, e.g. `INVALID_MERCHANT_KEY`. */
  readonly apiCode: string | undefined;
  /** HTTP status of the response. */
  readonly status: number;
  readonly description: string | undefined;
  readonly gatewayName: string | undefined;
  readonly validationErrors: readonly FieldProblem[];
  /** The whole error body, as sent. */
  readonly body: ErrorResponse;
  /** Seconds the answer's `Retry-After` asks to wait (429, 503), when it said. */
  readonly retryAfterS: number | undefined;

  /**
   * False when the service failed without its ErrorResponse (an HTML page, a framework's `{statusCode, message}`):
   * `body` is then ours, naming the HTTP status and the route, and `code` is 0.
   */
  readonly serviceBody: boolean;
  /** The call that failed (`PUT /orders/5/cancel`), when the error was built from a foreign body. */
  readonly route: string | undefined;

  constructor(status: number, body: ErrorResponse, retryAfterS?: number, foreign?: { route: string }) {
    super(body.message);
    this.serviceBody = foreign === undefined;
    this.route = foreign?.route;
    this.retryAfterS = retryAfterS;
    this.name = 'ServiceError';
    this.status = status;
    this.body = body;
    this.code = body.code;
    this.apiCode = body.api_code;
    this.description = body.description;
    this.gatewayName = body.gateway_name;
    this.validationErrors = (body.validation_errors ?? []).map(({ field, message }) => ({ field, message }));
  }

  /** A failure answered without the service's error body: said plainly, with the HTTP status and the route. */
  static foreign(status: number, route: string, said: string | undefined, retryAfterS?: number): ServiceError {
    const message = `The payment service answered HTTP ${status} to ${route} without its error body${said ? ` (it said: ${JSON.stringify(said)})` : ''}.`;
    return new ServiceError(status, { code: 0, api_code: `HTTP_${status}`, message, error: true }, retryAfterS, { route });
  }
}

/** A request that got no answer, said the way a developer can act on: what was tried, and what to check. */
export interface UnansweredOptions {
  cause?: unknown;
  /** What was tried: `GET https://…/v1/orders/42`. */
  request?: string | undefined;
  /** Replaces the short default message (the clients write one naming the request and what to check). */
  message?: string | undefined;
}

/** The request never got an answer: offline, DNS, connection refused, CORS. */
export class NetworkError extends PayCheckoutError {
  readonly kind = 'network' as const;
  /** What was tried (`GET https://…/v1/orders/42`), when known. */
  readonly request: string | undefined;
  constructor(options?: UnansweredOptions) {
    super(options?.message ?? 'We could not reach the payment service. Check the connection and try again.', options);
    this.name = 'NetworkError';
    this.request = options?.request;
  }
}

/** No answer within the client's `timeoutMs`. */
export class TimeoutError extends PayCheckoutError {
  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;
  /** What was tried, when known. */
  readonly request: string | undefined;
  constructor(timeoutMs: number, options?: UnansweredOptions) {
    super(options?.message ?? `The payment service did not answer within ${timeoutMs} ms.`, options);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
    this.request = options?.request;
  }
}

/** The caller's own `signal` aborted the request. */
export class AbortedError extends PayCheckoutError {
  readonly kind = 'aborted' as const;
  constructor(options?: { cause?: unknown }) {
    super('The request was cancelled.', options);
    this.name = 'AbortedError';
  }
}

/** The body was not JSON, or did not match the contract's schema. */
export class InvalidResponseError extends PayCheckoutError {
  readonly kind = 'invalid_response' as const;
  readonly status: number;
  /** Which fields failed the schema; empty when the body was not JSON at all. */
  readonly problems: readonly FieldProblem[];
  constructor(status: number, problems: readonly FieldProblem[] = []) {
    const detail = problems.length ? `: ${summarizeProblems(problems)}` : '.';
    super(`The service sent a response we could not read (HTTP ${status})${detail}`);
    this.name = 'InvalidResponseError';
    this.status = status;
    this.problems = problems;
  }
}

/** The call's arguments break the contract, so nothing was sent. */
export class InvalidRequestError extends PayCheckoutError {
  readonly kind = 'invalid_request' as const;
  readonly problems: readonly FieldProblem[];
  constructor(problems: readonly FieldProblem[]) {
    super(`The request was not sent: ${summarizeProblems(problems)}.`);
    this.name = 'InvalidRequestError';
    this.problems = problems;
  }
}

export function isPayCheckoutError(value: unknown): value is PayCheckoutError {
  return value instanceof PayCheckoutError;
}
