/**
 * `GET {basePath}/health` (the process answers) and `GET {basePath}/health/ready` (the claim store answers within
 * its bound, and the handler is not shutting down): for Kubernetes probes and load balancers. Neither calls the
 * payment service. Probes that arrive together share one store call.
 */
import { errorBody } from '../contract/errors.js';
import type { ClaimStore } from './once/claims.js';
import { withinBound } from './once/claims.js';
import { errorFields, type EventSink } from './events.js';
import type { Incoming } from './http/incoming.js';

export interface HealthDeps {
  store: ClaimStore;
  readyTimeoutMs: number;
  draining: () => boolean;
  emit: EventSink;
}

/** A health answer: `data` goes in the `{ "data": … }` envelope, or is the whole body with `allow` (405). */
export interface HealthAnswer {
  status: number;
  data: unknown;
  allow?: string;
}

/** A key no claim ever has (claim keys start `chk_` or `wh_`): reading it only proves the store answers. */
const probeKey = 'health:ready';

/** The answer to a health path the router matched (routes.ts): `ready` for `/health/ready`, else `/health`. */
export function healthAnswers(deps: HealthDeps): (request: Incoming, ready: boolean) => Promise<HealthAnswer> {
  let probing: Promise<HealthAnswer> | undefined;
  let wasReady = true;

  const ready = async (): Promise<HealthAnswer> => {
    if (deps.draining()) return { status: 503, data: { status: 'unavailable', reason: 'shutting_down' } };
    const started = Date.now();
    try {
      await withinBound(deps.store.inspect(probeKey), deps.readyTimeoutMs, 'claim store readiness');
      if (!wasReady) deps.emit({ level: 'info', name: 'ready', message: 'the claim store answers again' });
      wasReady = true;
      return { status: 200, data: { status: 'ready', store_ms: Date.now() - started } };
    } catch (error) {
      // The reason the load balancer sees names no host or address; the event (for the operator) says more.
      const slow = Date.now() - started >= deps.readyTimeoutMs;
      if (wasReady) deps.emit({ level: 'warn', name: 'not_ready', message: 'the claim store does not answer: /health/ready answers 503', error: errorFields(error, undefined, false) });
      wasReady = false;
      return { status: 503, data: { status: 'unavailable', reason: slow ? 'claim_store_timeout' : 'claim_store_unavailable' } };
    }
  };

  return (request, readiness) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return Promise.resolve({ status: 405, data: errorBody('METHOD_NOT_ALLOWED'), allow: 'GET, HEAD' });
    }
    if (!readiness) return Promise.resolve({ status: 200, data: { status: 'alive' } });
    return (probing ??= ready().finally(() => (probing = undefined)));
  };
}
