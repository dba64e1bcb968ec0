/**
 * `pay-checkout serve` follows every order it created until the order is final, so an outcome reaches the shop with
 * no webhook and no buyer: real serve processes (SIGKILLed, restarted), a real Redis, the real sandbox over sockets,
 * and the shop's notify endpoint a real HTTP server that checks each notice's signature. The sweep's first read is
 * shortened through its setting, so each case takes seconds.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { verifyPayCheckoutSignature } from '../../src/webhooks/index.js';
import { freePort, startRedis, stopChild, type TestRedis } from './redis-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'src', 'cli.ts');
const appSecret = 'sweep-test-app-secret-of-the-shop';
const webhookSecret = 'whsec_test_demo';

interface Notice {
  id: string;
  type: string;
  data: { link: string; id_order: number; amount: number; status: string };
}
/** What the shop's notify endpoint accepted: each signed notice, in order. */
const received: Notice[] = [];
const unsigned: string[] = [];
const shop = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    if (!verifyPayCheckoutSignature({ header: request.headers['pay-checkout-signature'] as string, signedText: body, secrets: [appSecret] })) {
      unsigned.push(body);
      return void response.writeHead(401).end();
    }
    received.push(JSON.parse(body) as Notice);
    response.writeHead(200).end();
  });
});

interface Instance {
  child: ChildProcess;
  url: string;
  events: { name?: string; id?: string; added?: boolean; found_by?: string; id_order?: number }[];
  tail: () => string;
}

let scratch: string;
let linksFile: string;
const running: Instance[] = [];

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 30_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`still waiting for ${what}; serve said:\n${running.map((i) => i.tail()).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A `pay-checkout serve` process with these settings over the common ones; resolves once it answers ready. */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PAY_CHECKOUT_LINKS_FILE: linksFile, PAY_CHECKOUT_APP_SECRET: appSecret, PAY_CHECKOUT_NOTIFY_URL: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`, PAY_CHECKOUT_NOTIFY_RETRY_MS: '200', PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_SECRET: 'order-tokens-signing-secret-for-sweeps', PAY_CHECKOUT_TRUST_PROXY: '1', ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  let tail = '';
  const instance: Instance = { child, url: `http://127.0.0.1:${port}`, events: [], tail: () => tail };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4_000);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        try {
          instance.events.push(JSON.parse(line) as Instance['events'][number]);
        } catch {
          // not an event line
        }
      }
    });
  }
  running.push(instance);
  await until('serve to be ready', () => fetch(`${instance.url}/v1/health/ready`).then((r) => r.ok, () => false), 60_000);
  return instance;
}

const stop = async (instance: Instance, signal: NodeJS.Signals = 'SIGTERM') => {
  await stopChild(instance.child, signal);
  running.splice(running.indexOf(instance), 1);
};

let keys = 0;
/** A buyer's create through serve, on `link`: the order's id (the buyer then leaves). */
async function createOrder(instance: Instance, link: string): Promise<number> {
  const response = await fetch(`${instance.url}/v1/checkout/links/${link}/orders`, {
    method: 'POST',
    // Each buyer from an address of their own (serve trusts one proxy here): 50 creates from one would meet its limit.
    headers: { 'content-type': 'application/json', 'idempotency-key': `sweep-${process.pid}-${(keys += 1)}`, 'x-forwarded-for': `10.0.${Math.floor(keys / 250)}.${keys % 250}` },
    body: JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: `${3_000_000 + keys}`, id_type: 1, phone_number: `3005${String(100_000 + keys * 10 + 1).slice(-6)}` } }),
  });
  const json = (await response.json()) as { data: { id_order: number } };
  assert.equal(response.status, 201, JSON.stringify(json));
  return json.data.id_order;
}

const control = async (sandbox: RunningSandbox, method: string, route: string, body?: unknown) => {
  const response = await fetch(`${sandbox.url}/sandbox${route}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  assert.ok(response.ok, `${method} ${route}: ${response.status} ${await response.clone().text()}`);
  return (await response.json()) as { data: unknown };
};

const noticesFor = (idOrder: number, link: string) => received.filter((n) => n.data.id_order === idOrder && n.data.link === link);

before(async () => {
  shop.listen(0, '127.0.0.1');
  await once(shop, 'listening');
  scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-sweep-'));
  linksFile = path.join(scratch, 'links.json');
  writeFileSync(
    linksFile,
    JSON.stringify({
      camiseta: { amount: 20_000, description: 'Camiseta', store_name: 'Tienda Sol', currency: 'COP' },
      gorra: { amount: 35_000, description: 'Gorra', store_name: 'Tienda Sol', currency: 'COP' },
    }),
  );
});
after(async () => {
  await Promise.all(running.map((i) => stopChild(i.child)));
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('serve follows its open orders until they are final (one instance on Redis)', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  before(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, defaultReceiver: false })]);
    env = { PAY_CHECKOUT_BASE_URL: sandbox.baseUrl, PAY_CHECKOUT_REDIS_URL: redis.url, PAY_CHECKOUT_WEBHOOK_SECRET: webhookSecret, PAY_CHECKOUT_SWEEP_FIRST_MS: '400' };
  });
  after(async () => {
    await Promise.all(running.map((i) => stop(i)));
    await sandbox?.close();
    await redis?.stop();
  });

  it('paid while serve was SIGKILLed, all three webhook tries refused, no buyer asking: one signed order.paid after the restart', async (t) => {
    const first = await startInstance(env);
    await control(sandbox, 'POST', '/forward', { url: `${first.url}/v1/webhooks` });
    const idOrder = await createOrder(first, 'camiseta');
    await stop(first, 'SIGKILL');

    await control(sandbox, 'POST', `/orders/${idOrder}/approve`);
    const paidAt = Date.now();
    // The service's three tries, about a second apart, all refused: serve is down.
    await until('the webhook given up', async () => {
      const { data } = (await control(sandbox, 'GET', '/deliveries')) as { data: { payload: { id_order?: number }; state: string; attempts: unknown[] }[] };
      const delivery = data.find((d) => d.payload.id_order === idOrder);
      return delivery && delivery.state === 'failed' && delivery.attempts.length === 3;
    });
    assert.equal(received.length, 0);

    const restartedAt = Date.now();
    const second = await startInstance(env);
    const [notice] = await until('the order.paid notice', () => noticesFor(idOrder, 'camiseta').length > 0 && noticesFor(idOrder, 'camiseta'));
    t.diagnostic(`paid → shop told: ${Date.now() - paidAt} ms (webhook tries ${restartedAt - paidAt} ms, serve restart to notice ${Date.now() - restartedAt} ms)`);
    assert.equal(notice!.type, 'order.paid');
    assert.equal(notice!.data.amount, 20_000);
    // Time for a second copy to show up, were there one.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(noticesFor(idOrder, 'camiseta').length, 1, JSON.stringify(received));
    assert.deepEqual(unsigned, []);
    assert.ok(second.events.some((e) => e.name === 'notice_recorded' && e.added === true && e.found_by === 'sweep' && e.id === notice!.id), 'serve says the sweep alone found it');
    await control(sandbox, 'DELETE', '/forward');
  });

  it('with the sandbox forwarding no webhook at all, an order paid with the buyer gone reaches the shop as order.paid', async () => {
    const instance = running[0] ?? (await startInstance(env));
    const idOrder = await createOrder(instance, 'gorra');
    await control(sandbox, 'POST', `/orders/${idOrder}/approve`);
    const [notice] = await until('the order.paid notice', () => noticesFor(idOrder, 'gorra').length > 0 && noticesFor(idOrder, 'gorra'));
    assert.equal(notice!.type, 'order.paid');
    assert.equal(notice!.data.amount, 35_000);
  });

  it('an order that expires unpaid, with no webhook and no buyer, reaches the shop as order.failed', async () => {
    const instance = running[0] ?? (await startInstance(env));
    const idOrder = await createOrder(instance, 'camiseta');
    await control(sandbox, 'POST', `/orders/${idOrder}/expire`);
    const [notice] = await until('the order.failed notice', () => noticesFor(idOrder, 'camiseta').length > 0 && noticesFor(idOrder, 'camiseta'));
    assert.equal(notice!.type, 'order.failed');
    assert.equal(notice!.data.status, 'cancelled');
  });

  it("after the service's ids start again from 1, a new order paid on another cart is that cart's order.paid: not dropped as a duplicate, not sent for the old cart", async () => {
    const instance = running[0] ?? (await startInstance(env));
    await control(sandbox, 'POST', '/reset');
    const before = await createOrder(instance, 'camiseta');
    assert.equal(before, 1);
    await control(sandbox, 'POST', `/orders/${before}/approve`);
    const [old] = await until('the first order 1 paid', () => noticesFor(1, 'camiseta').length > 0 && noticesFor(1, 'camiseta'));

    await control(sandbox, 'POST', '/reset');
    const again = await createOrder(instance, 'gorra');
    assert.equal(again, 1, 'the service handed out order 1 again');
    await control(sandbox, 'POST', `/orders/${again}/approve`);
    const [fresh] = await until("the new order 1 paid, on the other cart", () => noticesFor(1, 'gorra').length > 0 && noticesFor(1, 'gorra'));
    assert.equal(fresh!.type, 'order.paid');
    assert.equal(fresh!.data.amount, 35_000);
    assert.notEqual(fresh!.id, old!.id, 'another order, another event id');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(noticesFor(1, 'camiseta').length, 1, 'the old cart is not told again');
    assert.equal(noticesFor(1, 'gorra').length, 1);
  });
});

/** A pass-through to the sandbox in front of one instance, noting when each of its `GET /orders/{id}` began and ended. */
async function recordingProxy(target: string, instance: number, reads: { instance: number; id: number; start: number; end: number }[]) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const read = request.method === 'GET' ? /^\/v1\/orders\/(\d+)$/.exec(request.url ?? '') : null;
      const start = performance.now();
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [string, string][]);
      void fetch(`${target}${request.url}`, { method: request.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(
        async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          if (read) reads.push({ instance, id: Number(read[1]), start, end: performance.now() });
          response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
        },
        () => response.writeHead(502).end(),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

describe('three serve instances on one Redis follow 50 open orders', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  const proxies: { url: string; close(): Promise<unknown> }[] = [];
  const reads: { instance: number; id: number; start: number; end: number }[] = [];
  // Reads 300 ms, 0.6 s, 1.2 s … apart: eight of them span 38 s, so a busy machine's slow creation of the 50 orders
  // (the approvals come after the last one) does not spend an order's budget before its buyer approves.
  const maxReads = 8;
  before(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, defaultReceiver: false })]);
    for (let i = 0; i < 3; i++) proxies.push(await recordingProxy(sandbox.url, i, reads));
  });
  after(async () => {
    await Promise.all(running.map((i) => stop(i)));
    await Promise.all(proxies.map((p) => p.close()));
    await sandbox?.close();
    await redis?.stop();
  });

  it('each order is read within its budget, never by two instances at once, and every outcome reaches the shop once', async (t) => {
    const instances = await Promise.all(
      proxies.map((proxy) => startInstance({ PAY_CHECKOUT_BASE_URL: `${proxy.url}/v1`, PAY_CHECKOUT_REDIS_URL: redis.url, PAY_CHECKOUT_SWEEP_FIRST_MS: '300', PAY_CHECKOUT_SWEEP_READS: String(maxReads), PAY_CHECKOUT_SWEEP_RATE: '20' })),
    );
    // This sandbox's order ids start at 1 again: only the notices from here on are this test's.
    const from = received.length;
    const mine = () => received.slice(from);
    const orders: number[] = [];
    for (let i = 0; i < 50; i++) orders.push(await createOrder(instances[i % 3]!, 'camiseta'));
    // Thirty buyers approve on the phone and leave; twenty orders run out of time. No webhook, no buyer's page.
    for (const id of orders.slice(0, 30)) await control(sandbox, 'POST', `/orders/${id}/approve`);
    for (const id of orders.slice(30)) await control(sandbox, 'POST', `/orders/${id}/expire`);
    const told = () => new Set(mine().filter((n) => orders.includes(n.data.id_order)).map((n) => n.data.id_order));
    await until('every outcome told', () => told().size === 50, 120_000);
    await new Promise((r) => setTimeout(r, 1_500));

    // This test's orders only: a notice of an earlier test's order 1..N (its ids started at 1 too) is not one of these.
    const delivered = mine().filter((n) => orders.includes(n.data.id_order));
    const ours = [...new Map(delivered.map((n) => [n.id, n])).values()];
    assert.equal(ours.length, 50, 'one notice each');
    assert.equal(new Set(ours.map((n) => n.data.id_order)).size, 50, 'one event id per order');
    // Delivery is at least once, never twice as a success: the relay settles each notice delivered once, and a copy
    // the shop gets beyond the first follows a try the relay saw fail (no 2xx within its timeout), sent again with the
    // same event id, which the shop keeps once (any-stack.md, "Notices").
    const relayEvents = instances.flatMap((instance) => instance.events);
    let again = 0;
    for (const notice of ours) {
      const copies = delivered.filter((n) => n.id === notice.id).length;
      const settled = relayEvents.filter((e) => e.name === 'notice_delivered' && e.id === notice.id).length;
      const failedTries = relayEvents.filter((e) => e.name === 'notice_delivery_failed' && e.id === notice.id).length;
      assert.equal(settled, 1, `notice ${notice.id} delivered once by the relay, ${settled} times: ${JSON.stringify(relayEvents.filter((e) => e.id === notice.id))}`);
      assert.ok(copies <= 1 + failedTries, `notice ${notice.id}: ${copies} copies at the shop after ${failedTries} failed tries: ${JSON.stringify(relayEvents.filter((e) => e.id === notice.id))}`);
      again += copies - 1;
    }
    t.diagnostic(`${delivered.length} deliveries of ${ours.length} notices; ${again} sent again after a try that failed at the relay`);
    assert.equal(ours.filter((n) => n.type === 'order.paid').length, 30);
    assert.equal(ours.filter((n) => n.type === 'order.failed').length, 20);
    for (const id of orders) {
      const mine = reads.filter((r) => r.id === id).sort((a, b) => a.start - b.start);
      assert.ok(mine.length >= 1 && mine.length <= maxReads, `order ${id} read ${mine.length} times`);
      for (let i = 1; i < mine.length; i++) assert.ok(mine[i]!.start >= mine[i - 1]!.end, `order ${id} read twice at once: ${JSON.stringify(mine)}`);
    }
    const byInstance = [0, 1, 2].map((i) => reads.filter((r) => r.instance === i).length);
    t.diagnostic(`${reads.length} reads of 50 orders (at most ${Math.max(...orders.map((id) => reads.filter((r) => r.id === id).length))} of one), by instance ${byInstance.join(', ')}`);
    assert.ok(byInstance.filter((n) => n > 0).length >= 2, `the reads shared among the instances: ${byInstance.join(', ')}`);
  });
});
