/**
 * Two `pay-checkout serve` processes sharing one real Redis behind a round-robin proxy, as two instances behind a
 * load balancer: buyers pay and cancel through the proxy against the sandbox, and check their orders' status through
 * it, so both instances learn each outcome and both record it. The shop's notify endpoint (a real HTTP server) fails
 * each notice's first attempt, so the retry may fall to either instance. Each notice reaches it accepted once, by id.
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
import { roundRobinProxy } from '../harness/handler-cluster.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { freePort, startRedis, stopChild, type TestRedis } from './redis-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'src', 'cli.ts');
const appSecret = 'two-instances-share-this-app-secret';

let redis: TestRedis;
let sandbox: RunningSandbox;
let scratch: string;
let proxy: { url: string; close(): Promise<void> };
let trialEnv: Record<string, string>;
const instances: { child: ChildProcess; url: string; tail: () => string; recorded: { id: string; added: boolean }[] }[] = [];

/** What the shop's notify endpoint saw: every attempt, and the answer it gave. */
const attempts: { id: string; type: string; link: string; answered: number; signed: boolean }[] = [];
const shop = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const notice = JSON.parse(body) as { id: string; type: string; data: { link: string } };
    const signed = verifyPayCheckoutSignature({ header: request.headers['pay-checkout-signature'] as string, signedText: body, secrets: [appSecret] });
    // The first attempt at each notice fails: its retry is leased by whichever instance comes first.
    const answered = !signed ? 401 : attempts.some((a) => a.id === notice.id) ? 200 : 500;
    attempts.push({ id: notice.id, type: notice.type, link: notice.data.link, answered, signed });
    response.writeHead(answered).end();
  });
});

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 30_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`still waiting for ${what}; serve said:\n${instances.map((i) => i.tail()).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startInstance(env: Record<string, string>): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' } });
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const instance = { child, url: `http://127.0.0.1:${port}`, tail: () => tail, recorded: [] as { id: string; added: boolean }[] };
  // Its events, one JSON line each: `notice_recorded` says this instance learnt an outcome and wrote it to the outbox.
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const event = (() => {
        try {
          return JSON.parse(line) as { name?: string; id?: string; added?: boolean };
        } catch {
          return {};
        }
      })();
      if (event.name === 'notice_recorded') instance.recorded.push({ id: String(event.id), added: Boolean(event.added) });
    }
  });
  instances.push(instance);
  await until('serve to be ready', () => fetch(`${instance.url}/v1/health/ready`).then((r) => r.ok, () => false), 60_000);
}

before(async () => {
  shop.listen(0, '127.0.0.1');
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, defaultReceiver: false }), once(shop, 'listening')]);
  scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-two-serve-'));
  const links = path.join(scratch, 'links.json');
  writeFileSync(links, JSON.stringify({ camiseta: { amount: 20_000, description: 'Camiseta', store_name: 'Tienda Sol', currency: 'COP' } }));
  const env = {
    PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
    PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
    PAY_CHECKOUT_LINKS_FILE: links,
    PAY_CHECKOUT_APP_SECRET: appSecret,
    PAY_CHECKOUT_NOTIFY_URL: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`,
    PAY_CHECKOUT_NOTIFY_RETRY_MS: '200',
    PAY_CHECKOUT_REDIS_URL: redis.url,
    PAY_CHECKOUT_SECRET: 'order-tokens-signing-secret-shared-by-both',
    PAY_CHECKOUT_WEBHOOK_SECRET: 'whsec_test_demo',
  };
  trialEnv = env;
  await Promise.all([startInstance(env), startInstance(env)]);
  proxy = await roundRobinProxy(instances.map((i) => i.url));
});
after(async () => {
  await proxy?.close();
  await Promise.all(instances.map((i) => stopChild(i.child)));
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
  await sandbox?.close();
  await redis?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const buyerApi = async (method: string, route: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => {
  const response = await fetch(`${proxy.url}/v1/checkout/${route}`, {
    method,
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const json = (await response.json()) as { data: { id_order: number; order_token: string; status: string } };
  return { status: response.status, body: json.data ?? json };
};

describe('two serve instances sharing Redis behind a proxy', () => {
  it('relay each outcome to the shop once per event id, though both learn it and the first attempt fails', async () => {
    const orders: { id: number; token: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await buyerApi('POST', 'links/camiseta/orders', {
        headers: { 'idempotency-key': `two-serve-${i}` },
        body: { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: `${2_000_000 + i}`, id_type: 1, phone_number: `30012345${10 + i}` } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      orders.push({ id: created.body.id_order, token: created.body.order_token });
    }
    // Four buyers approve the push on the phone; two cancel on the page.
    for (const order of orders.slice(0, 4)) {
      const approved = await fetch(`${sandbox.url}/sandbox/orders/${order.id}/approve`, { method: 'POST' });
      assert.equal(approved.status, 200, await approved.text());
    }
    for (const order of orders.slice(4)) {
      const cancelled = await buyerApi('POST', `orders/${order.id}/cancel`, { headers: { 'x-order-token': order.token } });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    }
    // Each page checks its status a few times, through the proxy: both instances read each outcome.
    await Promise.all(
      orders.flatMap((order) => Array.from({ length: 4 }, () => buyerApi('GET', `orders/${order.id}`, { headers: { 'x-order-token': order.token } }))),
    );

    const accepted = () => attempts.filter((a) => a.answered === 200);
    await until('every notice accepted', () => new Set(accepted().map((a) => a.id)).size === 6);
    // Time for any second copy to arrive: several retry delays.
    await new Promise((r) => setTimeout(r, 1_500));

    assert.ok(attempts.every((a) => a.signed), 'every attempt carries a valid signature');
    const ids = accepted().map((a) => a.id);
    assert.equal(ids.length, new Set(ids).size, `a notice accepted twice: ${JSON.stringify(attempts)}`);
    assert.equal(ids.length, 6);
    assert.equal(attempts.length, 12, `one failed and one accepted attempt each: ${JSON.stringify(attempts)}`);
    assert.deepEqual(accepted().map((a) => a.type).sort(), ['order.cancelled', 'order.cancelled', 'order.paid', 'order.paid', 'order.paid', 'order.paid']);
    assert.ok(accepted().every((a) => a.link === 'camiseta'));
    // Both instances learnt every outcome and recorded it; the outbox kept one of the two.
    for (const id of ids) {
      const records = instances.map((i) => i.recorded.filter((r) => r.id === id));
      assert.deepEqual(records.map((r) => r.length), [1, 1], `${id} recorded by each instance once`);
      assert.equal(records.flat().filter((r) => r.added).length, 1, `${id} added to the outbox once`);
    }
  });

  it("serve --check --pay asks one instance what the other saw: the webhook taken by the first, the trial's reads at the second", async (t) => {
    const [first, second] = instances;
    assert.ok(first && second);
    const forward = await fetch(`${sandbox.url}/sandbox/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${first.url}/v1/webhooks` }) });
    assert.equal(forward.status, 200);
    const lines: string[] = [];
    t.mock.method(console, 'log', (line: string) => void lines.push(line));
    const status = await serveCommand(['--check', '--pay', '--wait-seconds', '10'], { ...trialEnv, PAY_CHECKOUT_PUBLIC_URL: second.url }, { probe: runDoctor });
    t.mock.restoreAll();
    assert.equal(status, 0, `${lines.join('\n')}\n${second.tail()}`);
    assert.match(lines.join('\n'), /^✓ webhook: the service's webhook for order \d+ reached this server and verified$/m);
    assert.match(lines.join('\n'), /^✓ notice: /m);
  });
});
