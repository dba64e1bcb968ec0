// The handler's webhook intake does each signed delivery's work once, across instances: the first copy settles the
// in-doubt create and wakes the waiters; every replay (the service's retry, a resend, a copy sent again by anyone) is
// answered 200 and does nothing. On one instance with the memory store, and on two sharing a real Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryClaimStore, type ClaimStore } from '../../src/server/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { orderKeyFor, serverSecrets } from '../../src/server/secrets.js';
import { sign } from '../../src/webhooks/index.js';
import { resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';
import { directOrderBody, gateways, merchant, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const merchantKey = 'mk_test_demo';
const webhookSecret = 'whsec_test_demo';

let sb: TestSandbox;
let redis: TestRedis;
const open: { close(): Promise<void> }[] = [];
before(async () => {
  [sb, redis] = await Promise.all([startTestSandbox(), startRedis()]);
});
after(async () => {
  for (const item of open.splice(0)) await item.close();
  await sb.close();
  await redis.stop();
});

/** Handler instances on one store each (the same store, or one per instance on the same Redis), counting the service's order reads. */
async function instances(stores: ClaimStore[]) {
  let orderReads = 0;
  const handlers: RunningHandler[] = [];
  for (const store of stores) {
    const handler = await serveHandler({
      merchantKey,
      baseUrl: `${sb.origin}/v1`,
      resolveLink: resolveHandlerLink,
      webhookSecret,
      store,
      now: () => sb.running.sandbox.context.clock.now(),
      fetch: (input, init) => {
        if (/\/v1\/orders\/\d+$/.test(new URL(String(input instanceof Request ? input.url : input)).pathname)) orderReads += 1;
        return fetch(input, init);
      },
    });
    open.push(handler);
    handlers.push(handler);
  }
  return { handlers, orderReads: () => orderReads };
}

/**
 * An order at the service made under a create's `order_key` whose claim is still held (the create's answer was lost),
 * and its signed `order_payment`: the delivery the intake settles the claim with.
 */
async function inDoubtPayment(store: ClaimStore, name: string) {
  const key = await orderKeyFor((await serverSecrets(merchantKey)).orderKey, 'camiseta-m', name);
  const claimed = await store.claim(key, 'digest-of-the-lost-create', 60_000);
  assert.equal(claimed.state, 'claimed');
  const created = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { order_key: key }), merchant);
  assert.equal(created.status, 200, created.text);
  const id_order = created.body.data.id_order as number;
  const body = JSON.stringify({
    event: 'order_payment',
    timestamp: new Date(sb.running.sandbox.context.clock.now()).toISOString(),
    id_order,
    id_external: key,
    status: 'confirmed',
    total_price: 20_000,
    currency: 'COP',
    payment_method: { gateway: 'nequi', status: 'confirmed' },
    totalItems: 1,
    shopper: { first_name: null, last_name: null, email: null },
    external_store_id: null,
  });
  return { key, id_order, body, signature: await sign(body, webhookSecret) };
}

async function deliver(handler: RunningHandler, delivery: { body: string; signature: string }) {
  const reply = await fetch(`${handler.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-Signature': delivery.signature }, body: delivery.body });
  return { status: reply.status, body: (await reply.json()) as { data?: { handled?: boolean; duplicate?: boolean } } };
}

/** Wake-ups published on the order's channel, as waiting status requests on any instance would hear them. */
async function wakeUps(store: ClaimStore, id_order: number) {
  const heard: string[] = [];
  const stop = await store.subscribe(`order:${id_order}`, (message) => heard.push(message));
  return { heard, stop };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('webhook intake once', () => {
  it('one instance, memory store: the first copy settles the claim and wakes waiters; replays answer 200 and do nothing', async () => {
    const store = memoryClaimStore();
    const { handlers, orderReads } = await instances([store]);
    const [handler] = handlers as [RunningHandler];
    const delivery = await inDoubtPayment(store, 'once-memory');
    const heard = await wakeUps(store, delivery.id_order);
    const first = await deliver(handler, delivery);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.data, { received: true, handled: true });
    assert.equal((await store.inspect(delivery.key)).state, 'done', 'the in-doubt create is settled');
    for (let i = 0; i < 3; i++) {
      const again = await deliver(handler, delivery);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.data, { received: true, handled: false, duplicate: true });
    }
    await settle();
    assert.equal(orderReads(), 1, 'the service was asked about the order once');
    assert.equal(heard.heard.length, 1, 'waiters were woken once');
    await heard.stop();
  });

  it('two instances sharing Redis: copies sent to both, one after another and at once, are processed once', async () => {
    const stores = [createRedisStore({ url: redis.url }), createRedisStore({ url: redis.url })];
    const watcher = createRedisStore({ url: redis.url });
    for (const store of [...stores, watcher]) open.push({ close: async () => store.close?.() });
    const { handlers, orderReads } = await instances(stores);
    const [a, b] = handlers as [RunningHandler, RunningHandler];

    const one = await inDoubtPayment(watcher, 'once-redis-sequential');
    const heard = await wakeUps(watcher, one.id_order);
    assert.deepEqual((await deliver(a, one)).body.data, { received: true, handled: true });
    for (const handler of [b, a, b]) {
      const again = await deliver(handler, one);
      assert.equal(again.status, 200);
      assert.equal(again.body.data?.duplicate, true);
    }
    assert.equal((await watcher.inspect(one.key)).state, 'done');

    // Ten copies at once, half to each instance: one does the work; the others are duplicates, or 503 (retry) while it runs.
    const two = await inDoubtPayment(watcher, 'once-redis-concurrent');
    const heardTwo = await wakeUps(watcher, two.id_order);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i % 2 ? a : b, two)));
    assert.equal(replies.filter((r) => r.status === 200 && r.body.data?.handled === true).length, 1, JSON.stringify(replies));
    for (const r of replies) assert.ok(r.status === 200 || r.status === 503, `status ${r.status}`);
    assert.equal((await deliver(a, two)).body.data?.duplicate, true);
    await settle();
    assert.equal(orderReads(), 2, 'the service was asked once per delivery, not once per copy');
    assert.equal(heard.heard.length, 1);
    assert.equal(heardTwo.heard.length, 1);
    await heard.stop();
    await heardTwo.stop();
  });
});
