import type * as z from 'zod/mini';
import { dataOf, resultOf } from '../contract/common.js';
import { ErrorResponseSchema } from '../contract/errors.js';
import { parseWith } from '../contract/validation.js';
import { InvalidRequestError, InvalidResponseError, ServiceError } from './errors.js';
import { defaultTimeoutMs, resolveBaseUrl, send } from './send.js';
import type { Answer, ClientOptions } from './send.js';
import { explainUnanswered } from './unanswered.js';

export { baseUrls, defaultTimeoutMs, pathId, pathText, requireText, resolveBaseUrl } from './send.js';
export type { Answer, CallOptions, ClientOptions, Environment } from './send.js';

/**
 * How the result is wrapped: `data` (most endpoints), `result` (dashboard stats),
 * `result-or-data` (refund: the contract says `result`, the live docs show `data`),
 * `data-or-bare` (partner webhook endpoints, whose wrapper the contract does not show).
 */
export type Wrapper = 'data' | 'result' | 'result-or-data' | 'data-or-bare';

/** How to read an answer: the contract's schema of the unwrapped result, and its wrapper. */
export interface ReadSpec<S extends z.ZodMiniType> {
  schema: S;
  wrapper: Wrapper;
  /** A 204 or empty 2xx body counts as success, with no result. */
  allowEmpty?: boolean;
}

export interface RequestSpec<S extends z.ZodMiniType> extends ReadSpec<S> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** This call's timeout instead of the client's (a waiting status request takes longer). */
  timeoutMs?: number;
  /** Sees the answer's headers before it is read. */
  onHeaders?: (headers: Headers) => void;
}

/** The part every client shares: URL, headers, timeout, and turning each outcome into a value or a typed error. */
export class HttpCore {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch | undefined;
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions, headers: Record<string, string> = {}) {
    this.baseUrl = resolveBaseUrl(options);
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.#fetch = options.fetch;
    this.#headers = headers;
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
      answer = await send(url, init, spec.timeoutMs ?? this.timeoutMs, spec.signal, this.#fetch);
    } catch (error) {
      throw explainUnanswered(error, spec.method, url);
    }
    if (answer.headers) spec.onHeaders?.(answer.headers);
    return readAnswer(answer, spec);
  }
}

/** An answer read against the contract: the unwrapped result, or ServiceError / InvalidResponseError. */
export function readAnswer<S extends z.ZodMiniType>({ status, text }: Answer, spec: ReadSpec<S>): z.output<S> {
  const ok = status >= 200 && status < 300;
  if (ok && spec.allowEmpty && text.trim() === '') return undefined as z.output<S>;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidResponseError(status);
  }
  // The service answers failures with ErrorResponse; a 2xx carrying `error: true` is a failure too.
  const failure = parseWith(ErrorResponseSchema, json);
  if (failure.ok) throw new ServiceError(status, failure.value);
  if (!ok) throw new InvalidResponseError(status, failure.problems);
  const key = wrapperKey(spec.wrapper, json);
  // Validating the wrapper too makes problems name the full path (`data.id_order`).
  const schema = key === 'data' ? dataOf(spec.schema) : key === 'result' ? resultOf(spec.schema) : spec.schema;
  const result = parseWith(schema, json);
  if (!result.ok) throw new InvalidResponseError(status, result.problems);
  const value = result.value as Record<string, unknown>;
  return (key ? value[key] : value) as z.output<S>;
}

function wrapperKey(wrapper: Wrapper, json: unknown): 'data' | 'result' | undefined {
  const has = (k: string) => typeof json === 'object' && json !== null && k in json;
  switch (wrapper) {
    case 'data':
      return 'data';
    case 'result':
      return 'result';
    case 'result-or-data':
      return has('data') && !has('result') ? 'data' : 'result';
    case 'data-or-bare':
      return has('data') ? 'data' : undefined;
  }
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
