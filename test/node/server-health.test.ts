/**
 * `GET {basePath}/health` and `/health/ready`: alive always; ready while the claim store answers within its bound
 * (a real redis-server stopped and started again), 503 with the reason otherwise and while draining; never a call
 * to the payment service.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCheckoutHandler, memoryClaimStore, serve, type ServerEvent } from '../../src/server/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { resolveHandlerLink } from './handler-harness.js';
import { startRestartableRedis, type RestartableRedis } from './redis-topologies.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fetch that counts: the probes must never reach the payment service. */
function countingFetch() {
  const calls: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    calls.push(String(input));
    return new Response('{}', { status: 503 });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const probe = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
};

describe('health: memory store', () => {
  it('alive and ready, under any prefix; other methods 405; the service is never called', async () => {
    const service = countingFetch();
    const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: 'http://127.0.0.1:9/v1', fetch: service.fetch, resolveLink: resolveHandlerLink, openTelemetry: false });
    const running = await serve(handler, { port: 0, host: '127.0.0.1' });
    try {
      const alive = await probe(`${running.url}/v1/health`);
      assert.equal(alive.status, 200);
      assert.deepEqual(alive.body, { data: { status: 'alive' } });
      assert.equal(alive.headers.get('cache-control'), 'no-store');
      const ready = await probe(`${running.url}/shop/api/v1/health/ready`);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.data.status, 'ready');
      assert.equal((await probe(`${running.url}/v1/health/ready`, { method: 'HEAD' })).status, 200);
      const post = await probe(`${running.url}/v1/health`, { method: 'POST' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      assert.equal((await probe(`${running.url}/v1/health/other`)).status, 404);
      assert.deepEqual(service.calls, []);
    } finally {
      await running.close();
    }
  });

  it('a store that does not answer within readyTimeoutMs is 503 claim_store_timeout, with one event', async () => {
    const events: ServerEvent[] = [];
    const stuck = { ...memoryClaimStore(), inspect: () => new Promise<never>(() => {}) };
    const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: 'http://127.0.0.1:9/v1', resolveLink: resolveHandlerLink, store: stuck, readyTimeoutMs: 200, onEvent: (e) => events.push(e), openTelemetry: false });
    const started = Date.now();
    const [one, two] = await Promise.all([handler(new Request('http://shop.test/v1/health/ready')), handler(new Request('http://shop.test/v1/health/ready'))]);
    assert.ok(Date.now() - started < 1_500);
    for (const answer of [one, two]) {
      assert.equal(answer.status, 503);
      assert.deepEqual(await answer.json(), { data: { status: 'unavailable', reason: 'claim_store_timeout' } });
    }
    assert.deepEqual(
      events.map((e) => [e.level, e.name]),
      [['warn', 'not_ready']],
    );
    assert.equal((await handler(new Request('http://shop.test/v1/health'))).status, 200, 'still alive');
  });

  it('503 shutting_down once draining', async () => {
    const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: 'http://127.0.0.1:9/v1', resolveLink: resolveHandlerLink, openTelemetry: false, onEvent: () => {} });
    assert.equal((await handler(new Request('http://shop.test/v1/health/ready'))).status, 200);
    assert.deepEqual(await handler.drain(), { unfinished: 0 });
    const answer = await handler(new Request('http://shop.test/v1/health/ready'));
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { data: { reason: string } }).data.reason, 'shutting_down');
  });
});

describe('health: a real Redis stopped and started again', () => {
  let redis: RestartableRedis;
  before(async () => {
    redis = await startRestartableRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it('/health/ready turns 503 within 2 s of Redis going away, and 200 once it is back', async (t) => {
    const events: ServerEvent[] = [];
    const store = createRedisStore({ url: redis.url });
    const service = countingFetch();
    const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: 'http://127.0.0.1:9/v1', fetch: service.fetch, resolveLink: resolveHandlerLink, store, onEvent: (e) => events.push(e), openTelemetry: false });
    const running = await serve(handler, { port: 0, host: '127.0.0.1' });
    const ready = `${running.url}/v1/health/ready`;
    /** Probes every 100 ms (as a tight probe would) until `status`; how long it took from `since`. */
    const until = async (status: number, since: number, limitMs: number) => {
      for (;;) {
        const answer = await probe(ready);
        if (answer.status === status) return { ms: Date.now() - since, body: answer.body };
        if (Date.now() - since > limitMs) assert.fail(`still ${answer.status} after ${limitMs} ms: ${JSON.stringify(answer.body)}`);
        await sleep(100);
      }
    };
    try {
      await until(200, Date.now(), 10_000);
      const stoppedAt = Date.now();
      await redis.stop();
      const down = await until(503, stoppedAt, 5_000);
      t.diagnostic(`503 ${down.ms} ms after redis-server stopped (${JSON.stringify(down.body)})`);
      assert.ok(down.ms < 2_000, `503 after ${down.ms} ms`);
      assert.match(down.body.data.reason, /^claim_store_(unavailable|timeout)$/);
      assert.doesNotMatch(JSON.stringify(down.body), /127\.0\.0\.1|redis:/, 'the public reason names no address');
      assert.ok(events.some((e) => e.name === 'not_ready' && e.level === 'warn'));

      const startedAt = Date.now();
      await redis.start();
      const up = await until(200, startedAt, 15_000);
      t.diagnostic(`200 again ${up.ms} ms after redis-server was started (its start included)`);
      assert.ok(events.some((e) => e.name === 'ready'));
      assert.deepEqual(service.calls, [], 'no probe called the payment service');
      for (const event of events) assert.doesNotThrow(() => JSON.parse(JSON.stringify(event)));
    } finally {
      await running.close();
      await store.close?.();
    }
  });
});
