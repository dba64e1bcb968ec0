/**
 * The handler's own exactly-once guarantee, against a sandbox that does NOT deduplicate `order_key`
 * (`orderKeyDedupe: false`): every POST /v1/orders that reaches it makes a new order, so any duplicate shows.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { memoryClaimStore, type ClaimStore } from '../../src/server/index.js';
import { orderKeyFor, serverSecrets } from '../../src/server/secrets.js';
import { until } from './claim-store-contract.js';
import { postOrder, pushOrderBody, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { freePort } from './redis-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const merchantKey = 'mk_test_demo';
/** The demo store's orders are signed for its partner (`demo-partner`) when forwarded. */
const webhookSecret = 'whsec_test_demo';
const quick = { waitMs: 300 };

let sb: TestSandbox;
const open: RunningHandler[] = [];
const serve = async (options: Partial<Parameters<typeof serveHandler>[0]> = {}) => {
  const handler = await serveHandler({ merchantKey, baseUrl: `${sb.origin}/v1`, resolveLink: resolveHandlerLink, webhookSecret, claimTimings: quick, now: () => sb.running.sandbox.context.clock.now(), ...options });
  open.push(handler);
  return handler;
};
const fault = async (body: Record<string, unknown>) => assert.equal((await sb.api('POST', '/sandbox/faults', { path: '/v1/orders', method: 'POST', count: 1, ...body })).status, 200);
const claimKey = async (key: string, hash = 'camiseta-m') => orderKeyFor((await serverSecrets(merchantKey)).orderKey, hash, key);

before(async () => {
  sb = await startTestSandbox({}, { orderKeyDedupe: false });
});
after(async () => {
  await Promise.all(open.map((h) => h.close()));
  await sb.close();
});
beforeEach(async () => {
  await sb.reset();
  await sb.api('DELETE', '/sandbox/faults');
});

describe('the sandbox without order_key dedupe', () => {
  it('makes a new order for every create, even with the same order_key', async () => {
    const body = { amount: 20_000, description: 'x', currency: 'COP', order_key: 'same', payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } };
    const a = await sb.api('POST', '/v1/orders', body, { 'merchant-key': merchantKey });
    const b = await sb.api('POST', '/v1/orders', body, { 'merchant-key': merchantKey });
    assert.notEqual(a.body.data.id_order, b.body.data.id_order);
    assert.equal(sb.orderCount(), 2);
  });
});

describe('createCheckoutHandler: one order per Idempotency-Key', () => {
  it('concurrent identical creates: one order, one 201, every other a replay of it', async () => {
    const handler = await serve({ claimTimings: { waitMs: 20_000 } });
    const replies = await Promise.all(Array.from({ length: 10 }, () => postOrder(handler.url, 'same-10')));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(replies.map((r) => r.body.data.id_order)).size, 1);
    assert.equal(new Set(replies.map((r) => r.body.data.order_token)).size, 1);
    assert.ok(replies.filter((r) => r.status === 200).every((r) => r.headers.get('idempotent-replayed') === 'true'));
    assert.equal(sb.orderCount(), 1);
  });

  it('another body under a key still in flight is 409 IDEMPOTENCY_KEY_REUSED at once', async () => {
    const handler = await serve({ claimTimings: { waitMs: 20_000 } });
    await fault({ mode: 'latency', latency_ms: 1_500 });
    const first = postOrder(handler.url, 'busy');
    await until(async () => (await createReachedService()) || undefined, 'the first create to be sent');
    const started = Date.now();
    const other = await postOrder(handler.url, 'busy', { ...pushOrderBody, shopper: { ...pushOrderBody.shopper, id_number: '99999999' } });
    assert.equal(other.status, 409);
    assert.equal(other.body.api_code, 'IDEMPOTENCY_KEY_REUSED');
    assert.ok(Date.now() - started < 1_000, 'answered without waiting for the first');
    assert.equal((await first).status, 201);
    assert.equal(sb.orderCount(), 1);
  });

  it('a repeat while the first is in flight waits a bounded time, then 409 IDEMPOTENCY_KEY_IN_USE with Retry-After', async () => {
    const handler = await serve();
    await fault({ mode: 'latency', latency_ms: 2_000 });
    const first = postOrder(handler.url, 'slow');
    await until(async () => (await createReachedService()) || undefined, 'the first create to be sent');
    const repeat = await postOrder(handler.url, 'slow');
    assert.equal(repeat.status, 409);
    assert.equal(repeat.body.api_code, 'IDEMPOTENCY_KEY_IN_USE');
    assert.ok(Number(repeat.headers.get('retry-after')) >= 1);
    const done = await first;
    assert.equal(done.status, 201);
    const later = await postOrder(handler.url, 'slow');
    assert.deepEqual([later.status, later.body.data.id_order], [200, done.body.data.id_order]);
    assert.equal(sb.orderCount(), 1);
  });
});

/** Whether the create reached the sandbox: its fault has been spent on it. */
async function createReachedService(): Promise<boolean> {
  const faults = await sb.api('GET', '/sandbox/faults');
  return faults.body.data.every((f: { remaining: number }) => f.remaining === 0);
}

describe('createCheckoutHandler: definite failures release the claim', () => {
  for (const status of [500, 503]) {
    it(`a ${status} from the service: the buyer's retry creates the one order`, async () => {
      const store = memoryClaimStore();
      const handler = await serve({ store });
      await fault({ mode: 'error_5xx', status });
      const failed = await postOrder(handler.url, `fails-${status}`);
      assert.equal(failed.status, status);
      assert.deepEqual(await store.inspect(await claimKey(`fails-${status}`)), { state: 'free' });
      assert.equal(sb.orderCount(), 0);
      const retry = await postOrder(handler.url, `fails-${status}`);
      assert.equal(retry.status, 201);
      assert.equal(sb.orderCount(), 1);
    });
  }

  it('a connection refused (never sent): 503, released, and the retry creates', async () => {
    const closed = await freePort();
    let refused = 0;
    const store = memoryClaimStore();
    const handler = await serve({
      store,
      fetch: (input, init) => {
        const creating = init?.method === 'POST' && String(input).endsWith('/v1/orders');
        return creating && refused++ === 0 ? fetch(`http://127.0.0.1:${closed}/v1/orders`, init) : fetch(input, init);
      },
    });
    const failed = await postOrder(handler.url, 'refused');
    assert.equal(failed.status, 503);
    assert.deepEqual(await store.inspect(await claimKey('refused')), { state: 'free' });
    assert.equal((await postOrder(handler.url, 'refused')).status, 201);
    assert.equal(sb.orderCount(), 1);
  });

  it('a 4xx refusal from the service releases the claim', async () => {
    const store = memoryClaimStore();
    // A gateway list that offers one the service does not take for direct orders (card): its 400 is definite.
    const handler = await serve({ store, gateways: [{ id_payment_gateway: 4, name: 'Stripe', kind: 'card', required_fields: [], id_types: [1], min_amount: 1, max_amount: 10_000_000, icon: 'https://x.test/i.png' }] });
    const refused = await postOrder(handler.url, 'card', { payment_gateway: { id_payment_gateway: 4 }, shopper: { id_number: '1020304050', id_type: 1 } });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(await store.inspect(await claimKey('card')), { state: 'free' });
  });
});

describe('createCheckoutHandler: an unknown outcome keeps the claim', () => {
  it('a timeout: "being checked", no second order on retry, and the order_payment webhook settles it', async () => {
    const store = memoryClaimStore();
    const handler = await serve({ store, timeoutMs: 400 });
    assert.equal((await sb.api('POST', '/sandbox/forward', { url: `${handler.url}/v1/webhooks` })).status, 200);
    // The service creates the order, then answers after the handler has stopped waiting.
    await fault({ mode: 'slow_first_byte', latency_ms: 1_500 });
    const first = await postOrder(handler.url, 'in-doubt');
    assert.equal(first.status, 409, JSON.stringify(first.body));
    assert.equal(first.body.api_code, 'IDEMPOTENCY_KEY_IN_USE');
    assert.match(first.body.description, /being checked/);
    await until(() => sb.orderCount() === 1 || undefined, 'the late order');
    const retry = await postOrder(handler.url, 'in-doubt');
    assert.equal(retry.status, 409);
    assert.equal(sb.orderCount(), 1, 'the retry made no second order');
    assert.equal((await store.inspect(await claimKey('in-doubt'))).state, 'held');

    // The buyer approves on the phone; the order_payment webhook names the key in id_external.
    const [order] = sb.running.sandbox.state.orders.values();
    assert.ok(order);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    await until(async () => (await store.inspect(await claimKey('in-doubt'))).state === 'done' || undefined, 'the webhook to settle the claim');
    const settled = await postOrder(handler.url, 'in-doubt');
    assert.equal(settled.status, 200, JSON.stringify(settled.body));
    assert.equal(settled.body.data.id_order, order.id_order);
    assert.equal(settled.body.data.status, 'confirmed');
    assert.match(settled.body.data.order_token, /^[0-9a-f]{24}\.[\w-]{43}$/);
    assert.equal(sb.orderCount(), 1);
  });

  it('a connection lost after sending, or a 502 from a proxy: the claim is kept, never a second order', async () => {
    const store = memoryClaimStore();
    const handler = await serve({ store });
    for (const [key, body] of [['dropped', { mode: 'drop' }], ['bad-gateway', { mode: 'error_5xx', status: 502 }]] as const) {
      await fault(body);
      const first = await postOrder(handler.url, key);
      assert.equal(first.status, 409, JSON.stringify(first.body));
      assert.equal((await store.inspect(await claimKey(key))).state, 'held');
      assert.equal((await postOrder(handler.url, key)).status, 409);
    }
    assert.equal(sb.orderCount(), 0);
  });
});

describe('createCheckoutHandler: the claim store fails', () => {
  it('answers 503 with Retry-After and sends nothing', async () => {
    const broken: ClaimStore = {
      ...memoryClaimStore(),
      claim: () => Promise.reject(new Error('ECONNRESET')),
    };
    const handler = await serve({ store: broken });
    const reply = await postOrder(handler.url, 'no-store');
    assert.equal(reply.status, 503);
    assert.equal(reply.body.api_code, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(reply.headers.get('retry-after')) >= 1);
    assert.equal(sb.orderCount(), 0);
  });
});

describe('createCheckoutHandler: secret rotation across instances', () => {
  it('instances with rotated lists share one order per key and accept each other\'s tokens', async () => {
    const [older, newer] = ['older-secret-0123456789', 'newer-secret-0123456789'];
    const store = memoryClaimStore();
    const a = await serve({ store, secret: [newer, older] });
    const b = await serve({ store, secret: [older, newer] });
    const viaA = await postOrder(a.url, 'rotating');
    const viaB = await postOrder(b.url, 'rotating');
    assert.equal(viaA.status, 201);
    assert.equal(viaB.body.data.id_order, viaA.body.data.id_order);
    assert.equal(sb.orderCount(), 1);
    const own = await postOrder(b.url, 'rotating-b');
    for (const [reader, token, id] of [
      [b, viaA.body.data.order_token, viaA.body.data.id_order],
      [a, own.body.data.order_token, own.body.data.id_order],
    ] as const) {
      const status = await fetch(`${reader.url}/v1/checkout/orders/${id}`, { headers: { 'X-Order-Token': token } });
      assert.equal(status.status, 200);
    }
    // An instance that never had the newer secret refuses tokens signed with it.
    const stale = await serve({ store, secret: older });
    const refused = await fetch(`${stale.url}/v1/checkout/orders/${viaA.body.data.id_order}`, { headers: { 'X-Order-Token': viaA.body.data.order_token } });
    assert.equal(refused.status, 404);
  });
});

describe('createCheckoutHandler: gateway discovery', () => {
  it('is asked once for many creates and link views, not on every call', async () => {
    let discoveries = 0;
    const handler = await serve({
      fetch: (input, init) => {
        if (String(input).endsWith('/orders/paymentGateways')) discoveries += 1;
        return fetch(input, init);
      },
    });
    for (let i = 0; i < 5; i++) assert.equal((await postOrder(handler.url, `discover-${i}`)).status, 201);
    assert.equal((await fetch(`${handler.url}/v1/checkout/links/camiseta-m`)).status, 200);
    assert.equal(discoveries, 1);
  });
});

describe('createCheckoutHandler: webhook intake', () => {
  it('refuses an unsigned or tampered delivery and acknowledges events it does not use', async () => {
    const handler = await serve();
    const { sign } = await import('../../src/webhooks/index.js');
    const post = (body: string, signature?: string) =>
      fetch(`${handler.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'X-Service-Signature': signature } : {}) }, body });
    const linkPaid = JSON.stringify({ event: 'link_paid', timestamp: new Date(sb.running.sandbox.context.clock.now()).toISOString() });
    assert.equal((await post(linkPaid)).status, 401);
    assert.equal((await post(linkPaid.replace('link_paid', 'link_paiD'), await sign(linkPaid, webhookSecret))).status, 401);
    const ok = await post(linkPaid, await sign(linkPaid, webhookSecret));
    assert.equal(ok.status, 200);
    assert.deepEqual(((await ok.json()) as { data: unknown }).data, { received: true, handled: false });
    assert.equal((await fetch(`${handler.url}/v1/webhooks`)).status, 405);
    // A correctly signed delivery from long ago is a replay, not news: refused before anything in it is believed.
    const stale = JSON.stringify({ event: 'link_paid', timestamp: '2020-01-01T00:00:00.000Z' });
    const replayed = await post(stale, await sign(stale, webhookSecret));
    assert.equal(replayed.status, 400);
    assert.match(((await replayed.json()) as { description: string }).description, /timestamp/i);
  });

  it('answers 503 when the store cannot say whether the key is held, so the service delivers again', async () => {
    const handler = await serve({ store: { ...memoryClaimStore(), inspect: () => Promise.reject(new Error('down')) } });
    const { sign } = await import('../../src/webhooks/index.js');
    const payload = JSON.stringify({
      event: 'order_payment',
      timestamp: new Date(sb.running.sandbox.context.clock.now()).toISOString(),
      id_order: 1,
      id_external: await claimKey('any'),
      status: 'confirmed',
      total_price: 50_000,
      currency: 'COP',
      payment_method: { gateway: 'nequi', status: 'confirmed' },
      totalItems: 1,
      shopper: { first_name: null, last_name: null, email: null },
      external_store_id: null,
    });
    const reply = await fetch(`${handler.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-Signature': await sign(payload, webhookSecret) }, body: payload });
    assert.equal(reply.status, 503, await reply.text());
  });
});
