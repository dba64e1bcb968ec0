/**
 * Hostile load against createCheckoutHandler() with its default limits, on loopback only and bounded in
 * count: pushes to one phone and SMS to one document from 50 addresses, orders from one address, SMS-code guesses,
 * waiting status requests, held claims under a flood, and honest buyers who must never be refused. One instance
 * sees real socket addresses (each buyer binds its own 127.x.y.z); three instances sharing a real Redis sit behind a
 * proxy and read the client from `X-Forwarded-For` (`trustProxy: 1`).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { defaultLimits, memoryClaimStore, type CheckoutHandlerOptions } from '../../src/server/index.js';
import { startCluster, type Cluster } from '../harness/handler-cluster.js';
import { stormLink } from '../harness/buyer-storm.js';
import { resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  waited: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** How a request says who sends it: its own loopback source address, or the header a load balancer adds. */
type From = { localAddress: string } | { forwardedFor: string };

/** One HTTP request from `from`; a fresh connection each time, so the source address is really its own. */
function send(origin: string, method: string, path: string, from: From, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method,
        agent: false,
        ...('localAddress' in from ? { localAddress: from.localAddress } : {}),
        headers: {
          ...headers,
          ...('forwardedFor' in from ? { 'x-forwarded-for': from.forwardedFor } : {}),
          ...(text !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) } : {}),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] ?? null, waited: (res.headers['order-status-wait'] as string | undefined) ?? null, body: data ? JSON.parse(data) : null }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(text);
  });
}

/** Buyer `n` (0..4095) of a run: its own address, in the socket or in X-Forwarded-For. */
const addressOf = (n: number) => `127.${10 + Math.floor(n / 250)}.${(n % 250) + 1}.${n % 200 + 2}`;
const fromOf = (viaProxy: boolean, n: number): From => (viaProxy ? { forwardedFor: `203.0.${Math.floor(n / 250)}.${(n % 250) + 1}` } : { localAddress: addressOf(n) });

let keyCount = 0;
const newKey = (label: string) => `${label}-${process.pid}-${++keyCount}`;

const pushBody = (phone: string, document: string) => ({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: document, id_type: 1, phone_number: phone } });
const otpBody = (document: string) => ({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: document, id_type: 1 } });

const createOrder = (origin: string, from: From, body: unknown, key = newKey('order')) =>
  send(origin, 'POST', `/v1/checkout/links/${stormLink}/orders`, from, { 'Idempotency-Key': key }, body);

function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const label = `${a.status}${a.body?.api_code ? ` ${a.body.api_code}` : ''}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

function assertLimited(answers: Answer[], allowed: number, what: string): void {
  const counts = JSON.stringify(tally(answers));
  const reached = answers.filter((a) => a.status !== 429);
  assert.ok(reached.length <= allowed, `${what}: ${reached.length} reached the service, at most ${allowed} may (${counts})`);
  assert.ok(reached.length > 0, `${what}: the first ones pass (${counts})`);
  for (const refused of answers.filter((a) => a.status === 429)) {
    assert.equal(refused.body.api_code, 'LIMIT_REACHED', counts);
    assert.equal(refused.body.code, 3017);
    assert.ok(Number(refused.retryAfter) >= 1, `Retry-After: ${refused.retryAfter}`);
  }
  assert.ok(answers.some((a) => a.status === 429), `${what}: the rest are refused (${counts})`);
}

/** The scenarios, against one handler origin (one instance, or a proxy before three). */
function hostileScenarios(target: () => { origin: string; viaProxy: boolean }, run: string) {
  const phone = run === 'one' ? '3105550001' : '3105550002';
  const document = run === 'one' ? '52000001' : '52000002';

  it('honest buyers (50 addresses, 1–5 orders each, every create sent twice) are never refused', async () => {
    const { origin, viaProxy } = target();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, buyer) => {
        const from = fromOf(viaProxy, 1000 + buyer);
        const mine: Answer[] = [];
        for (let order = 0; order < 1 + (buyer % 5); order++) {
          const key = newKey('honest');
          const body = pushBody(`3${String(200_000_000 + buyer * 10 + (run === 'one' ? 0 : 5)).padStart(9, '0')}`, `${run === 'one' ? 7 : 8}${String(1_000_000 + buyer)}`);
          mine.push(await createOrder(origin, from, body, key));
          mine.push(await createOrder(origin, from, body, key)); // a replay: never counted
        }
        return mine;
      }),
    );
    const all = answers.flat();
    assert.deepEqual(
      Object.keys(tally(all)).filter((label) => label !== '201' && label !== '200'),
      [],
      `honest buyers: ${JSON.stringify(tally(all))}`,
    );
    assert.equal(all.filter((a) => a.status === 201).length, 150);
  });

  it('pushes to one phone from 50 addresses stay within its limit', async () => {
    const { origin, viaProxy } = target();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => createOrder(origin, fromOf(viaProxy, 2000 + n), pushBody(phone, `${61_000_000 + n}`))));
    assertLimited(answers, defaultLimits.ordersPerPhone.max, 'orders to one phone');
    // +57 does not make it another phone.
    const dodged = await createOrder(origin, fromOf(viaProxy, 2100), pushBody(`+57${phone}`, '61999999'));
    assert.equal(dodged.status, 429, JSON.stringify(dodged.body));
  });

  it('SMS to one document from 50 addresses, and the codes guessed on them, stay within their limits', async () => {
    const { origin, viaProxy } = target();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => createOrder(origin, fromOf(viaProxy, 2200 + n), otpBody(document))));
    assertLimited(answers, defaultLimits.ordersPerDocument.max, 'SMS orders for one document');
    const dodged = await createOrder(origin, fromOf(viaProxy, 2300), otpBody(`${document.slice(0, 2)}.${document.slice(2, 5)}.${document.slice(5)}`));
    assert.equal(dodged.status, 429, JSON.stringify(dodged.body));

    // Wrong codes on every order the document got, each from many addresses: the service sees at most codesPerDocument.
    const orders = answers.filter((a) => a.status === 201).map((a) => ({ id: a.body.data.id_order as number, token: a.body.data.order_token as string }));
    const guesses = await Promise.all(
      orders.flatMap((order, o) =>
        Array.from({ length: 6 }, (_, g) =>
          send(origin, 'POST', `/v1/checkout/orders/${order.id}/otp`, fromOf(viaProxy, 2400 + o * 10 + g), { 'X-Order-Token': order.token }, { daviplata_otp: '999999' }),
        ),
      ),
    );
    assertLimited(guesses, defaultLimits.codesPerDocument.max, 'SMS codes for one document');
  });

  it('orders from one address stay within its limit', async () => {
    const { origin, viaProxy } = target();
    const from = fromOf(viaProxy, 3000);
    const answers: Answer[] = [];
    for (let n = 0; n < defaultLimits.ordersPerAddress.max + 5; n++) answers.push(await createOrder(origin, from, pushBody(`3${String(400_000_000 + n + (run === 'one' ? 0 : 500))}`, `${run === 'one' ? 4 : 5}${1_000_000 + n}`)));
    assertLimited(answers, defaultLimits.ordersPerAddress.max, 'orders from one address');
    // Another buyer is not affected.
    const other = await createOrder(origin, fromOf(viaProxy, 3001), pushBody(run === 'one' ? '3119990001' : '3119990002', run === 'one' ? '99000001' : '99000002'));
    assert.equal(other.status, 201, JSON.stringify(other.body));
  });
}

describe('hostile load: one instance (socket addresses)', () => {
  let sandbox: RunningSandbox;
  let handler: RunningHandler;
  let orderReads = 0;
  const pollMs = 500;

  before(async () => {
    sandbox = await startSandbox({ port: 0, defaultReceiver: false });
    // Counts what reaches the service; every request still goes over a real socket.
    const counting: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if ((init?.method ?? 'GET') === 'GET' && /\/v1\/orders\/\d+$/.test(url.pathname)) orderReads++;
      return fetch(input, init);
    };
    const options: CheckoutHandlerOptions = { merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink: resolveHandlerLink, fetch: counting, statusPollMs: pollMs };
    handler = await serveHandler({ ...options, limits: {} });
  });
  after(async () => {
    await handler?.close();
    await sandbox?.close();
  });

  hostileScenarios(() => ({ origin: handler.url, viaProxy: false }), 'one');

  it('1,000 waiting requests on one order: one service read per poll interval, the rest answered at once, others keep answering', async (t) => {
    const created = await createOrder(handler.url, fromOf(false, 3500), pushBody('3129990001', '98000001'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const order = { id: created.body.data.id_order as number, token: created.body.data.order_token as string };
    const waitS = 10;
    const readsBefore = orderReads;
    const started = performance.now();
    let answered = 0;
    const waiting = Promise.all(
      Array.from({ length: 1_000 }, (_, n) =>
        send(handler.url, 'GET', `/v1/checkout/orders/${order.id}?wait=${waitS}&since=processing`, fromOf(false, 3600 + (n % 40)), { 'X-Order-Token': order.token }).then((a) => {
          answered++;
          return a;
        }),
      ),
    );
    // Once the requests past the cap are answered (all 1,000 are in), another buyer asks.
    const inBy = Date.now() + 30_000;
    while (answered < 900 && Date.now() < inBy) await new Promise((resolve) => setTimeout(resolve, 50));
    const otherStarted = performance.now();
    const other = await send(handler.url, 'GET', `/v1/checkout/links/${stormLink}`, fromOf(false, 3700));
    const otherMs = performance.now() - otherStarted;
    const answers = await waiting;
    const elapsedMs = performance.now() - started;
    const reads = orderReads - readsBefore;
    assert.equal(other.status, 200);
    assert.ok(otherMs < 2_000, `another buyer waited ${Math.round(otherMs)} ms`);
    assert.ok(answers.every((a) => a.status === 200 && a.body.data.status === 'processing'), JSON.stringify(tally(answers)));
    const waited = answers.filter((a) => a.waited === String(waitS)).length;
    // The per-order cap: 100 wait at a time (more only once the first ones ran out), the rest are answered at once.
    assert.ok(waited >= 100 && waited <= 100 * Math.ceil(elapsedMs / (waitS * 1000)), `${waited} of 1,000 waited over ${Math.round(elapsedMs)} ms`);
    // One read to start the watch, then one per poll interval (plus the read of a request that came before the watch).
    const allowed = 2 + Math.ceil(elapsedMs / pollMs);
    t.diagnostic(`1 instance: ${reads} service reads for 1,000 waiting requests (${waited} waited) in ${Math.round(elapsedMs)} ms; another buyer answered in ${Math.round(otherMs)} ms`);
    assert.ok(reads <= allowed, `${reads} GET /orders/{id} for 1,000 waiting requests over ${Math.round(elapsedMs)} ms (at most ${allowed})`);
  });
});

describe('hostile load: held claims under a flood (memory store)', () => {
  let sandbox: RunningSandbox;
  let handler: RunningHandler;
  before(async () => {
    sandbox = await startSandbox({ port: 0, defaultReceiver: false, orderKeyDedupe: false });
    handler = await serveHandler({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink: resolveHandlerLink, store: memoryClaimStore({ maxEntries: 100 }), timeoutMs: 3_000 });
  });
  after(async () => {
    await handler?.close();
    await sandbox?.close();
  });

  it('an in-doubt claim outlives a flood of 300 newer creates: its retry never makes a second order', async () => {
    const control = (path: string, body: unknown) =>
      fetch(`${sandbox.url}/sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await control('faults', { path: '/v1/orders', method: 'POST', mode: 'slow_first_byte', latency_ms: 4_000, count: 1 })).status, 200);
    const key = newKey('in-doubt');
    const body = pushBody('3139990001', '97000001');
    const first = await createOrder(handler.url, fromOf(false, 4000), body, key);
    assert.equal(first.status, 409, JSON.stringify(first.body));
    assert.equal(first.body.api_code, 'IDEMPOTENCY_KEY_IN_USE');
    const flood = await Promise.all(Array.from({ length: 300 }, (_, n) => createOrder(handler.url, fromOf(false, 4100 + n), pushBody(`3${140_000_000 + n}`, `${96_000_000 + n}`))));
    const counts = tally(flood);
    assert.ok((counts['201'] ?? 0) > 0, JSON.stringify(counts));
    // An order, a 503 when only held claims are left, or (a create slower than the timeout on a busy machine) in doubt.
    assert.ok(
      flood.every((a) => a.status === 201 || a.status === 503 || a.body?.api_code === 'IDEMPOTENCY_KEY_IN_USE'),
      `a flood gets orders, 503 or in doubt: ${JSON.stringify(counts)}`,
    );
    const retry = await createOrder(handler.url, fromOf(false, 4000), body, key);
    assert.equal(retry.status, 409, `the retry is still held, not a second order: ${JSON.stringify(retry.body)}`);
    assert.equal(retry.body.api_code, 'IDEMPOTENCY_KEY_IN_USE');
  });
});

/** A pass-through proxy before the sandbox that counts `GET /v1/orders/{id}`: what the instances ask the service. */
async function countingProxy(target: string): Promise<{ baseUrl: string; orderReads: () => number; close: () => Promise<void> }> {
  let reads = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && /^\/v1\/orders\/\d+$/.test(req.url ?? '')) reads++;
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  // Longer than the instances' keep-alive, so no request is sent on a socket this side is closing.
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    orderReads: () => reads,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('hostile load: three instances sharing Redis (X-Forwarded-For)', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let service: Awaited<ReturnType<typeof countingProxy>>;
  let cluster: Cluster;
  before(async () => {
    redis = await startRedis();
    sandbox = await startSandbox({ port: 0, defaultReceiver: false });
    service = await countingProxy(sandbox.url);
    cluster = await startCluster(3, { baseUrl: service.baseUrl, redisUrl: redis.url, webhookSecret: 'whsec_test_demo', limits: true });
  });
  after(async () => {
    await cluster?.close();
    await service?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  hostileScenarios(() => ({ origin: cluster.url, viaProxy: true }), 'three');

  it('300 waiting requests on one order over 3 instances: at most one service read per poll interval per instance', async (t) => {
    const created = await createOrder(cluster.url, fromOf(true, 3500), pushBody('3129990004', '98000002'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const order = { id: created.body.data.id_order as number, token: created.body.data.order_token as string };
    const waitS = 6;
    const pollMs = 2_000; // the instances' default statusPollMs
    const before = service.orderReads();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, n) =>
        send(cluster.url, 'GET', `/v1/checkout/orders/${order.id}?wait=${waitS}&since=processing`, fromOf(true, 3600 + (n % 30)), { 'X-Order-Token': order.token }),
      ),
    );
    const elapsedMs = performance.now() - started;
    const reads = service.orderReads() - before;
    assert.ok(answers.every((a) => a.status === 200 && a.body.data.status === 'processing'), JSON.stringify(tally(answers)));
    const waited = answers.filter((a) => a.waited === String(waitS)).length;
    assert.ok(waited >= 250, `${waited} of 300 waited: nearly all (100 per order per instance)`);
    // Per instance: one read to start its watch, one per interval, one for a request that arrived before the watch.
    const allowed = 3 * (2 + Math.ceil(elapsedMs / pollMs));
    t.diagnostic(`3 instances: ${reads} service reads for 300 waiting requests (${waited} waited) in ${Math.round(elapsedMs)} ms`);
    assert.ok(reads <= allowed, `${reads} GET /orders/{id} over 3 instances in ${Math.round(elapsedMs)} ms (at most ${allowed})`);
  });

  it('every counter in Redis expires, and its size is small', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys('pay-checkout:limit:*');
      assert.ok(keys.length > 0);
      let bytes = 0;
      for (const key of keys) {
        const ttl = await client.pTTL(key);
        assert.ok(ttl > 0 && ttl <= 24 * 3_600_000, `${key} expires (pttl ${ttl})`);
        bytes += (await client.memoryUsage(key)) ?? 0;
      }
      const claims = await client.keys('pay-checkout:claim:*');
      for (const key of claims) assert.ok((await client.pTTL(key)) > 0, `${key} expires`);
      console.log(`# redis: ${keys.length} limit counters, ${Math.round(bytes / keys.length)} B each on average`);
    } finally {
      await client.close();
    }
  });
});
