/** Request and response plumbing of the handler: JSON bodies within their limits, the contract's ErrorResponse. */
import { errorBody, errorCatalog, summarizeProblems, type ApiCode, type ErrorResponse, type FieldProblem } from '../../contract/index.js';

import { readJsonRequest, type OwnBody } from './body.js';
import type { RefusalCause } from '../causes.js';

/** What an operation answers: a status and the `data` of the `{ "data": … }` envelope. */
export interface Reply {
  status: number;
  data: unknown;
  headers?: Record<string, string>;
}

/** Replies whose `data` was already written as JSON (a create's: the claim stores it, the answer carries it). */
const written = new WeakMap<Reply, string>();

/** `data` as JSON text, made once per reply however often it is asked for. */
export function replyDataText(reply: Reply): string | undefined {
  let text = written.get(reply);
  if (text === undefined && reply.data !== undefined) written.set(reply, (text = JSON.stringify(reply.data)));
  return text;
}

/** `{ "data": … }` of a reply, as `JSON.stringify({ data })` writes it. */
export function replyEnvelope(reply: Reply): string {
  const data = replyDataText(reply);
  return data === undefined ? '{}' : `{"data":${data}}`;
}

type ErrorExtra = Partial<Omit<ErrorResponse, 'code' | 'api_code' | 'error'>>;

export type { RefusalCause } from '../causes.js';

/** A refusal in the contract's words; the handler turns it into an ErrorResponse. */
export class CheckoutHttpError extends Error {
  readonly status: number;
  readonly body: ErrorResponse;
  readonly headers: Record<string, string>;
  /** Set by `withCause`; never in the buyer's answer. */
  declare readonly cause?: RefusalCause;

  constructor(status: number, body: ErrorResponse, headers: Record<string, string> = {}) {
    super(body.message);
    this.name = 'CheckoutHttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  /** Keeps what caused a refusal (for logs and tests); the buyer sees only the ErrorResponse. */
  withCause(cause: RefusalCause): this {
    Object.defineProperty(this, 'cause', { value: cause, configurable: true, writable: true });
    return this;
  }

  static of(apiCode: ApiCode, extra: ErrorExtra = {}, headers: Record<string, string> = {}): CheckoutHttpError {
    return new CheckoutHttpError(errorCatalog[apiCode].httpStatus, errorBody(apiCode, extra), headers);
  }

  static invalid(problems: FieldProblem[], apiCode: ApiCode = 'VALIDATION_FAILED'): CheckoutHttpError {
    return CheckoutHttpError.of(apiCode, { description: summarizeProblems(problems), validation_errors: problems });
  }
}

/** Reads a JSON body within the contract's limits (see body.ts), refusing with the contract's codes. */
export function readJsonBody(request: Request | OwnBody, options: { optional?: boolean } = {}): Promise<unknown> {
  return readJsonRequest(request, refuseWith, options);
}

function refuseWith(apiCode: ApiCode, extra?: ErrorExtra): never {
  throw CheckoutHttpError.of(apiCode, extra);
}
