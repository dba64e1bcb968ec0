/**
 * `createCheckoutHandler()`: the buyer API (docs/site/contributing/architecture.md) served from the merchant's own server, as a
 * web-standard `(Request) => Promise<Response>`. It holds the merchant key, keeps no state, and answers
 * every failure with the contract's ErrorResponse.
 */
import { AbortedError, MerchantClient, NetworkError, ServiceError, TimeoutError } from '../client/index.js';
import { botCheckHeader, errorBody, idempotencyKeyHeader, orderTokenHeader, statusWaitHeader } from '../contract/index.js';
import { CheckoutHttpError } from './http.js';
import { memoryClaimStore } from './claims.js';
import { defaultClaimTimings } from './once.js';
import { checkoutGuards } from './guards.js';
import { fromRequest, withNativeEntry, type Answer, type Incoming } from './incoming.js';
import { memoryLimitStore } from './limit-store.js';
import { limitsPlan } from './limits.js';
import { nodeFetch } from './node-fetch.js';
import { checkoutOperations, type Operations } from './operations.js';
import type { Reply } from './http.js';
import type { CheckoutHandlerOptions, DrainableCheckoutHandler } from './options.js';
import { errorFields, safeSink, type ServerEvent } from './events.js';
import { healthRoutes } from './health.js';
import { noteOf } from './observe.js';
import { handlerTelemetry, webhookRefusalReason } from './telemetry.js';
import { LimitRefusal } from './limits.js';
import { InDoubtError } from './once.js';
import { checkSecrets, serverSecrets, type ServerSecrets } from './secrets.js';
import { answerHeaders, toResponse } from './text-response.js';
import { defaultStatusPollMs, defaultWaiterCaps, statusWaits } from './status-wait.js';
import { webhookIntake } from './webhook-intake.js';
import { dialectEvents } from './dialect-log.js';
import { orderStatusNotices } from './order-status.js';

/** `template`: the route as `http.route` names it, under `{basePath}/checkout/`. */
type Route = { template: string; methods: Record<string, (ops: Operations, request: Incoming, param: string) => Promise<Reply>> };

const linkRoute: Route = { template: 'links/{hash}', methods: { GET: (ops, r, hash) => ops.getLink(r, hash) } };
const linkOrdersRoute: Route = { template: 'links/{hash}/orders', methods: { POST: (ops, r, hash) => ops.createOrder(r, hash) } };
const orderRoute: Route = { template: 'orders/{id}', methods: { GET: (ops, r, id) => ops.getOrder(r, id) } };
const otpRoute: Route = { template: 'orders/{id}/otp', methods: { POST: (ops, r, id) => ops.submitOtp(r, id) } };
const cancelRoute: Route = { template: 'orders/{id}/cancel', methods: { POST: (ops, r, id) => ops.cancelOrder(r, id) } };

/** `links/{hash}`, `links/{hash}/orders`, `orders/{id}`, `orders/{id}/otp`, `orders/{id}/cancel`. */
function routeOf(rest: string): { route: Route; param: string } | undefined {
  const parts = rest.split('/');
  const [kind, raw, action, extra] = parts;
  if (extra !== undefined || !raw) return undefined;
  let param: string;
  try {
    param = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (kind === 'links') return action === undefined ? { route: linkRoute, param } : action === 'orders' ? { route: linkOrdersRoute, param } : undefined;
  if (kind === 'orders') {
    if (action === undefined) return { route: orderRoute, param };
    if (action === 'otp') return { route: otpRoute, param };
    if (action === 'cancel') return { route: cancelRoute, param };
  }
  return undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createCheckoutHandler(options: CheckoutHandlerOptions): DrainableCheckoutHandler {
  if (typeof options.resolveLink !== 'function') throw new TypeError('createCheckoutHandler: `resolveLink(hash)` is required.');
  checkSecrets(options.secret);
  if ('idempotency' in options) throw new TypeError('createCheckoutHandler: `idempotency` (get/set) is replaced by `store`, an atomic claim store: memoryClaimStore() or createRedisStore() (pay-checkout/server/redis).');
  const { merchantKey } = options;
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '').replace(/^(?=[^/])/, '/');
  const telemetry = handlerTelemetry({ api: options.openTelemetry, basePath });
  // Node's http where it exists; the global fetch elsewhere (node-fetch.ts says why); a child span per call (telemetry.ts).
  const fetch = telemetry.fetch(options.fetch ?? nodeFetch());
  const merchantOptions = {
    merchantKey,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
    ...(fetch !== undefined ? { fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    // The events' sink is made below; the callback reads it only when a variant is first seen.
    onDialect: options.onDialect ?? dialectEvents((event) => emit(event)),
  };
  const merchant = new MerchantClient(merchantOptions);
  let secrets: Promise<ServerSecrets> | undefined;
  // The last line of defence: whatever went wrong upstream, the merchant key never leaves this server.
  const redact = (text: string) => text.split(merchantKey).join('[redacted]');
  const sink = safeSink(options.onEvent);
  const emit = (event: ServerEvent) => sink(event);
  const ownStore = options.store ?? memoryClaimStore();
  ownStore.attachEvents?.(emit);
  const store = telemetry.store(ownStore);
  const timings = { ...defaultClaimTimings, ...options.claimTimings };
  const serverSecret = () => (secrets ??= serverSecrets(merchantKey, options.secret));
  const guards = checkoutGuards({
    plan: limitsPlan(options.limits, () => store.limitStore ?? memoryLimitStore()),
    botCheck: options.botCheck,
    store,
    secret: async () => (await serverSecret()).orderKey,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
  });
  let waits: ReturnType<typeof statusWaits>;
  const ops = checkoutOperations({
    merchant,
    resolveLink: options.resolveLink,
    secrets: serverSecret,
    gateways: options.gateways,
    store,
    timings,
    countryCode: options.countryCode ?? 'CO',
    now: options.now ?? Date.now,
    waits: (waits = statusWaits({ store, pollMs: options.statusPollMs ?? defaultStatusPollMs, caps: { ...defaultWaiterCaps, ...options.statusWaiters }, onWaiting: telemetry.waiting })),
    guards,
    orderStatus: orderStatusNotices({ onOrderStatus: options.onOrderStatus, webhooks: Boolean(options.webhookSecret), store, leaseMs: timings.leaseMs, emit }),
  });
  const intake = options.webhookSecret
    ? webhookIntake({ secret: options.webhookSecret, now: options.now ?? Date.now, store, timings, merchant, ops, onDelivery: options.onWebhook, onSettled: telemetry.settled })
    : undefined;
  // Any prefix may come before `{basePath}/checkout/`, so the handler can be mounted under a sub-path.
  const pathPattern = new RegExp(`^(?:/.*)?${escapeRegExp(basePath)}/checkout/(.+)$`);
  const webhookPattern = new RegExp(`^(?:/.*)?${escapeRegExp(basePath)}/webhooks$`);
  const onError =
    options.onError ?? ((error: unknown) => emit({ level: 'error', name: 'unexpected_error', message: 'answered 500 INTERNAL_SERVER_ERROR', error: errorFields(error, redact) }));
  let draining = false;
  const health = healthRoutes({ basePath, store: ownStore, readyTimeoutMs: options.readyTimeoutMs ?? 1_000, draining: () => draining, emit });
  const allowed = options.allowedOrigins ?? [];

  const corsHeaders = (request: Incoming): Record<string, string> => {
    const origin = request.headers.get('origin');
    const headers: Record<string, string> = allowed === '*' ? {} : { vary: 'Origin' };
    if (!origin || (allowed !== '*' && !allowed.includes(origin))) return headers;
    return { ...headers, 'access-control-allow-origin': allowed === '*' ? '*' : origin, 'access-control-expose-headers': `Idempotent-Replayed, Retry-After, ${statusWaitHeader}` };
  };

  const respond = (request: Incoming, status: number, body: unknown, extra: Record<string, string> = {}): Answer => {
    const text = redact(JSON.stringify(body));
    return { status, headers: answerHeaders({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...corsHeaders(request) }, extra), text };
  };

  const failure = (request: Incoming, error: unknown): Answer => {
    const note = noteOf(request);
    if (note) note.error = error;
    // The client went away (an aborted upload, a closed tab): no one reads the answer, and it is no server error.
    if (request.aborted) return { status: 499, headers: {}, text: null };
    eventOfRefusal(request, error);
    if (error instanceof CheckoutHttpError) return respond(request, error.status, error.body, error.headers);
    // The merchant API's own ErrorResponse passes through with its status (4010, 4011, 6105, ...); a failure
    // without it (an HTML page) is the merchant's to see in onError, not the buyer's.
    if (error instanceof ServiceError && error.serviceBody) return respond(request, error.status, error.body);
    if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof AbortedError) {
      return respond(request, 503, errorBody('SERVICE_UNAVAILABLE', { description: 'The payment service could not be reached; try again.' }));
    }
    onError(error);
    return respond(request, 500, errorBody('INTERNAL_SERVER_ERROR'));
  };

  /** The refusals an operator watches, as events: limits tripped, webhooks refused, creates left in doubt. */
  const eventOfRefusal = (request: Incoming, error: unknown) => {
    if (!(error instanceof CheckoutHttpError)) return;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof LimitRefusal) emit({ level: 'warn', name: 'limit_reached', message: `limit ${cause.limit} reached`, limit: cause.limit, retry_after_s: Number(error.headers['Retry-After'] ?? 0) });
    else if (cause instanceof InDoubtError) emit({ level: 'warn', name: 'claim_in_doubt', message: 'the service did not say whether the order was created; its claim is kept until a webhook settles it or the lease ends', error: errorFields(cause.cause, redact, false) });
    else if (intake && webhookPattern.test(request.path)) emit({ level: 'warn', name: 'webhook_refused', message: `webhook delivery refused ${error.status}`, reason: webhookRefusalReason(error), status: error.status });
  };

  let inFlight = 0;
  let idle: (() => void) | undefined;
  const answer = async (request: Incoming): Promise<Answer> => {
    if (telemetry.pending) await telemetry.pending;
    inFlight += 1;
    try {
      return await telemetry.request(request, () => route(request));
    } finally {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    }
  };

  const route = async (request: Incoming): Promise<Answer> => {
    try {
      const { path } = request;
      const checked = health(request);
      if (checked) return respondHealth(request, await checked);
      if (intake && webhookPattern.test(path)) {
        const note = noteOf(request);
        if (note) note.route = `${basePath}/webhooks`;
        if (request.method !== 'POST') return respond(request, 405, errorBody('METHOD_NOT_ALLOWED'), { Allow: 'POST' });
        const reply = await intake(request);
        return respond(request, reply.status, { data: reply.data });
      }
      const match = pathPattern.exec(path);
      const found = match?.[1] !== undefined ? routeOf(match[1]) : undefined;
      if (!found) return respond(request, 404, errorBody('NOT_FOUND', { description: `${request.method} ${path} is not an endpoint of the buyer API.` }));
      const note = noteOf(request);
      if (note) note.route = `${basePath}/checkout/${found.route.template}`;
      const allow = [...Object.keys(found.route.methods), 'OPTIONS'].join(', ');
      if (request.method === 'OPTIONS') {
        const cors = corsHeaders(request);
        const preflight = cors['access-control-allow-origin']
          ? { ...cors, 'access-control-allow-methods': allow, 'access-control-allow-headers': `Content-Type, ${idempotencyKeyHeader}, ${orderTokenHeader}, ${botCheckHeader}`, 'access-control-max-age': '600' }
          : cors;
        return { status: 204, headers: answerHeaders({ allow, ...preflight }), text: null };
      }
      const operation = found.route.methods[request.method];
      if (!operation) return respond(request, 405, errorBody('METHOD_NOT_ALLOWED'), { Allow: allow });
      const reply = await operation(ops, request, found.param);
      return respond(request, reply.status, { data: reply.data }, reply.headers);
    } catch (error) {
      return failure(request, error);
    }
  };

  const respondHealth = (request: Incoming, result: { status: number; data: unknown; allow?: string }) =>
    result.allow ? respond(request, result.status, result.data, { Allow: result.allow }) : respond(request, result.status, { data: result.data });

  const drain: DrainableCheckoutHandler['drain'] = async ({ graceMs = 10_000, acceptForMs = 0 } = {}) => {
    if (!draining) emit({ level: 'info', name: 'shutdown_started', message: `draining: ${inFlight} request(s) under way, ${waits.waiting} waiting for a status change answered now`, in_flight: inFlight, waiting: waits.waiting });
    draining = true;
    waits.drain();
    if (acceptForMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptForMs));
    if (inFlight > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([new Promise<void>((resolve) => (idle = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    emit({ level: inFlight ? 'warn' : 'info', name: 'shutdown_finished', message: inFlight ? `${inFlight} request(s) still under way after ${graceMs} ms` : 'every request under way was answered', unfinished: inFlight });
    return { unfinished: inFlight };
  };

  // `toNodeListener` finds `answer` behind the returned function and skips the Request and Response on Node.
  const handler = withNativeEntry(async (request: Request) => toResponse(await answer(fromRequest(request))), answer);
  return Object.assign(handler, { drain });
}
