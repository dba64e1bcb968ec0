/** createRedisStore() against a real redis-server: the claim store's promises, shared across connections. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import type { ClaimStore } from '../../src/server/once/claims.js';
import { ClaimStoreError } from '../../src/server/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { claimStoreContract, until } from './claim-store-contract.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
const stores: ClaimStore[] = [];
const track = (store: ClaimStore) => (stores.push(store), store);

before(async () => {
  redis = await startRedis();
});
after(async () => {
  await Promise.all(stores.map((s) => s.close?.()));
  await redis.stop();
});

describe('createRedisStore({ url })', () => {
  let a: ClaimStore;
  let b: ClaimStore;
  before(() => {
    a = track(createRedisStore({ url: redis.url }));
    b = track(createRedisStore({ url: redis.url }));
  });
  // Two connections, as two instances: calls alternate between them, so every promise holds across instances.
  let turn = 0;
  claimStoreContract(() => ((turn += 1) % 2 ? a : b));

  it('claims once among many connections racing for one key', async () => {
    const many = Array.from({ length: 6 }, () => track(createRedisStore({ url: redis.url })));
    const results = await Promise.all(many.flatMap((s) => Array.from({ length: 10 }, () => s.claim('race', 'd', 60_000))));
    assert.equal(results.filter((r) => r.state === 'claimed').length, 1);
  });

  it('keeps keys apart under different prefixes', async () => {
    const other = track(createRedisStore({ url: redis.url, prefix: 'other:' }));
    assert.equal((await a.claim('shared-name', 'd', 60_000)).state, 'claimed');
    assert.equal((await other.claim('shared-name', 'd', 60_000)).state, 'claimed');
  });
});

describe('createRedisStore({ client })', () => {
  it('uses the given client and leaves it open on close', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    const store = createRedisStore({ client });
    const got: string[] = [];
    const off = await store.subscribe('c', (m) => got.push(m));
    assert.equal((await store.claim('given-client', 'd', 60_000)).state, 'claimed');
    await store.publish('c', 'hello');
    await until(() => got.length === 1, 'the message');
    await off();
    await store.close?.();
    assert.equal(client.isOpen, true);
    assert.equal(await client.sendCommand(['PING']), 'PONG');
    await client.close();
  });

  it('refuses neither or both of url and client', () => {
    assert.throws(() => createRedisStore({}), /exactly one/);
  });
});

describe('createRedisStore when Redis is slow', () => {
  it('undoes a claim that ran after its caller gave up, so no key is held by nobody', async () => {
    const admin = createClient({ url: redis.url });
    await admin.connect();
    const store = track(createRedisStore({ url: redis.url, commandTimeoutMs: 1_000 }));
    await store.inspect('warm-up');
    // Redis holds every write for 2.5 s: the claim times out here, then runs, then the undo runs after it.
    await admin.sendCommand(['CLIENT', 'PAUSE', '2500', 'WRITE']);
    await assert.rejects(store.claim('slow-claim', 'd', 60_000), ClaimStoreError);
    // A write of our own returns once the pause is over, after the late claim and its undo (one connection, in order).
    await admin.sendCommand(['SET', 'pause-over', '1']);
    const exists = async (): Promise<unknown> => admin.sendCommand(['EXISTS', 'pay-checkout:claim:slow-claim']);
    await until(async () => ((await exists()) === 0 ? true : undefined), 'the orphan claim to be undone');
    assert.equal((await store.claim('slow-claim', 'd', 60_000)).state, 'claimed');
    await admin.close();
  });

  it("arms no driver timer per command: each is bounded by the store's commandTimeoutMs alone", async () => {
    const store = track(createRedisStore({ url: redis.url }));
    await store.inspect('warm-up-bound');
    // node-redis arms an AbortSignal.timeout for each command sent with a timeout (its default, 5 s): counted here.
    const real = AbortSignal.timeout.bind(AbortSignal);
    let armed = 0;
    AbortSignal.timeout = (ms: number) => ((armed += 1), real(ms));
    try {
      for (let i = 0; i < 20; i++) await store.inspect(`bounded-${i}`);
      assert.equal((await store.claim('bounded-claim', 'd', 60_000)).state, 'claimed');
    } finally {
      AbortSignal.timeout = real;
    }
    // The driver's own PING (every 5 s) may keep its timeout; the store's 21 commands arm none.
    assert.ok(armed <= 1, `${armed} driver timers armed for 21 store commands`);
  });
});

describe('createRedisStore when Redis is down', () => {
  it('fails fast with ClaimStoreError', async () => {
    const down = await startRedis();
    const errors: unknown[] = [];
    const store = createRedisStore({ url: down.url, onError: (e) => errors.push(e), commandTimeoutMs: 1_000 });
    assert.equal((await store.claim('k', 'd', 60_000)).state, 'claimed');
    await down.stop();
    await assert.rejects(store.claim('k2', 'd', 60_000), ClaimStoreError);
    await assert.rejects(store.publish('c', 'm'), ClaimStoreError);
    await store.close?.().catch(() => {});
  });
});
