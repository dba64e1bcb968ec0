import type * as z from 'zod/mini';
import { dataOf, resultOf } from '../contract/common.js';
import { ErrorResponseSchema } from '../contract/errors.js';
import { parseWith } from '../contract/validation.js';
import { AbortedError, InvalidRequestError, InvalidResponseError, NetworkError, ServiceError, TimeoutError } from './errors.js';

/** The service's `{base_url}` per environment (live-service-facts §1). */
export const baseUrls = {
  production: 'https://api.wava.co/v1',
  development: 'https://api.dev.wava.co/v1',
} as const;
export type Environment = keyof typeof baseUrls;

export const defaultTimeoutMs = 15_000;

export interface ClientOptions {
  /** Picks the `{base_url}`; `production` when neither this nor `baseUrl` is given. */
  environment?: Environment;
  /** An explicit `{base_url}` ending in `/v1` (the sandbox, a merchant proxy); wins over `environment`. */
  baseUrl?: string;
  /** Injected `fetch` (tests, edge runtimes, instrumentation). Defaults to the global one. */
  fetch?: typeof globalThis.fetch;
  /** Abort each request after this many milliseconds; 0 turns the timeout off. */
  timeoutMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

export function resolveBaseUrl(options: Pick<ClientOptions, 'environment' | 'baseUrl'>): string {
  const base = options.baseUrl ?? baseUrls[options.environment ?? 'production'];
  return base.replace(/\/+$/, '');
}

/**
 * How the result is wrapped: `data` (most endpoints), `result` (dashboard stats),
 * `result-or-data` (refund: the contract says `result`, the live docs show `data`),
 * `data-or-bare` (partner webhook endpoints, whose wrapper the contract does not show).
 */
export type Wrapper = 'data' | 'result' | 'result-or-data' | 'data-or-bare';

export interface RequestSpec<S extends z.ZodMiniType> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** The contract's schema of the unwrapped result. */
  schema: S;
  wrapper: Wrapper;
  /** A 204 or empty 2xx body counts as success, with no result. */
  allowEmpty?: boolean;
  signal?: AbortSignal | undefined;
}

/** The part every client shares: URL, headers, timeout, and turning each outcome into a value or a typed error. */
export class HttpCore {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions, headers: Record<string, string> = {}) {
    this.baseUrl = resolveBaseUrl(options);
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    // Bound, so a global fetch is not called with the wrong `this` in browsers.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = headers;
  }

  async request<S extends z.ZodMiniType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const url = this.baseUrl + spec.path + queryString(spec.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.#headers, ...spec.headers };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = this.timeoutMs > 0 ? AbortSignal.timeout(this.timeoutMs) : undefined;
    const signal = anySignal([timeout, spec.signal]);
    if (spec.signal?.aborted) throw new AbortedError({ cause: spec.signal.reason });

    let status: number;
    let text: string;
    try {
      const init: RequestInit = { method: spec.method, headers };
      if (spec.body !== undefined) init.body = JSON.stringify(spec.body);
      if (signal) init.signal = signal;
      const response = await this.#fetch(url, init);
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (spec.signal?.aborted) throw new AbortedError({ cause: error });
      if (timeout?.aborted) throw new TimeoutError(this.timeoutMs, { cause: error });
      throw new NetworkError({ cause: error });
    }
    return readBody(status, text, spec);
  }
}

function readBody<S extends z.ZodMiniType>(status: number, text: string, spec: RequestSpec<S>): z.output<S> {
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

/** `AbortSignal.any`, with a fallback for engines that lack it. */
function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present);
  const controller = new AbortController();
  for (const s of present) {
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', () => controller.abort(s.reason), { once: true, signal: controller.signal });
  }
  return controller.signal;
}

/** Validates a request body with the contract before anything is sent; returns the normalized body. */
export function checkRequest<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  const result = parseWith(schema, body);
  if (!result.ok) throw new InvalidRequestError(result.problems);
  return result.value;
}

/** Path ids are integers of at least 1 (the contract's `orderId` rule). */
export function pathId(value: number, field: string): string {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidRequestError([{ field, message: 'must be an integer of at least 1' }]);
  }
  return String(value);
}

/** A required, non-empty text argument (a header value, a link hash). */
export function requireText(value: string, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidRequestError([{ field, message: 'is required' }]);
  }
  return value;
}

export function pathText(value: string, field: string): string {
  return encodeURIComponent(requireText(value, field));
}
