/**
 * createRedisStore() when Redis goes silent: the redis-server process stopped (SIGSTOP), so its sockets stay open
 * and nothing answers, as when its host is gone. Every call fails within its bound (503, never a hang), the cause
 * is logged once, a failed `complete` keeps trying in the background, and the store works again by itself.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, describe, it } from 'node:test';
import type { ClaimStore } from '../../src/server/once/claims.js';
import { CheckoutHttpError } from '../../src/server/http/errors.js';
import { ClaimStoreError } from '../../src/server/index.js';
import { completeClaim, storeCall } from '../../src/server/once/exactly-once.js';
import { createRedisStore, type RedisStore } from '../../src/server/redis/index.js';
import { until } from './claim-store-contract.js';
import { freePort, launch, stopChild } from './redis-harness.js';

const children: ChildProcess[] = [];
const stores: ClaimStore[] = [];
after(async () => {
  await Promise.all(stores.map((s) => s.close?.().catch(() => {})));
  // A stopped process ignores SIGTERM until it is continued.
  await Promise.all(children.map((child) => (child.kill('SIGCONT'), stopChild(child))));
});

/** A redis-server of this test's own, and a store on it (500 ms per command) whose every logged cause is kept. */
async function silentSetup(): Promise<{ redis: ChildProcess; store: RedisStore; logged: string[] }> {
  const port = await freePort();
  const redis = await launch(port);
  children.push(redis);
  const logged: string[] = [];
  const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 500, onError: (e) => logged.push(e instanceof Error ? e.message : String(e)) });
  stores.push(store);
  await store.durability;
  return { redis, store, logged };
}

/** How long `promise` takes to settle, and how it settled. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; error?: unknown; value?: T }> {
  const started = Date.now();
  try {
    return { ms: Date.now() - started, value: await promise };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

const timings = { leaseMs: 60_000, keepMs: 60_000, waitMs: 1_000 };
const reply = { status: 201, data: { id_order: 41 } };

describe('a Redis that stops answering (SIGSTOP)', () => {
  it('fails each call within its bound as a 503, logs the cause once, connects anew, and claims again by itself once Redis answers', async () => {
    const { redis, store, logged } = await silentSetup();
    assert.equal((await store.claim('before', 'd', 60_000)).state, 'claimed');
    redis.kill('SIGSTOP');
    try {
      const calls = [];
      for (const key of ['silent-1', 'silent-2', 'silent-3', 'silent-4']) calls.push(await timed(storeCall(() => store.claim(key, 'd', 60_000))));
      for (const [i, call] of calls.entries()) {
        assert.ok(call.error instanceof CheckoutHttpError && call.error.status === 503, `call ${i + 1} answered 503: ${String(call.error)}`);
        assert.ok(call.error.cause instanceof ClaimStoreError, 'its cause is the store failure');
      }
      // Two commands wait their 500 ms; then the connection is dropped, and the new one opens (the kernel accepts it)
      // and hears nothing: the next call waits the 5 s connecting bound, and the calls after it fail at once.
      assert.ok(calls[0]!.ms < 2_000 && calls[1]!.ms < 2_000, `commands failed in ${calls[0]!.ms} and ${calls[1]!.ms} ms`);
      assert.ok(calls[2]!.ms < 7_000, `the reconnecting call failed in ${calls[2]!.ms} ms`);
      assert.ok(calls[3]!.ms < 1_000, `a call while the connection attempt hangs failed in ${calls[3]!.ms} ms`);
      assert.equal(logged.filter((m) => m === 'redis claim: no answer within 500 ms').length, 1, `the timeout is logged once: ${JSON.stringify(logged)}`);
      assert.ok(logged.some((m) => /stopped answering: reconnecting/.test(m)), `the reconnect is logged: ${JSON.stringify(logged)}`);
      // The silent attempt is given up after twice the bound; the next call connects anew (a host gone for good is replaced).
      const anew = await until(async () => {
        const failure = (await timed(store.claim('silent-5', 'd', 60_000))).error;
        return failure instanceof ClaimStoreError && /\(connecting\): no answer/.test(failure.message) ? failure : undefined;
      }, 'a new connection attempt', 9_000);
      assert.ok(anew);
    } finally {
      redis.kill('SIGCONT');
    }
    const continued = Date.now();
    const claimed = await until(async () => (await store.claim('after', 'd', 60_000).catch(() => undefined))?.state, 'claims to work again', 10_000);
    assert.equal(claimed, 'claimed');
    assert.ok(Date.now() - continued < 6_000, `claims worked again ${Date.now() - continued} ms after Redis answered`);
  });
});

describe('a complete that fails while Redis is silent', () => {
  it('keeps trying in the background and lands once Redis answers, without the caller retrying', async () => {
    const { redis, store } = await silentSetup();
    const claim = await store.claim('order-1', 'd', 60_000);
    assert.ok(claim.state === 'claimed');
    redis.kill('SIGSTOP');
    let first;
    try {
      first = await timed(completeClaim(store, timings, 'order-1', claim.token, reply));
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      redis.kill('SIGCONT');
    }
    assert.equal(first.value, false, 'the first try did not land');
    assert.ok(first.ms < 2_000, `the buyer's answer waited ${first.ms} ms for it`);
    const view = await until(async () => {
      const seen = await store.inspect('order-1').catch(() => undefined);
      return seen?.state === 'done' ? seen : undefined;
    }, 'the background retry to store the reply', 15_000);
    assert.deepEqual(view, { state: 'done', digest: 'd', response: JSON.stringify(reply) });
  });

  it('stops trying once the lease has ended, and does not complete that claim', async () => {
    const { redis, store } = await silentSetup();
    let completes = 0;
    const counting: ClaimStore = { ...store, complete: (...args) => ((completes += 1), store.complete(...args)) };
    const claim = await store.claim('order-2', 'd', 1_500);
    assert.ok(claim.state === 'claimed');
    redis.kill('SIGSTOP');
    try {
      assert.equal(await completeClaim(counting, { ...timings, leaseMs: 1_500 }, 'order-2', claim.token, reply), false);
      // Silent past the lease: Redis expires the claim, and the retries' deadline passes.
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      redis.kill('SIGCONT');
    }
    await until(async () => (await store.inspect('warm').catch(() => undefined)) !== undefined, 'Redis to answer again', 10_000);
    const settled = completes;
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(completes, settled, 'no retry after the lease ended');
    assert.ok(completes >= 2, `it did retry during the lease (${completes} tries)`);
    assert.deepEqual(await store.inspect('order-2'), { state: 'free' }, 'the lapsed claim is not completed');
  });
});

describe('subscribe and unsubscribe on a silent Redis', () => {
  it('settle within their bound', async () => {
    const { redis, store } = await silentSetup();
    const off = await store.subscribe('claim:wake', () => {});
    redis.kill('SIGSTOP');
    try {
      const unsubscribed = await timed(off());
      assert.ok(unsubscribed.error instanceof ClaimStoreError, `unsubscribe failed: ${String(unsubscribed.error)}`);
      assert.ok(unsubscribed.ms < 1_500, `unsubscribe settled in ${unsubscribed.ms} ms`);
      const subscribed = await timed(store.subscribe('claim:other', () => {}));
      assert.ok(subscribed.error instanceof ClaimStoreError, `subscribe failed: ${String(subscribed.error)}`);
      assert.ok(subscribed.ms < 1_500, `subscribe settled in ${subscribed.ms} ms`);
    } finally {
      redis.kill('SIGCONT');
    }
  });
});
