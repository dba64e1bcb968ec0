/**
 * `pay-checkout serve --check --pay` against the sandbox in its live dialect (the development environment's
 * conventions), over real sockets: two real `serve` processes (one with the account's webhook secret, one with
 * another) and a little shop of the test's own (its links URL and notify URL, each checking the signature). Every
 * secret right: exit 0, and the shop has one signed notice naming the probe's order. A wrong webhook secret, webhooks
 * forwarded nowhere, a shop refusing the notice: exit 1 with the sentence naming the setting. Production, or a
 * service that is neither the development environment nor a sandbox: exit 2 with no network call. Each run that
 * pays leaves exactly one new order at the sandbox.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, beforeEach, describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runDoctor } from '../../src/doctor/doctor.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';
import { trialTarget } from '../../src/server/serve/trial.js';
import { trialHeader, trialSignedText } from '../../src/server/serve/trial-desk.js';
import { signPayCheckout, verifyPayCheckoutSignature } from '../../src/webhooks/pay-checkout-signature.js';
import { freePort, stopChild } from './redis-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'src', 'cli.ts');
const appSecret = 'trial-app-secret-shared-with-shop';
const accountSecret = 'whsec_test_demo';

/** The shop: answers its links (the probe link only while `shop.linkCheck`), and keeps every notice it is sent. */
const shop = { linkCheck: true, notifySecret: appSecret, notices: [] as { id_order: number; type: string; signed: boolean; answered: number }[] };
const read = async (request: IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
};
const shopServer = createServer((request, response) => {
  void (async () => {
    const body = await read(request);
    const header = request.headers['pay-checkout-signature'] as string | undefined;
    if (request.method === 'GET' && request.url?.startsWith('/pay-links/')) {
      if (!verifyPayCheckoutSignature({ header, signedText: `GET ${request.url}`, secrets: [appSecret] })) return void response.writeHead(401).end();
      if (request.url !== '/pay-links/pay-checkout-check' || !shop.linkCheck) return void response.writeHead(404).end();
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ description: 'Prueba de la tienda', store_name: 'Tienda Demo' }));
    }
    const signed = verifyPayCheckoutSignature({ header, signedText: body, secrets: [shop.notifySecret] });
    const notice = JSON.parse(body) as { type: string; data: { id_order: number } };
    shop.notices.push({ id_order: notice.data.id_order, type: notice.type, signed, answered: signed ? 200 : 401 });
    response.writeHead(signed ? 200 : 401).end();
  })();
});

let sandbox: RunningSandbox;
let shopUrl: string;
const serves: { right: { url: string; child: ChildProcess }; wrong: { url: string; child: ChildProcess } } = {} as never;

async function startServe(webhookSecret: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...serveEnv(webhookSecret), PORT: String(port), HOST: '127.0.0.1' } });
  child.stdout?.resume();
  child.stderr?.resume();
  const url = `http://127.0.0.1:${port}`;
  for (const end = Date.now() + 60_000; !(await fetch(`${url}/v1/health`).then((r) => r.ok, () => false)); ) {
    if (Date.now() > end || child.exitCode !== null) throw new Error('serve did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child };
}

const serveEnv = (webhookSecret: string): Record<string, string> => ({
  PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
  PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
  PAY_CHECKOUT_LINKS_URL: `${shopUrl}/pay-links/{hash}`,
  PAY_CHECKOUT_NOTIFY_URL: `${shopUrl}/notify`,
  PAY_CHECKOUT_NOTIFY_RETRY_MS: '60000',
  PAY_CHECKOUT_APP_SECRET: appSecret,
  PAY_CHECKOUT_WEBHOOK_SECRET: webhookSecret,
});

before(async () => {
  shopServer.listen(0, '127.0.0.1');
  [sandbox] = await Promise.all([startSandbox({ port: 0, dialect: 'live', defaultReceiver: false, guard: { allowedForwards: 'loopback' } }), once(shopServer, 'listening')]);
  shopUrl = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
  [serves.right, serves.wrong] = await Promise.all([startServe(accountSecret), startServe('whsec_not_the_accounts_secret')]);
});
after(async () => {
  await Promise.all(Object.values(serves).map((s) => stopChild(s.child)));
  shopServer.closeAllConnections();
  await new Promise((r) => shopServer.close(r));
  await sandbox?.close();
});

/** The trial as the command runs it, in this process: its exit status and its lines. */
async function trial(t: TestContext, env: Record<string, string>, waitSeconds = 3): Promise<{ status: number | undefined; out: string; lines: string[] }> {
  const lines: string[] = [];
  t.mock.method(console, 'log', (line: string) => void lines.push(line));
  t.mock.method(console, 'error', (line: string) => void lines.push(line));
  const status = await serveCommand(['--check', '--pay', '--wait-seconds', String(waitSeconds)], env, { probe: runDoctor });
  t.mock.restoreAll();
  return { status, out: lines.join('\n'), lines };
}

const forwardTo = async (url: string | null) => {
  await fetch(`${sandbox.url}/sandbox/forward`, { method: 'DELETE' });
  if (url) assert.equal((await fetch(`${sandbox.url}/sandbox/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) })).status, 200);
};
const envOf = (serve: { url: string }, webhookSecret: string) => ({ ...serveEnv(webhookSecret), PORT: new URL(serve.url).port, HOST: '127.0.0.1' });
const orderCount = () => sandbox.sandbox.state.orders.size;
const probeOrder = (out: string) => Number(/✓ order: order (\d+) created/.exec(out)?.[1]);

describe('serve --check --pay against the sandbox in the live dialect', () => {
  beforeEach(() => {
    shop.linkCheck = true;
    shop.notifySecret = appSecret;
  });

  it("every secret right: one line per step naming the order, exit 0, and the shop's one signed notice names it", async (t) => {
    await forwardTo(`${serves.right.url}/v1/webhooks`);
    const before = orderCount();
    const { status, out, lines } = await trial(t, envOf(serves.right, accountSecret));
    assert.equal(status, 0, out);
    assert.equal(orderCount(), before + 1);
    const id = probeOrder(out);
    assert.match(out, new RegExp(`^✓ order: order ${id} created for 1\\.000 COP with Daviplata, through the shop's link \\(pay-checkout-check\\)$`, 'm'));
    for (const step of ['code', 'confirmed', 'webhook', 'notice']) assert.match(out, new RegExp(`^✓ ${step}: .*order ${id}\\b`, 'm'), step);
    assert.equal(lines.length, 6, out);
    // Learnt twice (the trial's own read back, the webhook), noticed once.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(shop.notices.filter((n) => n.id_order === id), [{ id_order: id, type: 'order.paid', signed: true, answered: 200 }]);
  });

  it("a webhook secret that is not the account's: exit 1, naming PAY_CHECKOUT_WEBHOOK_SECRET; the probe link is serve's own where the shop has none", async (t) => {
    shop.linkCheck = false;
    await forwardTo(`${serves.wrong.url}/v1/webhooks`);
    const before = orderCount();
    const { status, out } = await trial(t, envOf(serves.wrong, 'whsec_not_the_accounts_secret'));
    assert.equal(status, 1, out);
    assert.equal(orderCount(), before + 1);
    const id = probeOrder(out);
    assert.match(out, /through serve's own probe link, as the shop has none/);
    assert.match(out, new RegExp(`^✗ webhook: .*order ${id}.*refused \\(invalid_signature\\)$`, 'm'));
    assert.match(out, new RegExp(`^PAY_CHECKOUT_WEBHOOK_SECRET is not the account's webhook secret: the webhook for order ${id} failed its signature`, 'm'));
    // The shop still heard of the payment: serve learnt it from the trial's own read back.
    assert.match(out, /^✓ notice: /m);
  });

  it("webhooks forwarded nowhere: exit 1 after the wait, naming the URL the account's webhook must be", async (t) => {
    await forwardTo(null);
    const before = orderCount();
    const { status, out } = await trial(t, envOf(serves.right, accountSecret));
    assert.equal(status, 1, out);
    assert.equal(orderCount(), before + 1);
    const id = probeOrder(out);
    assert.match(out, new RegExp(`^No webhook for order ${id} reached this server within 3 s: the account's webhook URL for development must be ${serves.right.url}/v1/webhooks \\(on the sandbox: POST ${sandbox.url}/sandbox/forward`, 'm'));
  });

  it('a shop that refuses the notice (its secret differs): exit 1, naming PAY_CHECKOUT_APP_SECRET', async (t) => {
    shop.notifySecret = 'the-shop-holds-another-secret';
    await forwardTo(`${serves.right.url}/v1/webhooks`);
    const before = orderCount();
    const { status, out } = await trial(t, envOf(serves.right, accountSecret));
    assert.equal(status, 1, out);
    assert.equal(orderCount(), before + 1);
    const id = probeOrder(out);
    assert.match(out, /^✓ webhook: /m);
    assert.match(out, new RegExp(`^The shop answered 401 to the signed notice for order ${id}: PAY_CHECKOUT_APP_SECRET differs from the secret the shop verifies with\\.$`, 'm'));
  });

  it("opens nothing to anyone else: unsigned, or signed with another secret, the trial's path is the 404 of any unknown path and the probe link is the shop's 404", async () => {
    shop.linkCheck = false;
    const signedWith = (secret: string, path: string) => ({ [trialHeader]: signPayCheckout([secret], trialSignedText('GET', path)) });
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${serves.right.url}${path}`, { headers });
      return { status: response.status, body: (await response.json()) as { api_code?: string; data?: { store_name?: string; webhooks?: unknown[] } } };
    };
    const trialPath = '/v1/trial/orders/1';
    const linkPath = '/v1/checkout/links/pay-checkout-check';
    const unknown = await get('/v1/nothing-here');
    for (const headers of [{}, signedWith('not-a-secret-of-this-server', trialPath), signedWith(appSecret, '/v1/trial/orders/2')]) {
      const answer = await get(trialPath, headers);
      assert.deepEqual([answer.status, answer.body.api_code], [unknown.status, unknown.body.api_code]);
    }
    for (const headers of [{}, signedWith('not-a-secret-of-this-server', linkPath)]) {
      const answer = await get(linkPath, headers);
      assert.deepEqual([answer.status, answer.body.api_code], [404, 'LINK_NOT_FOUND']);
    }
    // The operator's secrets open both: the app secret, or the webhook secret.
    assert.ok(Array.isArray((await get(trialPath, signedWith(appSecret, trialPath))).body.data?.webhooks));
    assert.equal((await get(linkPath, signedWith(accountSecret, linkPath))).body.data?.store_name, 'pay-checkout check');
  });

  it("a create that breaks midway (the service made the order, its answer was lost): the trial's retries keep to that one order, exit 1", async (t) => {
    await forwardTo(`${serves.right.url}/v1/webhooks`);
    const fault = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/v1/orders', method: 'POST', mode: 'missing_field', field: 'result.id_order', count: 5 }) });
    assert.equal(fault.status, 200);
    const before = orderCount();
    try {
      const { status, out } = await trial(t, envOf(serves.right, accountSecret), 1);
      assert.equal(status, 1, out);
      assert.match(out, /^✗ order: the order was refused \(409 IDEMPOTENCY_KEY_IN_USE/m);
      assert.match(out, /^The service did not confirm the probe order's creation within 1 s .*: at most one order was made/m);
    } finally {
      await fetch(`${sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    assert.equal(orderCount(), before + 1);
  });
});

describe('serve --check --pay never pays real money', () => {
  /** A listener standing for every URL of the settings: each connection to it is a network call. */
  let listener: ReturnType<typeof createServer>;
  let connections = 0;
  let listenerUrl: string;
  before(async () => {
    listener = createServer((_request, response) => response.writeHead(404).end());
    listener.on('connection', () => void connections++);
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  after(async () => {
    listener.closeAllConnections();
    await new Promise((r) => listener.close(r));
  });

  const elsewhere = () => ({
    PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
    PAY_CHECKOUT_LINKS_URL: `${listenerUrl}/pay-links/{hash}`,
    PAY_CHECKOUT_NOTIFY_URL: `${listenerUrl}/notify`,
    PAY_CHECKOUT_APP_SECRET: appSecret,
    PAY_CHECKOUT_WEBHOOK_SECRET: accountSecret,
    PAY_CHECKOUT_PUBLIC_URL: listenerUrl,
  });

  it('in production, against the production URL, with a live key, or a service that is no sandbox: one line, exit 2, no call at all', async (t) => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PAY_CHECKOUT_ENVIRONMENT: 'production' }, /^--pay refused: PAY_CHECKOUT_ENVIRONMENT is production/],
      [{}, /^--pay refused: PAY_CHECKOUT_ENVIRONMENT is production \(unset, it means production\)/],
      [{ PAY_CHECKOUT_BASE_URL: 'https://api.wava.co/v1' }, /^--pay refused: PAY_CHECKOUT_BASE_URL is the production service/],
      [{ PAY_CHECKOUT_ENVIRONMENT: 'development', PAY_CHECKOUT_MERCHANT_KEY: 'mk_live_0123456789' }, /^--pay refused: PAY_CHECKOUT_MERCHANT_KEY is a live key/],
      [{ PAY_CHECKOUT_BASE_URL: 'https://payments.example.com/v1' }, /^--pay refused: PAY_CHECKOUT_BASE_URL \(https:\/\/payments\.example\.com\) is neither the development environment/],
    ];
    for (const [env, sentence] of cases) {
      const fetches = t.mock.method(globalThis, 'fetch');
      const { status, lines } = await trial(t, { ...elsewhere(), ...env });
      assert.equal(status, 2, lines.join('\n'));
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0] ?? '', sentence);
      assert.match(lines[0] ?? '', /Nothing was sent\.$/);
      assert.equal(fetches.mock.callCount(), 0);
    }
    assert.equal(connections, 0);
  });

  it('asks only a host a sandbox can run at (loopback, private, a container name, a local name), and refuses any other by its URL alone', () => {
    const kindOf = (baseUrl: string, merchantKey = 'mk_test_demo') => {
      const parsed = parseServeCommandSettings(rawSettings({ ...elsewhere(), PAY_CHECKOUT_MERCHANT_KEY: merchantKey, PAY_CHECKOUT_BASE_URL: baseUrl }));
      return trialTarget(parsed).kind;
    };
    for (const url of ['http://127.0.0.1:4010/v1', 'http://localhost:4010/v1', 'http://[::1]:4010/v1', 'http://10.1.2.3/v1', 'http://192.168.0.9:4010/v1', 'http://172.20.0.4/v1', 'http://sandbox:4010/v1', 'http://pay.internal/v1', 'http://box.local/v1']) {
      assert.equal(kindOf(url), 'sandbox', url);
    }
    for (const url of ['https://payments.example.com/v1', 'http://172.32.0.1/v1', 'http://8.8.8.8/v1', 'https://api.wava.co/v1']) assert.equal(kindOf(url), 'refused', url);
    assert.equal(kindOf('https://api.dev.wava.co/v1'), 'development');
    assert.equal(kindOf('https://api.dev.wava.co/v1', 'mk_live_abc'), 'refused');
    assert.equal(kindOf('http://127.0.0.1:4010/v1', 'mk_live_abc'), 'refused');
  });

  it('a service on this machine that does not say it is a sandbox: one read, then exit 2, and no order anywhere', async (t) => {
    const requests: string[] = [];
    const record = (request: IncomingMessage) => void requests.push(`${request.method} ${request.url}`);
    listener.on('request', record);
    try {
      const { status, lines } = await trial(t, { ...elsewhere(), PAY_CHECKOUT_BASE_URL: `${listenerUrl}/v1` });
      assert.equal(status, 2, lines.join('\n'));
      assert.match(lines.join('\n'), /^--pay refused: http:\/\/127\.0\.0\.1:\d+\/v1 does not say it is a sandbox \(its answer has no Pay-Checkout-Sandbox header\)/);
      assert.deepEqual(requests, ['GET /v1/orders/paymentGateways']);
    } finally {
      listener.off('request', record);
    }
  });
});
