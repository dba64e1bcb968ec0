/** createPostgresStore() against a real PostgreSQL: the claim store's promises, and a claim that survives a crash. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ClaimStore } from '../../src/server/once/claims.js';
import { ClaimStoreError } from '../../src/server/index.js';
import { createPostgresStore, type PostgresStore } from '../../src/server/postgres/index.js';
import { claimStoreContract, until } from './claim-store-contract.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';

let db: TestPostgres;
const stores: ClaimStore[] = [];
const track = <T extends ClaimStore>(store: T) => (stores.push(store), store);
const quiet = { onError: () => {} };

before(async () => {
  db = await startPostgres();
});
after(async () => {
  await Promise.all(stores.map((s) => s.close?.().catch(() => {})));
  await db?.stop();
});

describe('createPostgresStore({ connectionString })', () => {
  let a: PostgresStore;
  let b: PostgresStore;
  before(() => {
    a = track(createPostgresStore({ connectionString: db.url, ...quiet }));
    b = track(createPostgresStore({ connectionString: db.url, ...quiet }));
  });
  // Two pools, as two instances: calls alternate between them, so every promise holds across instances.
  let turn = 0;
  claimStoreContract(() => ((turn += 1) % 2 ? a : b));

  it('says a committed claim survives a crash (synchronous commit, fsync)', async () => {
    assert.deepEqual(await a.durability, { synchronousCommit: 'on', fsync: 'on', canLoseClaims: false });
  });

  it('claims once among many pools racing for one key', async () => {
    const many = Array.from({ length: 4 }, () => track(createPostgresStore({ connectionString: db.url, ...quiet })));
    const results = await Promise.all(many.flatMap((s) => Array.from({ length: 10 }, () => s.claim('race', 'd', 60_000))));
    assert.equal(results.filter((r) => r.state === 'claimed').length, 1);
  });
});

describe('createPostgresStore({ pool })', () => {
  it('uses the given pool and leaves it open on close', async () => {
    const pool = new pg.Pool({ connectionString: db.url });
    const store = createPostgresStore({ pool, table: 'other_claims', ...quiet });
    assert.equal((await store.claim('given-pool', 'd', 60_000)).state, 'claimed');
    await store.close?.();
    assert.equal((await pool.query('SELECT count(*)::int AS n FROM other_claims')).rows[0].n, 1);
    await pool.end();
  });

  it('refuses neither or both, and a table name that is not a plain SQL name', () => {
    assert.throws(() => createPostgresStore({}), /exactly one/);
    assert.throws(() => createPostgresStore({ connectionString: db.url, table: 'x; DROP TABLE y' }), /SQL name/);
  });
});

describe('PostgreSQL killed and started again', () => {
  it('keeps every acknowledged claim and answer; fails with ClaimStoreError while down; wakes listeners again after', async () => {
    const store = track(createPostgresStore({ connectionString: db.url, commandTimeoutMs: 1_000, ...quiet }));
    const other = track(createPostgresStore({ connectionString: db.url, commandTimeoutMs: 1_000, ...quiet }));
    const held = await store.claim('crash-held', 'd', 60_000);
    assert.equal(held.state, 'claimed');
    const done = await store.claim('crash-done', 'd', 60_000);
    assert.ok(done.state === 'claimed');
    await store.complete('crash-done', done.token, 'reply', 60_000);
    const got: string[] = [];
    await other.subscribe('after-crash', (m) => got.push(m));
    await db.kill();
    await assert.rejects(store.claim('while-down', 'd', 60_000), ClaimStoreError);
    await db.start();
    const seen = await until(async () => (await store.claim('crash-held', 'd', 60_000).catch(() => undefined))?.state, 'the database to answer again');
    assert.equal(seen, 'in_flight');
    assert.deepEqual(await store.claim('crash-done', 'd', 60_000), { state: 'done', response: 'reply' });
    // The listener's connection died with the server; it comes back by itself.
    await until(async () => {
      await store.publish('after-crash', 'hello').catch(() => {});
      return got.length > 0 || undefined;
    }, 'the listener to be back');
  });
});
