import type * as z from 'zod/mini';
import { parseWith, toFieldProblems } from '../contract/validation.js';
import { InvalidRequestError } from './errors.js';
import { readAnswerWith } from './read-answer.js';
import type { ReadSpec } from './read-answer.js';
import { defaultTimeoutMs, resolveBaseUrl, send } from './send.js';
import type { Answer, ClientOptions } from './send.js';
import { explainUnanswered } from './unanswered.js';

export { baseUrls, defaultTimeoutMs, pathId, pathText, requireText, resolveBaseUrl } from './send.js';
export type { Answer, CallOptions, ClientOptions, Environment } from './send.js';
export type { ReadSpec, Wrapper } from './read-answer.js';

/** Which answer it is: the live service names some fields of these differently (tolerant-read.ts). */
export type AnswerShape = 'gateways' | 'link' | 'order' | 'order_status' | 'other';

/** Reads an answer into the result or a typed error; `route` (`GET /orders/42`) names the call. */
export type AnswerReader = <S extends z.ZodMiniType>(answer: Answer, spec: RequestSpec<S>, route: string) => z.output<S>;

export interface RequestSpec<S extends z.ZodMiniType> extends ReadSpec<S> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** This call's timeout instead of the client's (a waiting status request takes longer). */
  timeoutMs?: number;
  /** Sees the answer's headers before it is read. */
  onHeaders?: (headers: Headers) => void;
  /** Which answer it is, for a reader that knows the live service's other field names (tolerant-read.ts). */
  shape?: AnswerShape;
}

/** The part every client shares: URL, headers, timeout, and turning each outcome into a value or a typed error. */
export class HttpCore {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch | undefined;
  readonly #headers: Record<string, string>;
  readonly #send: typeof send;
  readonly #read: AnswerReader;

  /**
   * `transport`: how a request goes out; `send` unless a client knows a cheaper way (timed-send.ts). `reader`: the
   * contract's strict one unless a client reads the live service's dialects (tolerant-read.ts).
   */
  constructor(options: ClientOptions, headers: Record<string, string> = {}, transport: typeof send = send, reader: AnswerReader = readAnswer) {
    this.baseUrl = resolveBaseUrl(options);
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.#fetch = options.fetch;
    this.#headers = headers;
    this.#send = transport;
    this.#read = reader;
  }

  async request<S extends z.ZodMiniType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const url = this.baseUrl + spec.path + queryString(spec.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.#headers, ...spec.headers };
    const init: RequestInit = { method: spec.method, headers };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    let answer: Answer;
    try {
      answer = await this.#send(url, init, spec.timeoutMs ?? this.timeoutMs, spec.signal, this.#fetch);
    } catch (error) {
      throw explainUnanswered(error, spec.method, url);
    }
    if (answer.headers) spec.onHeaders?.(answer.headers);
    return this.#read(answer, spec, `${spec.method} ${spec.path}`);
  }
}

/** An answer read against the contract: the unwrapped result, or ServiceError / InvalidResponseError (problems worded). */
export function readAnswer<S extends z.ZodMiniType>(answer: Answer, spec: ReadSpec<S>): z.output<S> {
  return readAnswerWith(answer, spec, toFieldProblems);
}

function queryString(query: Record<string, string> | undefined): string {
  if (!query) return '';
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
}

/** Validates a request body with the contract before anything is sent; returns the normalized body. */
export function checkRequest<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  const result = parseWith(schema, body);
  if (!result.ok) throw new InvalidRequestError(result.problems);
  return result.value;
}
