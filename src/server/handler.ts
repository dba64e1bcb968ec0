/**
 * `createCheckoutHandler()`: the buyer API (docs/site/contributing/architecture.md) served from the merchant's own server, as a
 * web-standard `(Request) => Promise<Response>`. It holds the merchant key, keeps no state, and answers
 * every failure with the contract's ErrorResponse.
 *
 * This file assembles the parts: the router (routes.ts), CORS (cors.ts), the operations, guards, claims, webhook
 * intake, health and telemetry, and the refusals' classifier (telemetry/refusal-kinds.ts). `assembleCheckout()` hands the assembled
 * parts to a server that adds routes of its own in front of the buyer API; `asCheckoutHandler()` makes its answer a handler.
 */
import { AbortedError, MerchantClient, NetworkError, ServiceError, TimeoutError } from '../client/index.js';
import { errorBody } from '../contract/index.js';
import { CheckoutHttpError, replyEnvelope, type Reply } from './http/errors.js';
import { memoryClaimStore } from './once/claims.js';
import { buyerCors, type Cors } from './http/cors.js';
import { defaultClaimTimings } from './once/exactly-once.js';
import { checkoutGuards } from './buyer/guards.js';
import { fromRequest, withNativeEntry, type Answer, type AnswerIncoming, type Incoming } from './http/incoming.js';
import { memoryLimitStore } from './limits/limit-store.js';
import { limitsPlan } from './limits/limits.js';
import { nodeFetch } from './node/fetch.js';
import { checkoutOperations } from './buyer/operations.js';
import type { CheckoutHandlerOptions, DrainableCheckoutHandler } from './options.js';
import { errorFields, safeSink, type EventSink } from './events.js';
import { healthAnswers, type HealthAnswer } from './health.js';
import { noteOf } from './telemetry/request-notes.js';
import { refusalEvent, refusalKindOf } from './telemetry/refusal-kinds.js';
import { allowedMethods, checkoutRouter, type CheckoutRouter, type RouteMatch } from './routes.js';
import { handlerTelemetry } from './telemetry/telemetry.js';
import { checkSecrets, orderRefOf, serverSecrets, type ServerSecrets } from './secrets.js';
import { answerHeaders, toResponse } from './http/text-response.js';
import { defaultStatusPollMs, defaultWaiterCaps, statusWaits } from './buyer/status-wait.js';
import { webhookIntake } from './buyer/webhook-intake.js';
import { dialectEvents } from './telemetry/dialect-log.js';
import { merchantIdentityOf, orderScopeOf, orderStatusNotices, type OrderStatusNotices } from './buyer/order-status.js';
import { resolveBaseUrl } from '../client/send.js';
import { memoryOpenOrders, type OpenOrderRecord } from './once/open-orders.js';
import { createSweep, defaultSweepTimings } from './sweep/sweep.js';

/** The handler's parts, assembled: what a server adding routes of its own in front of the buyer API reuses. */
export interface CheckoutAssembly {
  /** Which of the handler's routes a path is (the buyer API, the webhook intake, health); undefined for none. */
  router: CheckoutRouter;
  /** The `allowedOrigins` policy of the buyer API's answers. */
  cors: Cors;
  /** Answers any request: the handler's routes, and the contract's 404 for every other path. */
  answer: AnswerIncoming;
  /** A JSON answer as the handler writes one: no-store, nosniff, CORS, and the merchant key never in it. */
  respond(request: Incoming, status: number, body: unknown, extra?: Record<string, string>): Answer;
  /**
   * The buyer API's link answer for `hash`, asked by a page this server draws for the same request (the hosted page):
   * the same operation, limits and refusal events as `GET {basePath}/checkout/links/{hash}`, without a request of its
   * own. `data`: the link, when the status is 200.
   */
  link(request: Incoming, hash: string): Promise<{ status: number; data?: unknown }>;
  /** The handler's event sink (`onEvent`, else the console). */
  emit: EventSink;
  drain: DrainableCheckoutHandler['drain'];
  /**
   * With `orderRef` (partner mode), what a sweep outside the handler needs to follow this handler's orders: its
   * outcomes' notices, the client that reads its orders, and whether a buyer's waiting request here reads one now.
   */
  followed?: { notices: OrderStatusNotices; client: MerchantClient; busy(order: Pick<OpenOrderRecord, 'id_order' | 'order_key'>): Promise<boolean> };
}

/** What only this package's own servers give `assembleCheckout`, beside the public options. */
export interface AssemblyOptions {
  /**
   * The reference its open orders are recorded under (partner mode: the shop's id), so one sweep for many handlers
   * knows whose key reads each; with it the handler runs no sweep of its own (`sweep` gives the timings only).
   */
  orderRef?: string;
}

export function createCheckoutHandler(options: CheckoutHandlerOptions): DrainableCheckoutHandler {
  const assembly = assembleCheckout(options);
  return asCheckoutHandler(assembly.answer, assembly.drain);
}

/**
 * `answer` as a handler: `(Request) => Promise<Response>` for any runtime, and on Node `toNodeListener` finds `answer`
 * behind it and skips the Request and the Response.
 */
export function asCheckoutHandler(answer: AnswerIncoming, drain: DrainableCheckoutHandler['drain']): DrainableCheckoutHandler {
  const handler = withNativeEntry(async (request: Request) => toResponse(await answer(fromRequest(request))), answer);
  return Object.assign(handler, { drain });
}

export function assembleCheckout(options: CheckoutHandlerOptions & AssemblyOptions): CheckoutAssembly {
  if (typeof options.resolveLink !== 'function') throw new TypeError('createCheckoutHandler: `resolveLink(hash)` is required.');
  checkSecrets(options.secret);
  const { merchantKey } = options;
  const router = checkoutRouter(options.basePath);
  const { basePath } = router;
  const telemetry = handlerTelemetry({ api: options.openTelemetry, basePath });
  // undici (else Node's http) where Node's built-ins exist; the global fetch elsewhere (node/fetch.ts says why); a child span per call (telemetry/telemetry.ts).
  const fetch = telemetry.fetch(options.fetch ?? nodeFetch());
  const merchant = new MerchantClient({
    merchantKey,
    ...(options.partner ? { partner: options.partner } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
    ...(fetch !== undefined ? { fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    // This handler's own callback, so each handler tells its own `onEvent` (the sink is read only when a variant is seen).
    onDialect: options.onDialect ?? dialectEvents((event) => emit(event)),
  });
  let secrets: Promise<ServerSecrets> | undefined;
  // The last line of defence: whatever went wrong upstream, the merchant key never leaves this server.
  const hidden = [merchantKey, ...(options.partner ? [options.partner.apiSecret] : [])];
  const redact = (text: string) => hidden.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join('[redacted]') : out), text);
  const emit: EventSink = safeSink(options.onEvent);
  const ownStore = options.store ?? memoryClaimStore();
  ownStore.attachEvents?.(emit);
  const store = telemetry.store(ownStore);
  const timings = { ...defaultClaimTimings, ...options.claimTimings };
  const serverSecret = () => (secrets ??= serverSecrets(merchantKey, options.secret));
  const now = options.now ?? Date.now;
  const guards = checkoutGuards({
    plan: limitsPlan(options.limits, () => store.limitStore ?? memoryLimitStore()),
    botCheck: options.botCheck,
    store,
    secret: async () => (await serverSecret()).orderKey,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
  });
  // Outcomes wanted: each order is recorded open beside the claims, and the sweep reads it back until it is final.
  const sweepTimings = options.sweep === false ? undefined : { ...defaultSweepTimings, ...options.sweep };
  const serviceBase = resolveBaseUrl({ ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}), ...(options.environment !== undefined ? { environment: options.environment } : {}) });
  const ownScope = orderScopeOf(serviceBase, merchantIdentityOf(merchantKey));
  let openOrders = ownStore.openOrders;
  if (options.onOrderStatus && !openOrders) {
    emit({ level: 'warn', name: 'open_orders_in_memory', message: 'the claim store keeps no open orders: the orders to follow live in this process only and are lost on a restart' });
    openOrders = memoryOpenOrders();
  }
  const orderStatus = orderStatusNotices({
    onOrderStatus: options.onOrderStatus,
    orders: openOrders ?? memoryOpenOrders(),
    scopeOf: (ref) => (ref === '' ? ownScope : orderScopeOf(serviceBase, `shop:${ref}`)),
    ...(options.orderRef ? { ownRef: options.orderRef } : {}),
    firstReadMs: (sweepTimings ?? defaultSweepTimings).firstReadMs,
    postponeMs: sweepTimings ? sweepTimings.firstReadMs : 0,
    retryMs: timings.leaseMs,
    emit,
  });
  const waits = statusWaits({ store, pollMs: options.statusPollMs ?? defaultStatusPollMs, caps: { ...defaultWaiterCaps, ...options.statusWaiters }, onWaiting: telemetry.waiting });
  const ops = checkoutOperations({
    merchant,
    resolveLink: options.resolveLink,
    secrets: serverSecret,
    gateways: options.gateways,
    store,
    timings,
    countryCode: options.countryCode ?? 'CO',
    now,
    waits,
    guards,
    orderStatus,
  });
  const sweep =
    orderStatus && sweepTimings && !options.orderRef
      ? createSweep({
          notices: orderStatus,
          clientFor: (ref) => (ref === '' ? merchant : undefined),
          busy: async (order) => waits.watching(order.id_order, await orderRefOf(order.order_key)),
          timings: sweepTimings,
          emit,
          onRead: telemetry.sweepRead,
          onOpenOrders: telemetry.openOrders,
        })
      : undefined;
  sweep?.start();
  const intake = options.webhookSecret
    ? webhookIntake({ secret: options.webhookSecret, now, store, timings, merchant, ops, onDelivery: options.onWebhook, onSettled: telemetry.settled })
    : undefined;
  const onError =
    options.onError ?? ((error: unknown) => emit({ level: 'error', name: 'unexpected_error', message: 'answered 500 INTERNAL_SERVER_ERROR', error: errorFields(error, redact) }));
  let draining = false;
  const health = healthAnswers({ store: ownStore, readyTimeoutMs: options.readyTimeoutMs ?? 1_000, draining: () => draining, emit });
  const cors = buyerCors(options.allowedOrigins ?? []);

  const respondText = (request: Incoming, status: number, text: string, extra?: Record<string, string>): Answer => {
    const headers = cors.addTo({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, request);
    return { status, headers: extra ? answerHeaders(headers, extra) : headers, text: redact(text) };
  };
  const respond = (request: Incoming, status: number, body: unknown, extra?: Record<string, string>): Answer => respondText(request, status, JSON.stringify(body), extra);
  /** An operation's reply as `{ "data": … }`, its data written once (a create's claim stored the same text). */
  const respondReply = (request: Incoming, reply: Reply): Answer => respondText(request, reply.status, replyEnvelope(reply), reply.headers);

  const notFound = (request: Incoming) => respond(request, 404, errorBody('NOT_FOUND', { description: `${request.method} ${request.path} is not an endpoint of the buyer API.` }));

  const failure = (request: Incoming, error: unknown, match: RouteMatch | undefined): Answer => {
    const refusal = refusalKindOf(error, match?.kind === 'webhook');
    const note = noteOf(request);
    if (note) note.refusal = refusal;
    // The client went away (an aborted upload, a closed tab): no one reads the answer, and it is no server error.
    if (request.aborted) return { status: 499, headers: {}, text: null };
    const event = refusal && refusalEvent(refusal, redact);
    if (event) emit(event);
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

  const respondHealth = (request: Incoming, result: HealthAnswer) =>
    result.allow ? respond(request, result.status, result.data, { Allow: result.allow }) : respond(request, result.status, { data: result.data });

  const route = async (request: Incoming): Promise<Answer> => {
    const match = router.match(request.path);
    try {
      if (match?.kind === 'health') return respondHealth(request, await health(request, match.ready));
      if (match?.kind === 'webhook' && intake) {
        const note = noteOf(request);
        if (note) note.route = match.template;
        if (request.method !== 'POST') return respond(request, 405, errorBody('METHOD_NOT_ALLOWED'), { Allow: 'POST' });
        const reply = await intake(request);
        return respond(request, reply.status, { data: reply.data });
      }
      if (match?.kind !== 'buyer') return notFound(request);
      const note = noteOf(request);
      if (note) note.route = match.template;
      const allow = allowedMethods(match.route);
      if (request.method === 'OPTIONS') return cors.preflight(request, allow);
      const operation = match.route.methods[request.method];
      if (!operation) return respond(request, 405, errorBody('METHOD_NOT_ALLOWED'), { Allow: allow });
      return respondReply(request, await operation(ops, request, match.param));
    } catch (error) {
      return failure(request, error, match);
    }
  };

  let inFlight = 0;
  let idle: (() => void) | undefined;
  const answer = async (request: Incoming): Promise<Answer> => {
    if (telemetry.pending) await telemetry.pending;
    inFlight += 1;
    try {
      return await telemetry.request(request, route);
    } finally {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    }
  };

  const drain: DrainableCheckoutHandler['drain'] = async ({ graceMs = 10_000, acceptForMs = 0 } = {}) => {
    if (!draining) emit({ level: 'info', name: 'shutdown_started', message: `draining: ${inFlight} request(s) under way, ${waits.waiting} waiting for a status change answered now`, in_flight: inFlight, waiting: waits.waiting });
    draining = true;
    waits.drain();
    void sweep?.stop();
    if (acceptForMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptForMs));
    if (inFlight > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([new Promise<void>((resolve) => (idle = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    emit({ level: inFlight ? 'warn' : 'info', name: 'shutdown_finished', message: inFlight ? `${inFlight} request(s) still under way after ${graceMs} ms` : 'every request under way was answered', unfinished: inFlight });
    return { unfinished: inFlight };
  };

  const link = async (request: Incoming, hash: string): Promise<{ status: number; data?: unknown }> => {
    try {
      const reply = await ops.getLink(request, hash);
      return { status: reply.status, data: reply.data };
    } catch (error) {
      return { status: failure(request, error, undefined).status };
    }
  };

  const followed = options.orderRef && orderStatus ? { notices: orderStatus, client: merchant, busy: async (order: Pick<OpenOrderRecord, 'id_order' | 'order_key'>) => waits.watching(order.id_order, await orderRefOf(order.order_key)) } : undefined;
  return { router, cors, answer, respond, link, emit, drain, ...(followed ? { followed } : {}) };
}
