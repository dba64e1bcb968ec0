/**
 * The sweep and `onOrderStatus` with PostgreSQL as the shared store: an order paid with no webhook and no buyer is
 * found by re-reading it and told once, on two handlers sharing the database; its lease follows the database's clock,
 * never an instance's; and a signed webhook whose outcome cannot be stored (the outbox's table locked past its
 * command timeout) is answered 503 with Retry-After, so the service delivers it again and the outcome is kept once.
 * A real PostgreSQL, the real sandbox and handlers over HTTP.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { OrderStatusChange } from '../../src/server/index.js';
import { createPostgresStore, type PostgresStore } from '../../src/server/postgres/index.js';
import { createRelay, postgresOutbox } from '../../src/server/serve/relay/index.js';
import { listenOnLoopback, postOrder, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const webhookSecret = 'whsec_test_demo';
let db: TestPostgres;
let sb: TestSandbox;
const stores: PostgresStore[] = [];
const open: RunningHandler[] = [];
const closing: (() => Promise<unknown>)[] = [];

before(async () => {
  // The contract's webhook timeout (5 s), so a try the store holds up is not cut off and sent again meanwhile.
  [db, sb] = await Promise.all([startPostgres(), startTestSandbox({ webhookTimeoutMs: 5_000, webhookRetryDelayMs: 300 })]);
});
after(async () => {
  for (const handler of open.splice(0)) await handler.close();
  for (const close of closing.splice(0)) await close().catch(() => {});
  await Promise.all(stores.map((s) => s.close?.().catch(() => {})));
  await sb?.close();
  await db?.stop();
});

const storeOf = (openOrdersTable?: string) => {
  const store = createPostgresStore({ connectionString: db.url, commandTimeoutMs: 1_000, onError: () => {}, ...(openOrdersTable ? { openOrdersTable } : {}) });
  stores.push(store);
  return store;
};

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 15_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let keys = 0;
const created = async (origin: string) => {
  const reply = await postOrder(origin, `sweep-postgres-${process.pid}-${(keys += 1)}`);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.data as { id_order: number; order_token: string };
};

describe('the sweep on PostgreSQL', () => {
  it('an order paid with no webhook and no buyer reaches onOrderStatus once, found by the sweep, on two handlers sharing the database', async () => {
    const changes: { handler: number; change: OrderStatusChange }[] = [];
    const handlers = await Promise.all(
      [0, 1].map((i) =>
        serveHandler({
          merchantKey: 'mk_test_demo',
          baseUrl: `${sb.origin}/v1`,
          resolveLink: resolveHandlerLink,
          store: storeOf(),
          now: () => sb.running.sandbox.context.clock.now(),
          onOrderStatus: (change) => void changes.push({ handler: i, change }),
          sweep: { firstReadMs: 150, pollMs: 50, readsPerSecond: 100, maxReads: 40 },
        }),
      ),
    );
    open.push(...handlers);
    const order = await created(handlers[0]!.url);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    await until('the outcome told', () => changes.length > 0);
    // Time for a second telling, were there one: both sweeps look every 50 ms.
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(changes.length, 1, JSON.stringify(changes));
    const { change } = changes[0]!;
    assert.equal(change.id_order, order.id_order);
    assert.equal(change.status, 'confirmed');
    assert.equal(change.link, 'camiseta-m');
    assert.equal(change.amount, 50_000);
    assert.equal(change.found_by, 'sweep');
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query('SELECT open, reads FROM pay_checkout_open_orders WHERE uid = $1', [change.order_uid]);
      assert.deepEqual(rows, [{ open: false, reads: 0 }], 'followed no longer; the read that found it closed it');
    } finally {
      await check.end();
    }
  });

  it("leases and due times follow PostgreSQL's now(): an instance whose clock runs an hour ahead neither takes a held order nor one not yet due", async () => {
    // A table of its own: the handlers' sweeps of the case above must not lease these.
    const [a, b] = [storeOf('lease_clock_open_orders').openOrders!, storeOf('lease_clock_open_orders').openOrders!];
    const order = (uid: string) => ({ uid, id_order: 9_000_001, order_key: `pc_${uid}`, link: 'camiseta-m', merchant: '', amount: 50_000, created_at: Date.now(), expires_at: null });
    await a.open(order('held-by-a'), 0, 60_000);
    const [held] = await a.lease(60_000, 10);
    assert.equal(held?.order.uid, 'held-by-a');
    await b.open(order('due-in-two-seconds'), 2_000, 60_000);
    const realNow = Date.now;
    Date.now = () => realNow() + 60 * 60_000;
    let ahead: unknown;
    try {
      ahead = await b.lease(60_000, 10);
    } finally {
      Date.now = realNow;
    }
    assert.deepEqual(ahead, [], 'nothing is due on the database clock');
    assert.equal(await b.later('held-by-a', 'not-the-token', 0, true), false, 'another lease settles nothing');
    assert.equal(await a.later('held-by-a', held!.token, 0, true), true);
    const [again] = await b.lease(60_000, 10);
    assert.equal(again?.order.uid, 'held-by-a', 'due again once its holder let go');
    assert.equal(again?.order.reads, 1);
  });
});

describe('a webhook whose outcome the store cannot take', () => {
  it('answers 503 with Retry-After and the ErrorResponse; the service delivers it again and the outcome is kept once', async () => {
    const table = 'sweep_test_outbox';
    const outbox = postgresOutbox({ url: db.url, table, commandTimeoutMs: 500 });
    const relay = createRelay({ outbox, notifyUrl: 'http://127.0.0.1:9/notify', secrets: ['an-app-secret-for-this-test'], emit: () => {} });
    closing.push(() => relay.close());
    assert.deepEqual(await relay.list(), [], 'the outbox table is made');
    const told: OrderStatusChange[] = [];
    const handler = await serveHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: `${sb.origin}/v1`,
      resolveLink: resolveHandlerLink,
      webhookSecret,
      store: storeOf(),
      now: () => sb.running.sandbox.context.clock.now(),
      onOrderStatus: async (change) => {
        await relay.record(change);
        told.push(change);
      },
      sweep: false,
    });
    open.push(handler);
    // The sandbox delivers through a pass-through that notes each answer the intake gave, with its Retry-After.
    const answers: { status: number; retryAfter: string | null; body: string }[] = [];
    const intake = await listenOnLoopback(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [string, string][]);
          void fetch(`${handler.url}/v1/webhooks`, { method: 'POST', headers, body: Buffer.concat(chunks) }).then(async (answer) => {
            const body = await answer.text();
            answers.push({ status: answer.status, retryAfter: answer.headers.get('retry-after'), body });
            response.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
          });
        });
      }),
    );
    open.push(intake);
    assert.equal((await sb.api('POST', '/sandbox/forward', { url: intake.url })).status, 200);
    const order = await created(handler.url);

    // Another session holds the outbox's table: each write waits past the outbox's 500 ms bound and fails.
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    closing.push(() => locker.end());
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    const first = await until('the first try answered', () => answers[0]);
    await locker.query('COMMIT');
    assert.equal(first.status, 503, first.body);
    assert.ok(Number(first.retryAfter) > 0, `Retry-After: ${first.retryAfter}`);
    const body = JSON.parse(first.body) as { api_code?: string; message?: string };
    assert.equal(body.api_code, 'SERVICE_UNAVAILABLE', first.body);
    assert.equal(typeof body.message, 'string');
    assert.match(String((body as { description?: string }).description), /store/);

    await until('the service delivered it again', () => answers.some((a) => a.status === 200));
    assert.deepEqual(answers.map((a) => a.status), [503, 200], 'never a 500');
    assert.equal(told.length, 1, 'told once the store answered');
    const kept = await relay.list({ states: ['pending'] });
    assert.deepEqual(kept.map((n) => [n.id_order, n.status, n.link]), [[order.id_order, 'confirmed', 'camiseta-m']], 'one notice in the outbox');
    await sb.api('DELETE', '/sandbox/forward');
  });
});
