/** The sandbox guard (guard.ts) before routing: apart, so the public types of `SandboxGuard` need no hono. */
import type { MiddlewareHandler } from 'hono';
import { isJsonType } from '../server/http/body.js';
import type { SandboxGuard } from './guard.js';
import { ApiError } from './http.js';

/** Paths outside the checks: the buyer API, and what pages on any origin load (the script tag, the OpenAPI document). */
const open = (path: string) => path === '/v1' || path.startsWith('/v1/') || path === '/openapi.json' || /^\/pay-checkout[\w.-]*\.js$/.test(path);
/** Writes that are not JSON by nature: the card and onboarding forms (same-origin pages), the webhook receiver. */
const notJson = (path: string) => path.startsWith('/sandbox/card/') || path.startsWith('/sandbox/receiver') || path === '/onboarding';

export function guardMiddleware(guard: SandboxGuard): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (open(path)) return next();
    const request = c.req.raw;
    if (!guard.hostAllowed(request.headers.get('host') ?? new URL(request.url).host)) {
      throw new ApiError('REQUEST_NOT_ALLOWED', { description: `The Host ${request.headers.get('host') ?? ''} is not one this sandbox serves; start it with --host or --public-url, or allow the host.` });
    }
    const write = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
    const origin = request.headers.get('origin');
    const own = new URL(request.url).origin;
    if (origin !== null && (write || path.startsWith('/sandbox/')) && !guard.originAllowed(origin, own)) {
      throw new ApiError('REQUEST_NOT_ALLOWED', { description: `Requests from ${origin} may not use the sandbox's control API or pages.` });
    }
    if (write && origin === null && request.headers.get('sec-fetch-site') === 'cross-site' && !guard.anyOrigin) {
      throw new ApiError('REQUEST_NOT_ALLOWED', { description: 'A cross-site request may not use the sandbox control API or pages.' });
    }
    // A body a form or a text/plain fetch can send without a preflight is refused; a bodiless POST (curl -X POST) is fine.
    const type = request.headers.get('content-type');
    const hasBody = type !== null || Number(request.headers.get('content-length') ?? '0') > 0 || request.headers.has('transfer-encoding');
    if (write && hasBody && !notJson(path) && !isJsonType(type)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
    return next();
  };
}
