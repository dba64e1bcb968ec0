/**
 * OpenTelemetry with the SDK's in-memory exporters: a Nequi, a Daviplata and a Bre-B payment through the handler
 * (served by serve(), against the sandbox over real sockets) make a server span per buyer request and webhook
 * delivery, a child span per service call and claim-store call, `traceparent` received by the sandbox, and the
 * metrics of servers/operating.md; and no span, metric or event holds a key, token, secret, document, phone, email or name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createCheckoutHandler, serve, type RunningNodeServer, type ServerEvent } from '../../src/server/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const meterProvider = new MeterProvider({ readers: [reader] });

/** What a buyer types, and the secrets of this server: none may appear in any span, metric or event. */
const fixture = {
  merchantKey: 'mk_test_demo',
  webhookSecret: 'whsec_test_demo',
  document: '80654321',
  otherDocument: '79112233',
  phone: '3157654321',
  otherPhone: '3209876543',
  firstName: 'Valentina',
  lastName: 'Zuluaga',
  email: 'valentina.zuluaga@example.com',
};

let sandbox: RunningSandbox;
let server: RunningNodeServer;
const events: ServerEvent[] = [];
/** What reached the sandbox's /v1: each request's method, path and `traceparent`. */
const received: { method: string; path: string; traceparent: string | null }[] = [];
/** Every Idempotency-Key and order token handed out: secret-ish, never in telemetry. */
const secrets: string[] = [];

before(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);

  sandbox = await startSandbox({ port: 0, defaultReceiver: false, guard: { allowedForwards: 'loopback' } });
  const serveSandbox = sandbox.sandbox.fetch.bind(sandbox.sandbox);
  sandbox.sandbox.fetch = (request) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/v1/')) received.push({ method: request.method, path: pathname, traceparent: request.headers.get('traceparent') });
    return serveSandbox(request);
  };
  const handler = createCheckoutHandler({
    merchantKey: fixture.merchantKey,
    baseUrl: sandbox.baseUrl,
    webhookSecret: fixture.webhookSecret,
    // Short, so the in-doubt create below is in doubt quickly; the sandbox answers the others in milliseconds.
    timeoutMs: 1_500,
    limits: { cancelsPerAddress: { max: 1, windowMs: 60_000 } },
    resolveLink: (hash) =>
      hash === 'camiseta-m'
        ? { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }
        : hash === 'datos'
          ? { amount: 20_000, description: 'Con datos', storeName: 'Tienda Demo', collectShopperData: true }
          : null,
    onEvent: (event) => events.push(event),
  });
  server = await serve(handler, { port: 0, host: '127.0.0.1' });
  const forward = await fetch(`${sandbox.url}/sandbox/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${server.url}/v1/webhooks` }) });
  assert.equal(forward.status, 200);
});

after(async () => {
  await server?.close({ graceMs: 0 });
  await sandbox?.close();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function buyer(method: string, path: string, { body, key, token }: { body?: unknown; key?: string; token?: string } = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  if (token) headers['X-Order-Token'] = token;
  const response = await fetch(`${server.url}/v1/checkout/${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (parsed?.data?.order_token) secrets.push(parsed.data.order_token);
  return { status: response.status, body: parsed };
}

async function create(hash: string, key: string, gateway: number, shopper: Record<string, unknown>) {
  secrets.push(key);
  return buyer('POST', `links/${hash}/orders`, { key, body: { payment_gateway: { id_payment_gateway: gateway }, shopper } });
}

const control = (path: string, body?: unknown) =>
  fetch(`${sandbox.url}/sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

async function collect(): Promise<ResourceMetrics[]> {
  metricExporter.reset();
  await reader.forceFlush();
  return metricExporter.getMetrics();
}

/** Data points of one metric: attributes and value (a sum, or a histogram's count). */
async function points(name: string): Promise<{ attributes: Record<string, unknown>; value: number }[]> {
  const found = (await collect()).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)).filter((m) => m.descriptor.name === name);
  return found.flatMap((m) =>
    m.dataPoints.map((p) => ({ attributes: p.attributes, value: typeof p.value === 'number' ? p.value : (p.value as { count: number }).count })),
  );
}

const valueOf = (list: { attributes: Record<string, unknown>; value: number }[], attributes: Record<string, unknown>) =>
  list.filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)).reduce((sum, p) => sum + p.value, 0);

async function until<T>(what: string, check: () => Promise<T | undefined | false>, limitMs = 10_000): Promise<T> {
  for (const limit = Date.now() + limitMs; ; ) {
    const found = await check();
    if (found) return found;
    if (Date.now() > limit) assert.fail(`${what}: not within ${limitMs} ms`);
    await sleep(50);
  }
}

const serverSpans = () => spans.getFinishedSpans().filter((s) => s.kind === 1);
const childrenOf = (span: ReadableSpan) => spans.getFinishedSpans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);

describe('OpenTelemetry through the handler', () => {
  let nequi: Json;

  it('Nequi: a create is a server span with the service call and the claim store as children; traceparent reaches the service', async () => {
    spans.reset();
    const first = await create('camiseta-m', 'tel-nequi-1', 1, { id_number: fixture.document, id_type: 1, phone_number: fixture.phone });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    nequi = first.body.data;
    const again = await create('camiseta-m', 'tel-nequi-1', 1, { id_number: fixture.document, id_type: 1, phone_number: fixture.phone });
    assert.equal(again.status, 200);

    const [created, replayed] = serverSpans().filter((s) => s.name === 'POST /v1/checkout/links/{hash}/orders');
    assert.ok(created && replayed, serverSpans().map((s) => s.name).join(', '));
    assert.deepEqual(
      { ...created.attributes },
      { 'http.request.method': 'POST', 'http.response.status_code': 201, 'http.route': '/v1/checkout/links/{hash}/orders', 'pay_checkout.gateway.kind': 'push', 'pay_checkout.outcome': 'created' },
    );
    assert.equal(replayed.attributes['pay_checkout.outcome'], 'replayed');
    assert.equal(replayed.attributes['pay_checkout.gateway.kind'], 'push');

    const children = childrenOf(created);
    const call = children.find((s) => s.name === 'POST /orders');
    assert.ok(call, `children: ${children.map((s) => s.name).join(', ')}`);
    assert.equal(call.kind, 2, 'a CLIENT span');
    assert.equal(call.spanContext().traceId, created.spanContext().traceId);
    assert.equal(call.attributes['url.template'], '/orders');
    assert.equal(call.attributes['http.response.status_code'], 200);
    assert.deepEqual(
      children.filter((s) => s.name.startsWith('pay_checkout.claim_store')).map((s) => [s.name, s.attributes['pay_checkout.claim_store.result']]),
      [
        ['pay_checkout.claim_store claim', 'claimed'],
        ['pay_checkout.claim_store complete', 'true'],
        ['pay_checkout.claim_store publish', undefined],
      ],
    );
    // The replay answered from the store: a claim span, no service call.
    assert.deepEqual(
      childrenOf(replayed).map((s) => [s.name, s.attributes['pay_checkout.claim_store.result']]),
      [['pay_checkout.claim_store claim', 'done']],
    );

    const sent = received.find((r) => r.method === 'POST' && r.path === '/v1/orders');
    assert.equal(sent?.traceparent, `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  });

  it('a waiting status request counts while it waits; the push approval arrives as a webhook delivery span', async () => {
    const waiting = buyer('GET', `orders/${nequi.id_order}?wait=25&since=${nequi.status}`, { token: nequi.order_token });
    await until('the request waits', async () => valueOf(await points('pay_checkout.status_waits.active'), {}) === 1);
    assert.equal((await control(`orders/${nequi.id_order}/approve`)).status, 200);
    const answered = await waiting;
    assert.equal(answered.status, 200);
    assert.notEqual(answered.body.data.status, nequi.status);
    assert.equal(valueOf(await points('pay_checkout.status_waits.active'), {}), 0);

    const delivery = await until('the webhook span', async () => serverSpans().find((s) => s.name === 'POST /v1/webhooks' && s.attributes['pay_checkout.outcome'] === 'processed'));
    assert.equal(delivery.attributes['http.route'], '/v1/webhooks');
    assert.equal(delivery.attributes['http.response.status_code'], 200);
    const webhooks = await points('pay_checkout.webhook.deliveries');
    assert.ok(valueOf(webhooks, { 'pay_checkout.webhook.event': 'order_payment', 'pay_checkout.outcome': 'processed' }) >= 1, JSON.stringify(webhooks));
  });

  it('Daviplata: a wrong code names the service api_code on its span; the right one pays', async () => {
    spans.reset();
    const created = await create('datos', 'tel-davi-1', 2, {
      id_number: fixture.otherDocument,
      id_type: 1,
      phone_number: fixture.otherPhone,
      first_name: fixture.firstName,
      last_name: fixture.lastName,
      email: fixture.email,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const order = created.body.data;
    const wrong = await buyer('POST', `orders/${order.id_order}/otp`, { token: order.order_token, body: { daviplata_otp: '999999' } });
    assert.equal(wrong.status, 400);
    const right = await buyer('POST', `orders/${order.id_order}/otp`, { token: order.order_token, body: { daviplata_otp: '123456' } });
    assert.equal(right.status, 200, JSON.stringify(right.body));

    const createSpan = serverSpans().find((s) => s.name === 'POST /v1/checkout/links/{hash}/orders');
    assert.equal(createSpan?.attributes['pay_checkout.gateway.kind'], 'otp');
    const otpSpans = serverSpans().filter((s) => s.name === 'POST /v1/checkout/orders/{id}/otp');
    assert.deepEqual(
      otpSpans.map((s) => s.attributes['http.response.status_code']),
      [400, 200],
    );
    const refusedCall = childrenOf(otpSpans[0]!).find((s) => s.name === 'POST /orders/daviplata/{id}');
    assert.equal(refusedCall?.attributes['http.response.status_code'], 400);
    assert.equal(refusedCall?.attributes['pay_checkout.api_code'], wrong.body.api_code);
  });

  it('Bre-B: created, cancelled, and a second cancel refused by its limit (metric and event)', async () => {
    const created = await create('camiseta-m', 'tel-breb-1', 9, { id_number: fixture.otherDocument, id_type: 2 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const order = created.body.data;
    assert.equal((await buyer('POST', `orders/${order.id_order}/cancel`, { token: order.order_token })).status, 200);
    const limited = await buyer('POST', `orders/${order.id_order}/cancel`, { token: order.order_token });
    assert.equal(limited.status, 429);
    assert.equal(valueOf(await points('pay_checkout.limit.refusals'), { 'pay_checkout.limit': 'cancelsPerAddress' }), 1);
    assert.ok(events.some((e) => e.name === 'limit_reached' && e.limit === 'cancelsPerAddress' && e.level === 'warn'));
  });

  it('a create left in doubt counts, and the webhook that settles it too', async () => {
    assert.equal((await control('faults', { path: '/v1/orders', method: 'POST', mode: 'slow_first_byte', latency_ms: 2_500, count: 1 })).status, 200);
    const doubtful = await create('camiseta-m', 'tel-doubt-1', 1, { id_number: fixture.document, id_type: 1, phone_number: fixture.phone });
    assert.equal(doubtful.status, 409);
    assert.equal(valueOf(await points('pay_checkout.claims.in_doubt'), {}), 1);
    assert.ok(events.some((e) => e.name === 'claim_in_doubt'));
    // The buyer approves the push; its order_payment completes the claim.
    const orders = ((await (await fetch(`${sandbox.url}/sandbox/orders`)).json()) as { data: { id_order: number }[] }).data;
    const last = Math.max(...orders.map((o) => o.id_order));
    assert.equal((await control(`orders/${last}/approve`)).status, 200);
    await until('the claim settled', async () => valueOf(await points('pay_checkout.claims.settled'), {}) === 1);
    const retried = await create('camiseta-m', 'tel-doubt-1', 1, { id_number: fixture.document, id_type: 1, phone_number: fixture.phone });
    assert.equal(retried.status, 200);
  });

  it('an unsigned webhook is refused with its reason', async () => {
    const response = await fetch(`${server.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":"order_payment"}' });
    assert.equal(response.status, 401);
    const refused = (await points('pay_checkout.webhook.deliveries')).filter((p) => p.attributes['pay_checkout.outcome'] === 'refused');
    assert.deepEqual(
      refused.map((p) => p.attributes['pay_checkout.refusal.reason']),
      ['missing_signature'],
    );
    assert.ok(events.some((e) => e.name === 'webhook_refused' && e.reason === 'missing_signature'));
  });

  it('the metrics of the three payments, with semantic-convention names', async () => {
    const creates = await points('pay_checkout.order_creates');
    for (const [kind, outcome, count] of [
      ['push', 'created', 1],
      ['push', 'replayed', 2],
      ['otp', 'created', 1],
      ['transfer', 'created', 1],
      ['push', 'in_doubt', 1],
    ] as const) {
      assert.equal(valueOf(creates, { 'pay_checkout.gateway.kind': kind, 'pay_checkout.outcome': outcome }), count, `${kind} ${outcome}: ${JSON.stringify(creates)}`);
    }
    const server = await points('http.server.request.duration');
    assert.ok(valueOf(server, { 'http.route': '/v1/checkout/links/{hash}/orders', 'http.request.method': 'POST', 'http.response.status_code': 201 }) >= 3);
    assert.ok(valueOf(server, { 'http.route': '/v1/checkout/orders/{id}/cancel', 'http.response.status_code': 429 }) === 1);
    const client = await points('http.client.request.duration');
    assert.ok(valueOf(client, { 'url.template': '/orders', 'http.request.method': 'POST', 'http.response.status_code': 200 }) >= 3, JSON.stringify(client));
    assert.ok(valueOf(client, { 'url.template': '/orders/daviplata/{id}', 'http.response.status_code': 400 }) === 1);
    assert.ok(valueOf(client, { 'url.template': '/orders', 'error.type': 'TimeoutError' }) === 1, 'the in-doubt call timed out');
    assert.ok(valueOf(await points('pay_checkout.claim_store.duration'), { 'pay_checkout.claim_store.operation': 'claim' }) >= 5);
  });

  it('no span, metric or event holds a key, token, secret, document, phone, email or name', async () => {
    const orderKeys = ((await (await fetch(`${sandbox.url}/sandbox/orders`)).json()) as { data: { id_external: string | null }[] }).data.flatMap((o) => (o.id_external ? [o.id_external] : []));
    const forbidden = [...Object.values(fixture), ...secrets, ...orderKeys];
    assert.ok(secrets.length >= 8 && orderKeys.length >= 4, `${secrets.length} secrets, ${orderKeys.length} order keys`);
    const everything = JSON.stringify({
      spans: spans.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, resource: s.resource.attributes, links: s.links })),
      metrics: (await collect()).flatMap((r) => r.scopeMetrics.flatMap((m) => m.metrics.map((x) => ({ name: x.descriptor.name, description: x.descriptor.description, points: x.dataPoints.map((p) => p.attributes) })))),
      events,
    });
    assert.ok(everything.includes('pay_checkout.order_creates') && everything.includes('"claim_in_doubt"'), 'the search covers what was recorded');
    for (const value of forbidden) assert.ok(!everything.includes(value), `${value} appears in telemetry or events`);
    for (const event of events) assert.deepEqual(JSON.parse(JSON.stringify(event)), event, 'events are plain JSON');
  });
});
