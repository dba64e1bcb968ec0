/**
 * The relay's outboxes, memory, Redis and PostgreSQL (real servers): one entry per order and status, one sender per
 * lease, a lease that runs out makes the entry due again, settlements fenced by the lease's token, redelivery with
 * the same id. Redis and PostgreSQL are checked through two outboxes on one store, as two instances; and a relay on
 * each, killed with SIGKILL in the middle of an attempt, loses nothing: the notice waits in the outbox, its lease runs
 * out, and another relay on the same store sends it with the same id.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ServerEvent } from '../../src/server/events.js';
import { createRelay, memoryOutbox, postgresOutbox, redisOutbox, type Outbox } from '../../src/server/serve/relay/index.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';
import { startRedis, stopChild, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let db: TestPostgres;
const opened: Outbox[] = [];
const track = (outbox: Outbox) => (opened.push(outbox), outbox);

const crashProcess = fileURLToPath(new URL('./relay-crash-process.ts', import.meta.url));
/** The shop for the crash cases: the first attempt is held unanswered (its sender dies holding it); later ones are taken. */
const attempts: { id: string; response: ServerResponse }[] = [];
const shop = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    attempts.push({ id: (JSON.parse(body) as { id: string }).id, response });
    if (attempts.length > 1) response.writeHead(200).end();
  });
});

before(async () => {
  shop.listen(0, '127.0.0.1');
  [redis, db] = await Promise.all([startRedis(), startPostgres(), once(shop, 'listening')]);
});
after(async () => {
  await Promise.all(opened.map((o) => o.close().catch(() => {})));
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
  await Promise.all([redis?.stop(), db?.stop()]);
});

let made = 0;
/** Two outboxes on one fresh store (a prefix or table of their own), as two instances would have. */
type Pair = () => [Outbox, Outbox];
const pairs: Record<string, Pair> = {
  memory: () => {
    const one = track(memoryOutbox());
    return [one, one];
  },
  redis: () => {
    const prefix = `t${(made += 1)}:`;
    return [track(redisOutbox({ url: redis.url, prefix })), track(redisOutbox({ url: redis.url, prefix }))];
  },
  postgres: () => {
    const table = `outbox_t${(made += 1)}`;
    return [track(postgresOutbox({ url: db.url, table })), track(postgresOutbox({ url: db.url, table }))];
  },
};

const entry = (id: string, key: string, at = 1_000) => ({ id, key, body: `{"id":"${id}"}`, created_at: at });

for (const [kind, pair] of Object.entries(pairs)) {
  describe(`${kind} outbox`, () => {
    it('keeps one entry per order and status, even when both instances add it at once', async () => {
      const [a, b] = pair();
      const added = await Promise.all([a.add(entry('e1', '7:confirmed')), b.add(entry('e1', '7:confirmed')), a.add(entry('e1', '7:confirmed')), b.add(entry('e1', '7:confirmed'))]);
      assert.equal(added.filter(Boolean).length, 1);
      assert.equal(await a.add(entry('e2', '7:refunded')), true, 'another status of the same order is another entry');
      const listed = await b.list(['pending']);
      assert.deepEqual(listed.map((e) => e.id).sort(), ['e1', 'e2']);
      assert.equal(listed.find((e) => e.id === 'e1')?.body, '{"id":"e1"}');
    });

    it('leases a due entry to one instance only, and counts the attempt', async () => {
      const [a, b] = pair();
      const now = Date.now();
      await a.add(entry('e1', '1:confirmed', now));
      const leases = await Promise.all([a.lease(now, 30_000, 8), b.lease(now, 30_000, 8), a.lease(now, 30_000, 8), b.lease(now, 30_000, 8)]);
      const taken = leases.flat();
      assert.equal(taken.length, 1);
      assert.equal(taken[0]!.entry.id, 'e1');
      assert.equal(taken[0]!.entry.attempts, 1);
    });

    it("makes an entry due again once a lease runs out (a crashed sender), and fences the late sender's settlement", async () => {
      const [a, b] = pair();
      await a.add(entry('e1', '1:confirmed', Date.now()));
      const [first] = await a.lease(Date.now(), 1_500, 8);
      assert.deepEqual(await b.lease(Date.now(), 400, 8), [], 'held until the lease runs out');
      await new Promise((r) => setTimeout(r, 1_600));
      const [second] = await b.lease(Date.now(), 5_000, 8);
      assert.equal(second?.entry.id, 'e1');
      assert.equal(second?.entry.attempts, 2);
      assert.equal(await a.settle('e1', first!.token, { state: 'delivered', at: Date.now(), status: 200 }), false, 'the lapsed lease settles nothing');
      assert.equal(await b.settle('e1', second!.token, { state: 'delivered', at: Date.now(), status: 204 }), true);
      assert.deepEqual(await a.list(['pending', 'given_up']), []);
      assert.deepEqual(await a.lease(Date.now() + 1_000_000, 5_000, 8), [], 'a delivered entry is never sent again by itself');
    });

    it('a failed attempt waits for its retry time; a given-up entry is listed as such and no longer sent', async () => {
      const [a, b] = pair();
      await a.add(entry('e1', '1:confirmed', Date.now()));
      const [lease] = await a.lease(Date.now(), 30_000, 8);
      assert.equal(await a.settle('e1', lease!.token, { state: 'pending', next_at: Date.now() + 1_500, delay_ms: 1_500, error: 'answered 500', status: 500 }), true);
      assert.deepEqual(await b.lease(Date.now(), 30_000, 8), []);
      await new Promise((r) => setTimeout(r, 1_600));
      const [retry] = await b.lease(Date.now(), 30_000, 8);
      assert.equal(retry?.entry.attempts, 2);
      assert.equal(retry?.entry.last_error, 'answered 500');
      assert.equal(retry?.entry.last_status, 500);
      assert.equal(await b.settle('e1', retry!.token, { state: 'given_up', at: Date.now(), error: 'no answer within the timeout', status: null }), true);
      assert.deepEqual(await a.lease(Date.now() + 10_000_000, 30_000, 8), []);
      const [gaveUp] = await a.list(['given_up']);
      assert.equal(gaveUp?.state, 'given_up');
      assert.equal(gaveUp?.last_error, 'no answer within the timeout');
      assert.deepEqual(await a.list(['pending']), []);
    });

    if (kind !== 'memory') {
      it("leases and retry times follow the store's clock: an instance whose clock runs ten minutes ahead takes no entry another holds or that is not due", async () => {
        const [a, b] = pair();
        const ahead = () => Date.now() + 10 * 60_000;
        await a.add(entry('e1', '1:confirmed', Date.now()));
        const [held] = await a.lease(Date.now(), 60_000, 8);
        assert.ok(held);
        assert.deepEqual(await b.lease(ahead(), 60_000, 8), [], 'the lease is the store\'s minute, not the fast clock\'s');
        assert.equal(await a.settle('e1', held.token, { state: 'pending', next_at: Date.now() + 60_000, delay_ms: 60_000, error: 'answered 500', status: 500 }), true);
        assert.deepEqual(await b.lease(ahead(), 60_000, 8), [], 'the retry is due in a minute of the store\'s');
      });
    }

    it('redelivers with the same id, at once and with a fresh retry window; an unknown id is no entry', async () => {
      const [a, b] = pair();
      await a.add(entry('e1', '1:confirmed'));
      const [lease] = await a.lease(1_000, 30_000, 8);
      await a.settle('e1', lease!.token, { state: 'given_up', at: 2_000, error: 'answered 410', status: 410 });
      assert.equal(await b.redeliver('e1', 50_000), true);
      assert.equal(await b.redeliver('nope', 50_000), false);
      const [again] = await a.lease(50_000, 30_000, 8, 'e1');
      assert.equal(again?.entry.id, 'e1');
      assert.equal(again?.entry.attempts, 1);
      assert.equal(again?.entry.window_from, 50_000);
      await a.settle('e1', again!.token, { state: 'delivered', at: 50_001, status: 200 });
      assert.equal(await a.add(entry('e9', '1:confirmed')), false, 'its order and status stay taken');
      assert.equal(await a.redeliver('e1', 60_000), true, 'a delivered notice can be sent again too');
      assert.equal((await a.list(['pending']))[0]?.id, 'e1');
    });

    it('leases only the entry asked for, and at most the batch size', async () => {
      const [a] = pair();
      for (let n = 1; n <= 5; n++) await a.add(entry(`e${n}`, `${n}:confirmed`, 1_000 + n));
      const [only] = await a.lease(10_000, 30_000, 8, 'e4');
      assert.equal(only?.entry.id, 'e4');
      const batch = await a.lease(10_000, 30_000, 2);
      assert.deepEqual(batch.map((l) => l.entry.id), ['e1', 'e2'], 'the longest-due first');
    });
  });
}

const stores: Record<string, () => [string, () => Outbox]> = {
  redis: () => [redis.url, () => redisOutbox({ url: redis.url })],
  postgres: () => [db.url, () => postgresOutbox({ url: db.url })],
};

for (const [kind, store] of Object.entries(stores)) {
  describe(`a relay on ${kind} killed mid-attempt`, () => {
    it('leaves the notice to another relay on the same store, which delivers it with the same id', async () => {
      attempts.length = 0;
      const [url, outbox] = store();
      const notifyUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`;
      const first = spawn(process.execPath, ['--import', 'tsx', crashProcess, kind, url, notifyUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      first.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (attempts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(attempts.length, 1, `the first attempt reached the shop; the process said: ${out}`);
      const id = /recorded (\S+)/.exec(out)?.[1];
      assert.equal(attempts[0]!.id, id);
      await stopChild(first, 'SIGKILL');

      const events: ServerEvent[] = [];
      const relay = createRelay({ outbox: outbox(), notifyUrl, secrets: ['relay-crash-app-secret'], firstRetryMs: 100, pollMs: 50, emit: (e) => events.push(e) });
      relay.start();
      try {
        while (!events.some((e) => e.name === 'notice_delivered') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(attempts.map((a) => a.id), [id, id]);
        assert.deepEqual(await relay.list(), []);
      } finally {
        await relay.close();
      }
    });
  });
}

describe('npx pay-checkout deliveries', () => {
  it('lists a given-up notice from the shared store and redelivers it with the same id', async () => {
    const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
    const taken: string[] = [];
    const app = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        taken.push((JSON.parse(body) as { id: string }).id);
        response.writeHead(200).end();
      });
    });
    app.listen(0, '127.0.0.1');
    await once(app, 'listening');
    try {
      // A notice given up on: recorded, its one attempt failed, its window already over.
      const outbox = track(redisOutbox({ url: redis.url }));
      await outbox.add({ id: 'evt_cli_given_up', key: '77:confirmed', body: '{"id":"evt_cli_given_up","type":"order.paid","created_at":"2026-11-28T16:00:00.000Z","data":{"id_order":77}}', created_at: 1_000 });
      const [lease] = await outbox.lease(1_000, 30_000, 8, 'evt_cli_given_up');
      await outbox.settle('evt_cli_given_up', lease!.token, { state: 'given_up', at: 2_000, error: 'answered 500', status: 500 });
      const env = { ...process.env, PAY_CHECKOUT_REDIS_URL: redis.url, PAY_CHECKOUT_NOTIFY_URL: `http://127.0.0.1:${(app.address() as AddressInfo).port}/notify`, PAY_CHECKOUT_APP_SECRET: 'deliveries-cli-app-secret' };
      const deliveries = async (...args: string[]) => {
        const child = spawn(process.execPath, ['--import', 'tsx', cli, 'deliveries', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const [code] = (await once(child, 'exit')) as [number];
        return { code, out: out.trim() };
      };
      const listed = await deliveries();
      assert.equal(listed.code, 0, listed.out);
      assert.equal(listed.out, 'evt_cli_given_up  order.paid  77  given up  1 attempt  last: answered 500');
      const again = await deliveries('redeliver', 'evt_cli_given_up');
      assert.deepEqual(again, { code: 0, out: 'evt_cli_given_up: delivered (200).' });
      assert.deepEqual(taken, ['evt_cli_given_up']);
      assert.deepEqual(await outbox.list(['pending', 'given_up']), []);
    } finally {
      app.closeAllConnections();
      await new Promise((r) => app.close(r));
    }
  });
});

describe('outbox settings', () => {
  it('refuses a PostgreSQL table name that is not a plain SQL name, and neither or both connections', () => {
    assert.throws(() => postgresOutbox({ url: 'postgres://x', table: 'x; DROP TABLE y' }), /SQL name/);
    assert.throws(() => postgresOutbox({}), /exactly one/);
  });

  it('an unreachable Redis fails the call with a store error, not a hang', async () => {
    const outbox = track(redisOutbox({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500 }));
    await assert.rejects(outbox.add(entry('e1', '1:confirmed')), { name: 'ClaimStoreError' });
  });
});
