/**
 * createRedisStore() on the deployments merchants run: a real 3-master Cluster (by URL to one node, by rootNodes,
 * by a createCluster() client), a Sentinel group (by option and by a createSentinel() client), clients it cannot
 * use refused at creation, Redis down at start, and a Redis that comes back empty with claims in flight.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCluster, createSentinel } from 'redis';
import type { ClaimStore } from '../../src/server/once/claims.js';
import { ClaimStoreError } from '../../src/server/index.js';
import { createRedisStore, type RedisStore } from '../../src/server/redis/index.js';
import { claimStoreContract, until } from './claim-store-contract.js';
import { freePort } from './redis-harness.js';
import { startRedisCluster, startRestartableRedis, startSentinelGroup, type TestCluster, type TestSentinel } from './redis-topologies.js';

const stores: ClaimStore[] = [];
const track = <T extends ClaimStore>(store: T) => (stores.push(store), store);
const quiet = { onError: () => {} };
after(async () => {
  await Promise.all(stores.map((s) => s.close?.().catch(() => {})));
});

describe('a 3-master Redis Cluster', () => {
  let cluster: TestCluster;
  let byUrl: RedisStore;
  let byNodes: RedisStore;
  before(async () => {
    cluster = await startRedisCluster();
    // Each store writes 16,384 epoch markers as it starts: on a loaded machine the first claims queue behind them for
    // over the 2 s default bound (seen once), and these tests are about routing, not time.
    const roomy = { ...quiet, commandTimeoutMs: 10_000 };
    byUrl = track(createRedisStore({ url: cluster.url, ...roomy }));
    byNodes = track(createRedisStore({ rootNodes: cluster.ports.slice(1).map((port) => ({ url: `redis://127.0.0.1:${port}` })), ...roomy }));
    await Promise.all([byUrl.durability, byNodes.durability]);
  });
  after(async () => {
    await Promise.all([byUrl, byNodes].map((s) => s.close?.()));
    await cluster?.stop();
  });
  let turn = 0;
  // A URL to one node and rootNodes to the others, alternating: every promise holds across the two.
  claimStoreContract(() => ((turn += 1) % 2 ? byUrl : byNodes));

  it('routes keys of every slot to their master: no MOVED, keys spread over the 3 masters', async () => {
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => byUrl.claim(`spread-${i}`, 'd', 60_000)));
    assert.equal(results.filter((r) => r.state === 'claimed').length, 300);
    const keys = await Promise.all(cluster.ports.map(async (port) => {
      const own = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${port}` }] });
      await own.connect();
      const node = await own.nodeClient(own.masters.find((m) => m.port === port)!);
      const count = Number(await node.sendCommand(['EVAL', `return #redis.call('KEYS', 'pay-checkout:claim:spread-*')`, '0']));
      await own.close();
      return count;
    }));
    assert.equal(keys.reduce((a, b) => a + b, 0), 300);
    assert.ok(keys.every((n) => n > 50), `claims spread over the masters: ${keys.join(', ')}`);
    const durability = await byUrl.durability;
    assert.equal(durability.topology, 'cluster');
    assert.equal(durability.canLoseClaims, true, 'no replica, no AOF: the store says it can lose claims');
  });

  it('takes a createCluster() client and wakes a subscriber through sharded pub/sub', async () => {
    const client = createCluster({ rootNodes: [{ url: cluster.url }] });
    const store = track(createRedisStore({ client, ...quiet }));
    const got: string[] = [];
    const offs = await Promise.all(['a', 'b', 'c', 'd'].map((name) => byNodes.subscribe(`wake-${name}`, (m) => got.push(m))));
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => store.publish(`wake-${name}`, name)));
    await until(() => got.length === 4, 'every channel, on whichever shard');
    await Promise.all(offs.map((off) => off()));
    await store.close?.();
    assert.equal(client.isOpen, true, 'a client the merchant passed stays open');
    await client.close();
  });

  it('lends its connection to a counter beside the claims (a rate limiter), routed by key', async () => {
    const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => byUrl.command(`limit-${i % 3}`, ['INCR', `limit-${i % 3}`])));
    assert.equal(Math.max(...counts.map(Number)), 10);
  });
});

describe('clients the store cannot use', () => {
  it('are refused at creation with what to pass instead', () => {
    const ioredisLike = { status: 'ready', call: async () => 'OK', sendCommand: async () => 'OK', duplicate: () => ({}) };
    assert.throws(() => createRedisStore({ client: ioredisLike as never }), /createClient\(\), createCluster\(\) or createSentinel\(\)/);
    assert.throws(() => createRedisStore({ url: 'redis://x', rootNodes: [{ url: 'redis://y' }] }), /exactly one of/);
    assert.throws(() => createRedisStore({ sentinel: { name: '', sentinelRootNodes: [] } }), /sentinelRootNodes/);
  });
});

describe('Redis down when the handler starts', () => {
  it('answers ClaimStoreError at once, and works by itself once Redis comes', async () => {
    const port = await freePort();
    const store = track(createRedisStore({ url: `redis://127.0.0.1:${port}`, ...quiet }));
    const started = Date.now();
    await assert.rejects(store.claim('early', 'd', 60_000), ClaimStoreError);
    await assert.rejects(store.claim('early', 'd', 60_000), ClaimStoreError);
    assert.ok(Date.now() - started < 1_500, `failed in ${Date.now() - started} ms, not at once`);
    const { launch, stopChild } = await import('./redis-harness.js');
    const child = await launch(port);
    try {
      const claimed = await until(async () => (await store.claim('early', 'd', 60_000).catch(() => undefined))?.state, 'the store to recover', 20_000);
      assert.equal(claimed, 'claimed');
    } finally {
      await store.close?.();
      await stopChild(child);
    }
  });
});

describe('Redis that comes back empty', () => {
  it('is found by its marker; the claims each instance held are written back before unknown keys are claimed', async () => {
    const redis = await startRestartableRedis();
    const a = track(createRedisStore({ url: redis.url, recoveryMs: 1_500, ...quiet }));
    const b = track(createRedisStore({ url: redis.url, recoveryMs: 1_500, ...quiet }));
    try {
      const held = await a.claim('in-flight', 'd', 60_000);
      assert.equal(held.state, 'claimed');
      const done = await b.claim('answered', 'd', 60_000);
      assert.ok(done.state === 'claimed');
      assert.equal(await b.complete('answered', done.token, '{"status":201,"data":{"id_order":7}}', 60_000), true);
      await redis.kill();
      await redis.start();
      // The first instance to touch it finds the marker gone: unknown keys wait while both write back.
      const early = await until(async () => {
        try {
          return await b.claim('brand-new', 'd', 60_000);
        } catch (error) {
          return error instanceof ClaimStoreError && /came back empty/.test(error.message) ? undefined : undefined;
        }
      }, 'the recovery window to end', 20_000);
      assert.equal(early.state, 'claimed', 'after the window, new keys are claimed');
      assert.deepEqual(await b.claim('in-flight', 'd', 60_000), { state: 'in_flight', digest: 'd' }, "a's in-flight claim was written back");
      assert.equal(held.state === 'claimed' && (await a.complete('in-flight', held.token, '{"status":201,"data":{"id_order":8}}', 60_000)), true);
      assert.deepEqual(await a.claim('answered', 'd', 60_000), { state: 'done', response: '{"status":201,"data":{"id_order":7}}' }, "b's answer was written back");
    } finally {
      await Promise.all([a.close?.(), b.close?.()]);
      await redis.stop();
    }
  });

  it('refuses unknown keys during the recovery window', async () => {
    const redis = await startRestartableRedis();
    const a = track(createRedisStore({ url: redis.url, recoveryMs: 5_000, ...quiet }));
    try {
      assert.equal((await a.claim('before', 'd', 60_000)).state, 'claimed');
      await redis.kill();
      await redis.start();
      const failure = await until(async () => {
        try {
          await a.claim('unknown-after', 'd', 60_000);
          return 'claimed';
        } catch (error) {
          return error instanceof ClaimStoreError && /came back empty/.test(error.message) ? error.message : undefined;
        }
      }, 'the store to find the empty Redis');
      assert.match(failure, /came back empty/);
    } finally {
      await a.close?.();
      await redis.stop();
    }
  });
});

describe('a Sentinel group (master, replica, redis-sentinel)', () => {
  let group: TestSentinel;
  let store: RedisStore;
  before(async () => {
    group = await startSentinelGroup();
    store = track(createRedisStore({ sentinel: { name: group.name, sentinelRootNodes: [{ host: '127.0.0.1', port: group.sentinelPort }] }, ...quiet }));
  });
  after(async () => {
    await store?.close?.();
    await group?.stop();
  });
  claimStoreContract(() => store);

  it('acknowledges claims on the replica (WAIT) and says it cannot lose them', async () => {
    const durability = await store.durability;
    assert.equal(durability.topology, 'sentinel');
    assert.equal(durability.replicaAcks, 1);
    assert.equal(durability.canLoseClaims, false);
  });

  it('takes a createSentinel() client', async () => {
    const client = createSentinel({ name: group.name, sentinelRootNodes: [{ host: '127.0.0.1', port: group.sentinelPort }] });
    const other = track(createRedisStore({ client, ...quiet }));
    assert.equal((await other.claim('via-client', 'd', 60_000)).state, 'claimed');
    assert.deepEqual(await store.claim('via-client', 'd', 60_000), { state: 'in_flight', digest: 'd' });
    await other.close?.();
    await client.close();
  });
});
