/**
 * Cross-origin answers for the origins a merchant allows (`allowedOrigins`): the headers every answer carries, and the
 * answer to a preflight. Same-origin only by default. The buyer API's policy is `buyerCors`; a server serving other
 * files to the shop's pages (the element's script) makes its own with `corsPolicy`.
 */
import { botCheckHeader, idempotencyKeyHeader, orderTokenHeader, statusWaitHeader } from '../../contract/index.js';
import type { Answer } from './incoming.js';

/** Origins allowed to call cross-origin (`https://shop.example`), or `*` for any. */
export type AllowedOrigins = '*' | readonly string[];

export interface CorsOptions {
  /** Answer headers a page's script may read. */
  exposeHeaders?: readonly string[];
  /** Request headers a page may send, beyond the safelisted ones. */
  allowHeaders?: readonly string[];
  /** How long a browser may keep a preflight's answer; default 600 s. */
  maxAgeS?: number;
}

export interface Cors {
  /** Adds the CORS headers of an answer to `request` to `headers` (lower-case names), and returns it. */
  addTo(headers: Record<string, string>, request: { headers: { get(name: string): string | null } }): Record<string, string>;
  /** The answer to a preflight (`OPTIONS`) on a route that answers the methods in `allow`. */
  preflight(request: { headers: { get(name: string): string | null } }, allow: string): Answer;
}

export function corsPolicy(allowed: AllowedOrigins, options: CorsOptions = {}): Cors {
  const any = allowed === '*';
  const listed = new Set(any ? [] : allowed);
  const expose = options.exposeHeaders?.length ? options.exposeHeaders.join(', ') : undefined;
  const allowHeaders = options.allowHeaders?.length ? options.allowHeaders.join(', ') : undefined;
  const maxAge = String(options.maxAgeS ?? 600);
  /** The origin to name in `Access-Control-Allow-Origin`, or undefined when the request's origin is not allowed. */
  const allowedOrigin = (origin: string | null) => (!origin ? undefined : any ? '*' : listed.has(origin) ? origin : undefined);

  const addTo: Cors['addTo'] = (headers, request) => {
    // A listed origin is echoed, so caches must keep answers apart by Origin; `*` is the same for every origin.
    if (!any) headers.vary = 'Origin';
    const origin = allowedOrigin(request.headers.get('origin'));
    if (origin === undefined) return headers;
    headers['access-control-allow-origin'] = origin;
    if (expose) headers['access-control-expose-headers'] = expose;
    return headers;
  };

  return {
    addTo,
    preflight(request, allow) {
      const headers = addTo({ allow }, request);
      if (headers['access-control-allow-origin']) {
        headers['access-control-allow-methods'] = allow;
        if (allowHeaders) headers['access-control-allow-headers'] = allowHeaders;
        headers['access-control-max-age'] = maxAge;
      }
      return { status: 204, headers, text: null };
    },
  };
}

/** The buyer API's: the element reads the replay, retry and wait headers, and sends the key, token and bot check. */
export const buyerCors = (allowed: AllowedOrigins): Cors =>
  corsPolicy(allowed, {
    exposeHeaders: ['Idempotent-Replayed', 'Retry-After', statusWaitHeader],
    allowHeaders: ['Content-Type', idempotencyKeyHeader, orderTokenHeader, botCheckHeader],
  });
