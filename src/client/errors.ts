import type { ErrorResponse } from '../contract/errors.js';
import type { FieldProblem } from '../contract/validation.js';
import { summarizeProblems } from '../contract/validation.js';

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

  constructor(status: number, body: ErrorResponse) {
    super(body.message);
    this.name = 'ServiceError';
    this.status = status;
    this.body = body;
    this.code = body.code;
    this.apiCode = body.api_code;
    this.description = body.description;
    this.gatewayName = body.gateway_name;
    this.validationErrors = (body.validation_errors ?? []).map(({ field, message }) => ({ field, message }));
  }
}

/** Where a request went, for messages a developer can act on (never headers: they carry the keys). */
export interface RequestTarget {
  method?: string | undefined;
  url?: string | undefined;
}

/** The request never got an answer: offline, DNS, connection refused, CORS. */
export class NetworkError extends PayCheckoutError {
  readonly kind = 'network' as const;
  /** What was tried: `GET https://…/v1/orders/42`, when known. */
  readonly request: string | undefined;
  constructor(options?: { cause?: unknown } & RequestTarget) {
    const request = tried(options);
    const reason = reasonOf(options?.cause);
    super(
      request
        ? `${request} got no answer${reason}. Check that the payment service runs at ${originOf(options?.url)} (the sandbox: npx pay-checkout sandbox), the network, DNS and any proxy, and, from a browser, that it allows this page's origin (CORS).`
        : `We could not reach the payment service${reason}. Check the connection and try again.`,
      options,
    );
    this.name = 'NetworkError';
    this.request = request;
  }
}

/** No answer within the client's `timeoutMs`. */
export class TimeoutError extends PayCheckoutError {
  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;
  readonly request: string | undefined;
  constructor(timeoutMs: number, options?: { cause?: unknown } & RequestTarget) {
    const request = tried(options);
    super(
      request
        ? `${request} got no answer within ${timeoutMs} ms. Check that the payment service at ${originOf(options?.url)} is up and reachable, or raise timeoutMs.`
        : `The payment service did not answer within ${timeoutMs} ms.`,
      options,
    );
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
    this.request = request;
  }
}

const tried = (target: RequestTarget | undefined) => (target?.url ? `${target.method ?? 'GET'} ${target.url}` : undefined);
const originOf = (url: string | undefined) => {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return url;
  }
};
/** The lowest-level reason a fetch gives (Node: `cause.cause`, e.g. `connect ECONNREFUSED 127.0.0.1:4010`). */
function reasonOf(cause: unknown): string {
  let error = cause;
  while (error instanceof Error && error.cause instanceof Error) error = error.cause;
  return error instanceof Error && error.message ? ` (${error.message})` : '';
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
