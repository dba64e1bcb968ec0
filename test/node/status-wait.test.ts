/**
 * Waiting status requests over real sockets: `GET /v1/checkout/orders/{id}?wait=N&since=STATUS`
 * in the sandbox and through createCheckoutHandler(), on one instance and on two sharing a store (memory and Redis).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { maxStatusWaitSeconds, statusWaitHeader } from '../../src/contract/index.js';
import { memoryClaimStore, type ClaimStore } from '../../src/server/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { pushOrderBody, postOrder, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';
import { assertError, checkoutOrder, gateways, startTestSandbox, type Json, type TestSandbox } from './sandbox-harness.js';

interface Waited {
  status: number;
  wait: string | null;
  body: Json;
  /** When the answer arrived (performance.now()). */
  at: number;
}

async function statusRequest(origin: string, order: { id: number; token: string }, query = ''): Promise<Waited> {
  const response = await fetch(`${origin}/v1/checkout/orders/${order.id}${query}`, { headers: { 'X-Order-Token': order.token } });
  const body: Json = await response.json();
  return { status: response.status, wait: response.headers.get(statusWaitHeader), body, at: performance.now() };
}

/** True while the promise is still pending after `ms`: the request is really waiting. */
async function stillWaiting(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(pending), ms))])) === pending;
}

async function approve(sb: TestSandbox, id: number): Promise<number> {
  const approved = await sb.api('POST', `/sandbox/orders/${id}/approve`);
  assert.equal(approved.status, 200, approved.text);
  return performance.now();
}

describe('sandbox: a status request waits for a change', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());

  async function pushOrder() {
    const created = await checkoutOrder(sb, 'demo-dynamic', gateways.push, { amount: 20_000 });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.status, 'processing');
    return { id: created.body.data.id_order as number, token: created.body.data.order_token as string };
  }

  test('answers as soon as the payment is confirmed, and says it waited', async () => {
    const order = await pushOrder();
    const waiting = statusRequest(sb.origin, order, '?wait=25&since=processing');
    assert.ok(await stillWaiting(waiting, 500), 'the request waits while nothing changes');
    const approvedAt = await approve(sb, order.id);
    const answer = await waiting;
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.status, 'confirmed');
    assert.equal(answer.wait, '25');
    assert.ok(answer.at - approvedAt < 1_000, `answered ${Math.round(answer.at - approvedAt)} ms after the approval`);
  });

  test('answers at once when the status already differs from the one the buyer saw', async () => {
    const order = await pushOrder();
    const started = performance.now();
    const answer = await statusRequest(sb.origin, order, '?wait=25&since=pending');
    assert.equal(answer.body.data.status, 'processing');
    assert.equal(answer.wait, '25');
    assert.ok(answer.at - started < 1_000);
  });

  test('answers with the unchanged order when the wait runs out; longer waits are cut to 25 s', async () => {
    const order = await pushOrder();
    const started = performance.now();
    const answer = await statusRequest(sb.origin, order, '?wait=1&since=processing');
    assert.equal(answer.body.data.status, 'processing');
    assert.equal(answer.wait, '1');
    assert.ok(answer.at - started >= 950, `answered after ${Math.round(answer.at - started)} ms`);
    const long = statusRequest(sb.origin, order, '?wait=3600&since=processing');
    assert.ok(await stillWaiting(long, 300));
    await approve(sb, order.id);
    assert.equal((await long).wait, String(maxStatusWaitSeconds));
  });

  test('without wait it answers at once, as before; wrong parameters are 400 on their field', async () => {
    const order = await pushOrder();
    const plain = await statusRequest(sb.origin, order);
    assert.equal(plain.wait, null);
    for (const [query, field] of [
      ['?wait=soon&since=processing', 'wait'],
      ['?wait=5&since=paid', 'since'],
      ['?wait=5', 'since'],
    ]) {
      const reply = await sb.api('GET', `/v1/checkout/orders/${order.id}${query}`, undefined, { 'X-Order-Token': order.token });
      assertError(reply, 400, 'VALIDATION_FAILED');
      assert.equal(reply.body.validation_errors[0].field, field, reply.text);
    }
  });

  test('a wrong token is the same 404 with or without waiting, answered at once', async () => {
    const order = await pushOrder();
    const answer = await statusRequest(sb.origin, { ...order, token: 'nope' }, '?wait=25&since=processing');
    assert.equal(answer.status, 404);
    assert.equal(answer.wait, null);
  });
});

function handlerScenarios(name: string, share: () => Promise<{ stores: [ClaimStore, ClaimStore]; close(): Promise<void> }>) {
  describe(`handler: a status request waits for a change (${name})`, () => {
    let sb: TestSandbox;
    let instances: RunningHandler[] = [];
    let polling: RunningHandler;
    let shared: { stores: [ClaimStore, ClaimStore]; close(): Promise<void> } | undefined;

    before(async () => {
      sb = await startTestSandbox();
      shared = await share();
      // The handler measures a webhook's signed timestamp against the service's clock, here the sandbox's.
      const options = { merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, resolveLink: resolveHandlerLink, secret: 'a-test-server-secret', now: () => sb.running.sandbox.context.clock.now() };
      // Polling so slow that only a webhook can wake a waiting request within the test's limits.
      instances = await Promise.all(shared.stores.map((store) => serveHandler({ ...options, store, webhookSecret: 'whsec_test_demo', statusPollMs: 600_000 })));
      // No webhooks at all: the handler's own polling of GET /orders/{id} is what notices the payment.
      polling = await serveHandler({ ...options, statusPollMs: 200 });
      // The sandbox delivers its webhooks to instance a only.
      const forwarded = await sb.api('POST', '/sandbox/forward', { url: `${instances[0]!.url}/v1/webhooks` });
      assert.equal(forwarded.status, 200, forwarded.text);
    });
    after(async () => {
      await Promise.all([...instances, polling].map((h) => h.close()));
      await sb.close();
      await shared?.close();
    });

    async function orderThrough(handler: RunningHandler, key: string) {
      const created = await postOrder(handler.url, key, pushOrderBody);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return { id: created.body.data.id_order as number, token: created.body.data.order_token as string };
    }

    test('a webhook received by instance a wakes the request waiting on instance b', async () => {
      const order = await orderThrough(instances[0]!, `wake-${name}`);
      const waiting = statusRequest(instances[1]!.url, order, '?wait=25&since=processing');
      assert.ok(await stillWaiting(waiting, 500));
      const approvedAt = await approve(sb, order.id);
      const answer = await waiting;
      assert.equal(answer.body.data.status, 'confirmed');
      assert.equal(answer.wait, '25');
      assert.ok(answer.at - approvedAt < 3_000, `answered ${Math.round(answer.at - approvedAt)} ms after the approval`);
    });

    test('without webhooks the handler polls the service while it waits', async () => {
      const order = await orderThrough(polling, `poll-${name}`);
      const waiting = statusRequest(polling.url, order, '?wait=25&since=processing');
      assert.ok(await stillWaiting(waiting, 500));
      const approvedAt = await approve(sb, order.id);
      const answer = await waiting;
      assert.equal(answer.body.data.status, 'confirmed');
      assert.ok(answer.at - approvedAt < 3_000, `answered ${Math.round(answer.at - approvedAt)} ms after the approval`);
    });

    test('answers the unchanged order at the bound, at once when already changed, and refuses bad parameters', async () => {
      const order = await orderThrough(instances[1]!, `bound-${name}`);
      const started = performance.now();
      const timedOut = await statusRequest(instances[1]!.url, order, '?wait=1&since=processing');
      assert.equal(timedOut.body.data.status, 'processing');
      assert.equal(timedOut.wait, '1');
      assert.ok(timedOut.at - started >= 950, `answered after ${Math.round(timedOut.at - started)} ms`);
      const changed = await statusRequest(instances[1]!.url, order, '?wait=25&since=pending');
      assert.ok(changed.at - timedOut.at < 2_000);
      assert.equal(changed.body.data.status, 'processing');
      const bad = await statusRequest(instances[1]!.url, order, '?wait=25&since=paid');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.validation_errors[0].field, 'since');
    });
  });
}

describe("handler: a buyer's token after the service's ids start again", () => {
  let sb: TestSandbox;
  let handler: RunningHandler;
  before(async () => {
    sb = await startTestSandbox();
    handler = await serveHandler({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, resolveLink: resolveHandlerLink, secret: 'a-test-server-secret', statusPollMs: 200, now: () => sb.running.sandbox.context.clock.now() });
  });
  after(async () => {
    await handler.close();
    await sb.close();
  });

  test('a token of the old order 1 neither reads, waits on nor cancels the new order 1; the new token does', async () => {
    const fresh = async (key: string) => {
      assert.equal((await sb.api('POST', '/sandbox/reset')).status, 200);
      const created = await postOrder(handler.url, key, pushOrderBody);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return { id: created.body.data.id_order as number, token: created.body.data.order_token as string };
    };
    const old = await fresh(`ids-again-old-${process.pid}`);
    const now = await fresh(`ids-again-new-${process.pid}`);
    assert.equal(now.id, old.id, 'the service numbered the new order as the old one');
    assert.notEqual(now.token, old.token);

    const stale = { id: now.id, token: old.token };
    const notFound = (reply: Waited) => assert.deepEqual([reply.status, reply.body.api_code], [404, 'ORDER_NOT_FOUND'], JSON.stringify(reply.body));
    notFound(await statusRequest(handler.url, stale));
    const started = performance.now();
    notFound(await statusRequest(handler.url, stale, '?wait=25&since=processing'));
    assert.ok(performance.now() - started < 5_000, 'refused at once, not after the wait');
    const cancel = await fetch(`${handler.url}/v1/checkout/orders/${now.id}/cancel`, { method: 'POST', headers: { 'X-Order-Token': old.token } });
    assert.equal(cancel.status, 404, await cancel.text());

    const waiting = statusRequest(handler.url, now, '?wait=25&since=processing');
    assert.ok(await stillWaiting(waiting, 300), 'the new token waits on the new order, which nothing cancelled');
    await approve(sb, now.id);
    const answer = await waiting;
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.status, 'confirmed');
  });
});

handlerScenarios('memory store shared in one process', async () => {
  const store = memoryClaimStore();
  return { stores: [store, store], close: async () => {} };
});

handlerScenarios('Redis, a connection per instance', async () => {
  const redis: TestRedis = await startRedis();
  const stores: [ClaimStore, ClaimStore] = [createRedisStore({ url: redis.url }), createRedisStore({ url: redis.url })];
  const close = async () => {
    await Promise.all(stores.map((s) => s.close?.()));
    await redis.stop();
  };
  // Connected before the first request (a loaded machine may need longer than the store's command timeout).
  const deadline = performance.now() + 30_000;
  while (!(await Promise.all(stores.map((s) => s.inspect('warm-up'))).then(() => true, () => false))) {
    if (performance.now() > deadline) {
      await close();
      throw new Error('the Redis stores did not answer within 30 s');
    }
  }
  return { stores, close };
});
