/**
 * The interleavings that left a claim held for its whole lease after a store fault (a stuck claim: no retry could go through until the lease ran out), each
 * injected on purpose against a real PostgreSQL and a real Redis: a claim that landed although its caller saw it fail,
 * a release lost while the store was away, and a write-back that put back a claim its holder had just completed or
 * released. After each, the key must end completed or free within seconds, never held.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createClient } from 'redis';
import type { ClaimStore } from '../../src/server/once/claims.js';
import { ClaimStoreError } from '../../src/server/index.js';
import { createOnce } from '../../src/server/once/exactly-once.js';
import { createPostgresStore, type PgPoolLike } from '../../src/server/postgres/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { restoreScript } from '../../src/server/redis/scripts.js';
import { until } from './claim-store-contract.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';

const quiet = { onError: () => {} };
const timings = { leaseMs: 60_000, keepMs: 60_000, waitMs: 200 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

/** Whether `store` lets a new request claim `key` again within `limitMs` (the key was freed, not left held). */
const claimableAgain = (store: ClaimStore, key: string, limitMs = 20_000) =>
  until(async () => ((await store.claim(key, 'd', 60_000).catch(() => undefined))?.state === 'claimed' ? true : undefined), `${key} to be claimable again`, limitMs);

describe('PostgreSQL: a claim that landed although its caller saw it fail', () => {
  let db: TestPostgres;
  before(async () => {
    db = await startPostgres();
    closers.push(() => db.stop());
  });

  /** A real pool whose claim INSERT runs as `insert` says: e.g. committed, then the answer lost. */
  function poolWith(insert: (run: () => Promise<Awaited<ReturnType<PgPoolLike['query']>>>) => ReturnType<PgPoolLike['query']>): PgPoolLike & { armed: boolean } {
    const real = new pg.Pool({ connectionString: db.url });
    // An idle connection hears the server stop at the end of the file: expected, not a failure.
    real.on('error', () => {});
    closers.push(() => real.end());
    const pool = {
      armed: false,
      query: (text: string, values?: unknown[]) => {
        const run = () => real.query(text, values) as unknown as ReturnType<PgPoolLike['query']>;
        if (!pool.armed || !text.trimStart().startsWith('INSERT')) return run();
        pool.armed = false;
        return insert(run);
      },
      connect: () => real.connect() as unknown as ReturnType<PgPoolLike['connect']>,
    };
    return pool;
  }

  it('committed, then the connection died before the answer: the claim is undone, not held for the lease', async () => {
    const pool = poolWith(async (run) => {
      await run();
      throw new Error('Connection terminated unexpectedly');
    });
    const store = createPostgresStore({ pool, table: 'lost_answer', ...quiet });
    closers.push(() => store.close!());
    pool.armed = true;
    await assert.rejects(store.claim('lost-answer', 'd', 60_000), ClaimStoreError);
    assert.equal((await store.inspect('lost-answer')).state, 'held', 'the claim did land');
    await claimableAgain(store, 'lost-answer');
  });

  it('committed after the bound gave up on it (a slow commit): undone even though it landed after the first undo', async () => {
    const pool = poolWith(async (run) => {
      await sleep(1_500);
      return run();
    });
    const store = createPostgresStore({ pool, table: 'late_commit', commandTimeoutMs: 500, ...quiet });
    closers.push(() => store.close!());
    pool.armed = true;
    await assert.rejects(store.claim('late-commit', 'd', 60_000), ClaimStoreError);
    await until(async () => ((await store.inspect('late-commit')).state === 'held' ? true : undefined), 'the late claim to land', 5_000);
    await claimableAgain(store, 'late-commit');
  });
});

describe('a release lost while the store was away', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
    closers.push(() => redis.stop());
  });

  it('is retried in the background, so the buyer can try again (the service refused: nothing was created)', async () => {
    const real = createRedisStore({ url: redis.url, ...quiet });
    closers.push(() => real.close!());
    let failReleases = 2;
    const store: ClaimStore = Object.assign(Object.create(real) as ClaimStore, {
      claim: real.claim.bind(real),
      release: async (key: string, token: string) => {
        if (failReleases-- > 0) throw new ClaimStoreError('redis release: no answer within 2000 ms');
        return real.release(key, token);
      },
    });
    const refused = new Error('the service answered 500');
    await assert.rejects(createOnce(store, timings, 'lost-release', 'd', () => Promise.reject(refused)), (error) => error === refused);
    await claimableAgain(real, 'lost-release', 10_000);
  });
});

describe('Redis came back empty: the write-back and the holder of a claim at the same moment', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
    closers.push(() => redis.stop());
  });

  it('a claim completed or released while the write-back runs ends completed or free, never held again', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.quit());
    const restoreSha = createHash('sha1').update(restoreScript).digest('hex');
    // The write-back of the first key waits at this gate: meanwhile the holders of the others finish.
    let reachGate: () => void = () => {};
    const reached = new Promise<void>((resolve) => (reachGate = resolve));
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const send = client.sendCommand.bind(client) as (args: string[]) => Promise<unknown>;
    (client as unknown as { sendCommand: typeof send }).sendCommand = async (args) => {
      const restoring = (args[0] === 'EVALSHA' && args[1] === restoreSha) || (args[0] === 'EVAL' && args[1] === restoreScript);
      if (restoring && args[3]?.endsWith('claim:wb-first')) {
        reachGate();
        await gate;
      }
      return send(args);
    };
    const store = createRedisStore({ client, recoveryMs: 200, ...quiet });
    closers.push(() => store.close!());
    await store.durability;
    const first = await store.claim('wb-first', 'd', 60_000);
    const completed = await store.claim('wb-completed', 'd', 60_000);
    const released = await store.claim('wb-released', 'd', 60_000);
    assert.ok(first.state === 'claimed' && completed.state === 'claimed' && released.state === 'claimed');

    const admin = createClient({ url: redis.url });
    await admin.connect();
    closers.push(() => admin.quit());
    // The store says when its write-back is over (its console.info line).
    const info = console.info;
    const writtenBack = new Promise<void>((resolve) => {
      console.info = (...args: unknown[]) => {
        if (String(args[0]).includes('wrote back')) resolve();
        info(...args);
      };
    }).finally(() => (console.info = info));
    await admin.flushAll();
    // The store's heartbeat (every second) finds the epoch marker gone and writes back its claims, first key first.
    await reached;
    assert.equal(await store.complete('wb-completed', completed.token, 'the reply', 60_000), false, 'Redis does not know the claim yet');
    assert.equal(await store.release('wb-released', released.token), false, 'Redis does not know the claim yet');
    openGate();

    await writtenBack;
    assert.deepEqual(await store.inspect('wb-completed'), { state: 'done', digest: 'd', response: 'the reply' });
    assert.equal((await store.inspect('wb-released')).state, 'free');
  });
});
