/**
 * Traces and metrics through `@opentelemetry/api` only (an optional peer): a no-op until the application installs an
 * SDK, and nothing at all where the API is not installed or cannot load (edge runtimes). A server span per buyer
 * request and webhook delivery; a child span per service call (with `traceparent` sent) and per claim-store call; the
 * metrics of docs/site/servers/operating.md. Nothing secret or personal in any attribute: routes are templates, never
 * paths; no key, token, order key, document, phone, email or name is ever read into one.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import { isTimingFetch, timesOutItself } from '../../client/timed-send.js';
import type { ClaimStore } from '../once/claims.js';
import type { Answer, Incoming } from '../http/incoming.js';
import { startNote, type RequestNote } from './request-notes.js';
import type { RefusalKind } from './refusal-kinds.js';

type Api = typeof OpenTelemetry;
type Attributes = Record<string, string | number | boolean>;

/** What `openTelemetry` may be given: the `@opentelemetry/api` module itself (a bundle that cannot import it by name). */
export interface OpenTelemetryApi {
  trace: unknown;
  metrics: unknown;
  context: unknown;
  propagation: unknown;
}

const scope = 'pay-checkout';
const apiName = '@opentelemetry/api';
let imported: Promise<Api | undefined> | undefined;

/**
 * `@opentelemetry/api` as the application installed it, imported by a name no bundler follows: an edge bundle without
 * it still builds and loads (the import fails there, and nothing is recorded).
 * @internal: not part of the published types, which must not name the optional peer.
 */
export function importApi(): Promise<Api | undefined> {
  return (imported ??= import(/* webpackIgnore: true */ /* @vite-ignore */ apiName).then(
    (module: Api & { default?: Api }) => (module.trace ? module : module.default),
    () => undefined,
  ));
}

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE']);
/** `http.request.method` as the semantic conventions want it: a method they do not know is `_OTHER`. */
const methodOf = (method: string) => (knownMethods.has(method) ? method : '_OTHER');

/** The service's path as a template: `/orders/123` → `/orders/{id}` (the base URL's own path, e.g. `/v1`, left out). */
export function serviceRoute(path: string): string {
  const rest = path.replace(/^.*?\/v1(?=\/)/, '');
  return rest
    .split('/')
    .map((part) => (/^\d+$/.test(part) ? '{id}' : part))
    .join('/')
    .replace(/^\/national-document-types\/[^/]+$/, '/national-document-types/{country}');
}

/** What a buyer's create came to: `pay_checkout.outcome` of `pay_checkout.order_creates`. */
function createOutcome(status: number, answer: Answer, refusal: RefusalKind | undefined): string {
  if (status === 201) return 'created';
  if (status === 200) return answer.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'created';
  if (refusal?.kind === 'in_doubt' || refusal?.kind === 'in_progress') return refusal.kind;
  return status >= 500 ? 'failed' : 'refused';
}

export interface HandlerTelemetryOptions {
  /** The module itself, false for none; default: imported by name where it is installed. */
  api: OpenTelemetryApi | false | undefined;
  /** `{basePath}/checkout` and `{basePath}/webhooks` as templates start with it. */
  basePath: string;
}

export interface HandlerTelemetry {
  /** Set while `@opentelemetry/api` is still being imported: the first requests wait for it (a few ms, once). */
  pending: Promise<void> | undefined;
  /** Runs one buyer request (or webhook delivery) in its server span. */
  request(request: Incoming, run: (request: Incoming) => Promise<Answer>): Promise<Answer>;
  /** `fetch` for the service calls: a child span each, `traceparent` sent. */
  fetch(inner: typeof globalThis.fetch | undefined): typeof globalThis.fetch | undefined;
  /** The claim store with a child span per call. */
  store(store: ClaimStore): ClaimStore;
  /** A request started (+1) or stopped (-1) waiting for a status change. */
  waiting(delta: number): void;
  /** An in-doubt claim a webhook completed. */
  settled(): void;
  /** The sweep read an open order, and what it found (an outcome it found first counts as found too). */
  sweepRead(result: string): void;
  /** The open orders the sweep follows, as it last counted them. */
  openOrders(count: number): void;
}

interface Instruments {
  tracer: OpenTelemetry.Tracer;
  serverDuration: OpenTelemetry.Histogram;
  clientDuration: OpenTelemetry.Histogram;
  storeDuration: OpenTelemetry.Histogram;
  orderCreates: OpenTelemetry.Counter;
  limitRefusals: OpenTelemetry.Counter;
  claimsInDoubt: OpenTelemetry.Counter;
  claimsSettled: OpenTelemetry.Counter;
  statusWaits: OpenTelemetry.UpDownCounter;
  webhookDeliveries: OpenTelemetry.Counter;
  sweepReads: OpenTelemetry.Counter;
  sweepOutcomes: OpenTelemetry.Counter;
}

/** Whether the application registered an SDK: a tracer provider behind the API's proxy, or a meter provider. */
function sdkRegistered(api: Api): boolean {
  const traces = api.trace.getTracerProvider() as { getDelegate?: () => object };
  const tracer = traces.getDelegate?.() ?? traces;
  return tracer.constructor.name !== 'NoopTracerProvider' || api.metrics.getMeterProvider().constructor.name !== 'NoopMeterProvider';
}

/** How long a finding of `sdkRegistered` is trusted. */
const sdkCheckMs = 1_000;

/** Seconds, as the semantic conventions' durations are, with the buckets they advise for HTTP. */
const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

function instruments(api: Api): Instruments {
  const meter = api.metrics.getMeter(scope);
  const seconds = (name: string, description: string) => meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: secondsBuckets } });
  return {
    tracer: api.trace.getTracer(scope),
    serverDuration: seconds('http.server.request.duration', 'Buyer API requests and webhook deliveries, as answered.'),
    clientDuration: seconds('http.client.request.duration', 'Calls to the payment service.'),
    storeDuration: seconds('pay_checkout.claim_store.duration', 'Claim store calls.'),
    orderCreates: meter.createCounter('pay_checkout.order_creates', { description: 'Buyer creates by gateway kind and outcome (created, replayed, refused, in_doubt, in_progress, failed).' }),
    limitRefusals: meter.createCounter('pay_checkout.limit.refusals', { description: 'Requests refused 429 by an abuse limit, by limit.' }),
    claimsInDoubt: meter.createCounter('pay_checkout.claims.in_doubt', { description: 'Creates left in doubt: their claims are kept until a webhook settles them or the lease ends.' }),
    claimsSettled: meter.createCounter('pay_checkout.claims.settled', { description: 'In-doubt claims a signed order_payment webhook completed.' }),
    statusWaits: meter.createUpDownCounter('pay_checkout.status_waits.active', { description: 'Status requests waiting for a change now.' }),
    webhookDeliveries: meter.createCounter('pay_checkout.webhook.deliveries', { description: 'Webhook deliveries by event and outcome (processed, duplicate, ignored, refused with its reason).' }),
    sweepReads: meter.createCounter('pay_checkout.sweep.reads', { description: 'Open orders read back from the service by the sweep, by result (pending, found, known, other, expired, failed, left to a waiting buyer).' }),
    sweepOutcomes: meter.createCounter('pay_checkout.sweep.outcomes', { description: 'Outcomes the sweep found before any webhook or buyer told this instance (found), and orders it reported failed after their expiry (expired).' }),
  };
}

export function handlerTelemetry(options: HandlerTelemetryOptions): HandlerTelemetry {
  let api: Api | undefined;
  let made: Instruments | undefined;
  // Instruments are made on first use, not now: an SDK registered after the handler was created gets them within a
  // second. Whether one is registered is asked at most once a second: asking the API's globals costs more than the
  // rest of this file does per create, five times a create (the request, the service call, each claim store call).
  // With no SDK registered nothing is made or done per request (a bundle's renamed classes only cost the no-op path).
  let registered = false;
  let checkedAt = -Infinity;
  let lastOpenOrders = 0;
  let gaugeMade = false;
  const use = (): Instruments | undefined => {
    if (!api) return undefined;
    const now = performance.now();
    if (now - checkedAt >= sdkCheckMs) {
      checkedAt = now;
      registered = sdkRegistered(api);
    }
    return registered ? (made ??= instruments(api)) : undefined;
  };
  const telemetry: HandlerTelemetry = {
    pending: undefined,
    request: (request, run) => run(request),
    fetch: (inner) => inner,
    store: (store) => store,
    waiting: (delta) => use()?.statusWaits.add(delta),
    settled: () => use()?.claimsSettled.add(1),
    sweepRead: (result) => {
      const on = use();
      on?.sweepReads.add(1, { 'pay_checkout.sweep.result': result });
      if (result === 'found' || result === 'expired') on?.sweepOutcomes.add(1, { 'pay_checkout.sweep.result': result });
    },
    openOrders: (count) => {
      lastOpenOrders = count;
      if (!gaugeMade && api && use()) {
        gaugeMade = true;
        api.metrics
          .getMeter(scope)
          .createObservableGauge('pay_checkout.sweep.open_orders', { description: 'Orders the sweep follows until they are final, as this instance last counted them in the shared store.' })
          .addCallback((observe) => observe.observe(lastOpenOrders));
      }
    },
  };
  if (options.api === false) return telemetry;
  if (options.api) api = options.api as Api;
  else
    telemetry.pending = importApi().then((found) => {
      api = found;
      telemetry.pending = undefined;
    });
  const webhookRoute = `${options.basePath}/webhooks`;

  // Not async while nothing records: the request runs as if unwrapped, without a promise of its own.
  telemetry.request = (request, run) => {
    const on = use();
    return on && api ? tracedRequest(on, api, request, run) : run(request);
  };

  const tracedRequest = async (on: Instruments, api: Api, request: Incoming, run: (request: Incoming) => Promise<Answer>): Promise<Answer> => {
    const started = performance.now();
    const method = methodOf(request.method);
    const parent = api.context.active();
    const span = on.tracer.startSpan(method, { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
    const note = startNote(request);
    let answer: Answer | undefined;
    try {
      answer = await api.context.with(api.trace.setSpan(parent, span), run, undefined, request);
      return answer;
    } finally {
      const status = answer?.status ?? 500;
      const attributes: Attributes = { 'http.request.method': method, 'http.response.status_code': status };
      if (note.route) attributes['http.route'] = note.route;
      if (status >= 500) attributes['error.type'] = String(status);
      on.serverDuration.record((performance.now() - started) / 1000, attributes);
      if (note.route) span.updateName(`${method} ${note.route}`);
      span.setAttributes(attributes);
      const outcome = answer ? record(on, note, answer) : undefined;
      if (note.gatewayKind) span.setAttribute('pay_checkout.gateway.kind', note.gatewayKind);
      if (outcome) span.setAttribute('pay_checkout.outcome', outcome);
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    }
  };

  /** The counters one answered request adds to; its outcome for the span. */
  const record = (on: Instruments, note: RequestNote, answer: Answer): string | undefined => {
    const { refusal } = note;
    if (refusal?.kind === 'limit') on.limitRefusals.add(1, { 'pay_checkout.limit': refusal.limit });
    if (note.route === webhookRoute) {
      const refused = answer.status >= 400;
      const data = refused ? undefined : (JSON.parse(answer.text ?? '{}') as { data?: { handled?: boolean; duplicate?: boolean } }).data;
      const outcome = refused ? 'refused' : data?.duplicate ? 'duplicate' : data?.handled ? 'processed' : 'ignored';
      on.webhookDeliveries.add(1, {
        'pay_checkout.webhook.event': note.webhookEvent ?? 'unknown',
        'pay_checkout.outcome': outcome,
        ...(refused ? { 'pay_checkout.refusal.reason': refusal?.reason ?? 'error' } : {}),
      });
      return outcome;
    }
    if (!note.route?.endsWith('/orders') || answer.status === 204) return undefined;
    if (answer.status === 200 || answer.status === 201) note.gatewayKind ??= gatewayKindOfAnswer(answer.text);
    const outcome = createOutcome(answer.status, answer, refusal);
    if (outcome === 'in_doubt') on.claimsInDoubt.add(1);
    on.orderCreates.add(1, { 'pay_checkout.gateway.kind': note.gatewayKind ?? 'unknown', 'pay_checkout.outcome': outcome });
    return outcome;
  };

  telemetry.fetch = (inner) => {
    const wrapped = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
      const send = inner ?? globalThis.fetch;
      const on = use();
      return on && api ? tracedFetch(on, api, send, input, init) : send(input, init);
    };
    const tracedFetch = async (on: Instruments, api: Api, send: typeof globalThis.fetch, input: string | URL | Request, init: RequestInit): Promise<Response> => {
      const started = performance.now();
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const method = methodOf(init.method ?? 'GET');
      const template = serviceRoute(url.pathname);
      const attributes: Attributes = { 'http.request.method': method, 'url.template': template, 'server.address': url.hostname };
      if (url.port) attributes['server.port'] = Number(url.port);
      const parent = api.context.active();
      const span = on.tracer.startSpan(`${method} ${template}`, { kind: api.SpanKind.CLIENT, attributes }, parent);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      api.propagation.inject(api.trace.setSpan(parent, span), headers);
      try {
        let response = await send(input, { ...init, headers });
        attributes['http.response.status_code'] = response.status;
        if (response.status >= 400) {
          attributes['error.type'] = String(response.status);
          // The service's api_code says why (6105, 4011, …); the body is read once and handed on unchanged.
          const text = await response.text();
          const apiCode = apiCodeOf(text);
          if (apiCode) attributes['pay_checkout.api_code'] = apiCode;
          response = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
        }
        return response;
      } catch (error) {
        attributes['error.type'] = error instanceof Error ? error.name : 'Error';
        throw error;
      } finally {
        span.setAttributes(attributes);
        if (attributes['error.type']) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
        on.clientDuration.record((performance.now() - started) / 1000, attributes);
      }
    };
    const fetch = wrapped as typeof globalThis.fetch;
    return inner && isTimingFetch(inner) ? timesOutItself(fetch) : fetch;
  };

  telemetry.store = (store) => {
    const traced = Object.create(store) as ClaimStore;
    const around = <T>(operation: string, call: () => Promise<T>, result?: (value: T) => string): Promise<T> => {
      const on = use();
      if (!on || !api) return call();
      const started = performance.now();
      const span = on.tracer.startSpan(`pay_checkout.claim_store ${operation}`, { kind: api.SpanKind.CLIENT, attributes: { 'pay_checkout.claim_store.operation': operation } });
      const attributes: Attributes = { 'pay_checkout.claim_store.operation': operation };
      return call().then(
        (value) => {
          if (result) span.setAttribute('pay_checkout.claim_store.result', result(value));
          span.end();
          on.storeDuration.record((performance.now() - started) / 1000, attributes);
          return value;
        },
        (error: unknown) => {
          attributes['error.type'] = error instanceof Error ? error.name : 'Error';
          span.setAttributes(attributes);
          span.setStatus({ code: api!.SpanStatusCode.ERROR });
          span.end();
          on.storeDuration.record((performance.now() - started) / 1000, attributes);
          throw error;
        },
      );
    };
    // Straight to the store while nothing records: no closures made per call.
    traced.claim = (key, digest, leaseMs) => (use() ? around('claim', () => store.claim(key, digest, leaseMs), (r) => r.state) : store.claim(key, digest, leaseMs));
    traced.complete = (key, token, response, ttlMs) => (use() ? around('complete', () => store.complete(key, token, response, ttlMs), String) : store.complete(key, token, response, ttlMs));
    traced.release = (key, token) => (use() ? around('release', () => store.release(key, token), String) : store.release(key, token));
    traced.inspect = (key) => (use() ? around('inspect', () => store.inspect(key), (r) => r.state) : store.inspect(key));
    traced.publish = (channel, message) => (use() ? around('publish', () => store.publish(channel, message)) : store.publish(channel, message));
    return traced;
  };

  return telemetry;
}

/** The `gateway.kind` of an order answer (a replay's, which named no gateway on the way). */
function gatewayKindOfAnswer(text: string | null): string | undefined {
  const kind = (JSON.parse(text ?? '{}') as { data?: { gateway?: { kind?: unknown } } }).data?.gateway?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

function apiCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { api_code?: unknown }).api_code;
    return typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

