import { AbortedError, InvalidRequestError, NetworkError, TimeoutError } from './errors.js';

/**
 * The transport every client shares, without the contract: base URLs, the timeout, and `fetch` to status and text.
 * Holds no zod, so the element's first script can start the link request before the schemas arrive.
 */

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

/** What came back, before anyone has read it against the contract. */
export interface Answer {
  status: number;
  text: string;
  headers?: Headers;
}

export function resolveBaseUrl(options: Pick<ClientOptions, 'environment' | 'baseUrl'>): string {
  const base = options.baseUrl ?? baseUrls[options.environment ?? 'production'];
  return base.replace(/\/+$/, '');
}

/** One request: the status and body text, or a typed error when no answer came (network, timeout, abort). */
export async function send(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined, fetcher?: typeof globalThis.fetch): Promise<Answer> {
  const { signal: timeout, clear } = timeoutMs > 0 ? timeoutSignal(timeoutMs) : { signal: undefined, clear: () => {} };
  const either = anySignal([timeout, signal]);
  if (signal?.aborted) {
    clear();
    throw new AbortedError({ cause: signal.reason });
  }
  try {
    const request = either ? { ...init, signal: either } : init;
    // Through globalThis at call time: a browser's fetch never gets the wrong `this`, and a stub set later counts.
    const response = await (fetcher ? fetcher(url, request) : globalThis.fetch(url, request));
    return { status: response.status, text: await response.text(), headers: response.headers };
  } catch (error) {
    if (signal?.aborted) throw new AbortedError({ cause: error });
    if (timeout?.aborted) throw new TimeoutError(timeoutMs, { cause: error });
    throw new NetworkError({ cause: error });
  } finally {
    clear();
  }
}

/**
 * A timer-backed timeout signal, cleared once the answer is in: cheaper per request than `AbortSignal.timeout`,
 * whose signals Node tracks until they are collected; same reason (a `TimeoutError` DOMException).
 */
function timeoutSignal(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
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

/** Path ids are integers of at least 1 (the contract's `orderId` rule). */
export function pathId(value: number, field: string): string {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidRequestError([{ field, message: 'must be an integer of at least 1' }]);
  }
  return String(value);
}

/** `GET /checkout/links/{hash}`'s path: the buyer API's first call. */
export const linkPath = (hash: string) => `/checkout/links/${pathText(hash, 'hash')}`;
