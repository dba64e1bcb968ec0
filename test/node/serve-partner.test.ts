/**
 * `pay-checkout serve` in partner mode, as a process, on a real Redis, against the sandbox: shops register, connect
 * through connect_url and the sandbox's onboarding page (store_onboarded forwarded to serve's /v1/webhooks, signed
 * with the partner's secret), make links by call and are paid; each hears only of its own orders. Then: isolation
 * between shops' keys, the raw Redis data holding no key in clear, a disconnection, a SIGKILL and restart, and a key
 * rotation from "1" to "2,1" to "2".
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { runStores } from '../../src/server/serve/partner/stores-command.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { startServeCommand as startServeInProcess } from '../../src/server/serve/index.js';
import { buildOpenApiDocument, routes } from '../../src/openapi/index.js';
import { startPartnerServe, type PartnerServe, type Shop as HarnessShop } from '../harness/partner-serve.js';
import { openApiChecker } from './openapi-checker.js';
import { freePort, startRedis, stopChild, type TestRedis } from './redis-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'src', 'cli.ts');
const key1 = randomBytes(32).toString('base64');
const key2 = randomBytes(32).toString('base64');

let redis: TestRedis;
let h: PartnerServe;
let port: number;
let serve: { child: ChildProcess; tail: () => string } | undefined;
const base = () => `http://127.0.0.1:${port}`;

const until = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 20_000) =>
  h.until(what, check, limitMs).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; serve said:\n${serve?.tail() ?? ''}`);
  });

async function startServe(keys: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...h.env({ PAY_CHECKOUT_KEYS: keys, PORT: String(port), PAY_CHECKOUT_NOTIFY_RETRY_MS: '100' }) } });
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-6_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  serve = { child, tail: () => tail };
  await until('serve to be ready', () => fetch(`${base()}/v1/health/ready`).then((r) => r.ok, () => false), 60_000);
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** Every answer of the shop API is checked against the generated OpenAPI document. */
const document = openApiChecker(buildOpenApiDocument());
const undocumented: string[] = [];
const checkedOperations = new Set<string>();
const checkAnswer = (method: string, route: string, status: number, json: Json) => {
  if (!route.startsWith('/v1/stores')) return;
  const checked = document.response(method, route.slice('/v1'.length), status, json);
  checkedOperations.add(checked.operation);
  undocumented.push(...checked.errors.map((error) => `${checked.operation}: ${error}`));
};
const api: PartnerServe['api'] = (method, route, options) => h.api(method, route, options);

type Shop = Omit<HarnessShop, 'status'> & { merchantKey: string; idStore: number; hash?: string };
const shops: Record<string, Shop> = {};

/** Registers a shop and connects it as a merchant would: connect_url, the onboarding page, its form. */
async function registerAndConnect(name: string): Promise<Shop> {
  return (shops[name] = await h.connectThroughOnboarding(name));
}

async function makeLink(shop: Shop, reference: string, amount = 30_000): Promise<string> {
  const made = await api('POST', '/v1/stores/me/links', { key: shop.apiKey, body: { description: `Pedido ${reference}`, reference, amount } });
  assert.equal(made.status, 201, JSON.stringify(made.json));
  assert.equal(made.json.data.url, `${base()}/checkout/${made.json.data.hash}`);
  return made.json.data.hash as string;
}

const buy = (hash: string) => h.buy(hash);

/** A shop sells: it makes a new link, and a buyer's order on it is created. */
async function sells(shop: Shop): Promise<void> {
  const order = await buy(await makeLink(shop, `cart-${shop.name}-${Date.now()}`));
  assert.equal(order.status, 201, `${shop.name}: ${JSON.stringify(order.json)}`);
}

before(async () => {
  [redis, port] = await Promise.all([startRedis(), freePort()]);
  h = await startPartnerServe({ store: { redisUrl: redis.url }, serve: false, onAnswer: checkAnswer });
  h.at(base());
  await h.forward();
  await startServe(key1);
});

after(async () => {
  if (serve) await stopChild(serve.child);
  // Checked here, after every call: each answer of the shop API matched the document.
  assert.deepEqual(undocumented, []);
  for (const route of routes.filter((r) => r.tag === 'Shop' && !r.redirect)) {
    const operation = `${route.method.toUpperCase()} ${route.path} ${String(route.success[0])}`;
    assert.ok(checkedOperations.has(operation), `not exercised: ${operation}`);
  }
  await h?.close();
  await redis?.stop();
});

describe('pay-checkout serve in partner mode', () => {
  it('connects two shops through the onboarding page and tells each only of its own paid order', async () => {
    const [a, b] = [await registerAndConnect('a'), await registerAndConnect('b')];
    a.hash = await makeLink(a, 'cart-a-1');
    b.hash = await makeLink(b, 'cart-b-1');
    const link = await api('GET', `/v1/checkout/links/${encodeURIComponent(a.hash)}`);
    assert.equal(link.status, 200, JSON.stringify(link.json));
    assert.equal(link.json.data.store_name, 'a');
    assert.equal(link.json.data.amount, 30_000);
    const order = await buy(a.hash);
    assert.equal(order.status, 201, JSON.stringify(order.json));
    const approved = await fetch(`${h.sandbox.url}/sandbox/orders/${order.json.data.id_order}/approve`, { method: 'POST' });
    assert.equal(approved.status, 200, await approved.text());
    const paid = await until('a notice of the paid order', () => h.noticesOf('a').find((n) => n.type === 'order.paid'));
    assert.equal(paid.signed, true);
    assert.equal(paid.data.store_id, a.storeId);
    assert.equal(paid.data.reference, 'cart-a-1');
    assert.equal(paid.data.id_order, order.json.data.id_order);
    assert.equal(paid.data.link, a.hash);
    // The partner webhook named A's order: B heard of its own connection, nothing of A's.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(h.noticesOf('b').map((n) => n.type), ['store.connected']);
    assert.ok(h.noticesOf('a').every((n) => n.signed && n.data.store_id === a.storeId));
    // The paid link answers as paid; the shop reads its order back.
    const mine = await api('GET', `/v1/stores/me/orders/${order.json.data.id_order}`, { key: a.apiKey });
    assert.equal(mine.status, 200, JSON.stringify(mine.json));
    assert.deepEqual([mine.json.data.status, mine.json.data.reference, mine.json.data.link], ['confirmed', 'cart-a-1', a.hash]);
  });

  it("keeps each shop's key to its own shop: no reading another's order, a made-up or missing key is 401", async () => {
    const { a, b } = shops as { a: Shop; b: Shop };
    const ordered = await buy(a.hash as string);
    assert.equal(ordered.status, 201);
    const theirs = await api('GET', `/v1/stores/me/orders/${ordered.json.data.id_order}`, { key: b.apiKey });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.json.api_code, 'ORDER_NOT_FOUND');
    // What B creates is B's: its link shows B's name, and its orders are B's.
    const hash = await makeLink(b, 'cart-b-2', 12_000);
    assert.equal((await api('GET', `/v1/checkout/links/${encodeURIComponent(hash)}`)).json.data.store_name, 'b');
    const madeUp = await api('GET', '/v1/stores/me', { key: `pcs_${randomBytes(32).toString('base64url')}` });
    assert.equal(madeUp.status, 401);
    assert.equal(madeUp.json.api_code, 'INVALID_STORE_API_KEY');
    assert.equal((await api('POST', '/v1/stores/me/links', { body: { description: 'x', reference: 'y' } })).status, 401);
    // Idempotency-Key: the same link again; another body, 409.
    const once1 = await api('POST', '/v1/stores/me/links', { key: b.apiKey, headers: { 'idempotency-key': 'cart-b-3' }, body: { description: 'Pedido 3', reference: 'cart-b-3', amount: 9_000 } });
    const once2 = await api('POST', '/v1/stores/me/links', { key: b.apiKey, headers: { 'idempotency-key': 'cart-b-3' }, body: { description: 'Pedido 3', reference: 'cart-b-3', amount: 9_000 } });
    assert.equal(once1.status, 201);
    assert.deepEqual(once2.json.data, once1.json.data);
    const other = await api('POST', '/v1/stores/me/links', { key: b.apiKey, headers: { 'idempotency-key': 'cart-b-3' }, body: { description: 'Pedido 3', reference: 'cart-b-3', amount: 9_500 } });
    assert.equal(other.json.api_code, 'IDEMPOTENCY_KEY_REUSED');
  });

  it("delays no shop's notices while another shop's endpoint hangs", async () => {
    h.hang('hang');
    const hang: Shop = (shops.hang = await h.connectedShop('hang'));
    hang.hash = await makeLink(hang, 'cart-hang-1');
    for (let i = 0; i < 3; i++) {
      const order = await buy(hang.hash);
      assert.equal(order.status, 201, JSON.stringify(order.json));
      await fetch(`${h.sandbox.url}/sandbox/orders/${order.json.data.id_order}/approve`, { method: 'POST' });
    }
    await until('the hanging shop to be sent its notices', () => h.noticesOf('hang').length >= 2);
    const { b } = shops as { b: Shop };
    const order = await buy(b.hash as string);
    await fetch(`${h.sandbox.url}/sandbox/orders/${order.json.data.id_order}/approve`, { method: 'POST' });
    const started = Date.now();
    // An attempt runs 10 s before it times out: B's notice does not wait for those.
    await until("b's notice", () => h.noticesOf('b').some((n) => n.data.id_order === order.json.data.id_order), 5_000);
    assert.ok(Date.now() - started < 5_000);
  });

  it('keeps no merchant key, API key or notify secret in clear in Redis after three shops connect', async () => {
    // A third shop brings its own merchant key: checked with one call to the service, connected at once.
    const c: Shop = (shops.c = await h.connectedShop('c'));
    c.hash = await makeLink(c, 'cart-c-1');
    const refused = await api('POST', '/v1/stores', { body: { name: 'd', notify_url: h.notifyUrl('d'), merchant_key: 'mk_test_not_a_key' } });
    assert.equal(refused.json.api_code, 'MERCHANT_KEY_NOT_ACCEPTED');

    const client = createClient({ url: redis.url });
    await client.connect();
    let dump = '';
    try {
      for (const name of await client.keys('*')) {
        const type = await client.type(name);
        const value =
          type === 'string' ? await client.get(name) : type === 'hash' ? await client.hGetAll(name) : type === 'zset' ? await client.zRange(name, 0, -1) : type === 'set' ? await client.sMembers(name) : type === 'list' ? await client.lRange(name, 0, -1) : '';
        dump += `${name} ${JSON.stringify(value)}\n`;
      }
    } finally {
      await client.quit();
    }
    assert.ok(dump.includes(shops.a!.storeId) && dump.includes(c.storeId), 'the dump holds the shops');
    for (const shop of Object.values(shops)) {
      assert.ok(shop.merchantKey.startsWith('mk_test_'), `${shop.name}'s merchant key is known to the test`);
      for (const secret of [shop.merchantKey, shop.apiKey, shop.notifySecret]) assert.ok(!dump.includes(secret), `${shop.name}: a secret in clear in Redis`);
    }
  });

  it('disconnects a shop on integration_uninstalled: its link and link creation refused, one store.disconnected', async () => {
    const { a } = shops as { a: Shop };
    const removed = await fetch(`${h.sandbox.baseUrl}/partners/stores/${a.idStore}`, { method: 'DELETE', headers: { 'x-api-key': 'pk_test_demo', 'x-api-secret': 'sk_test_demo' } });
    assert.equal(removed.status, 200, await removed.text());
    await until('a disconnected', async () => (await api('GET', '/v1/stores/me', { key: a.apiKey })).json.data?.status === 'disconnected');
    await until('store.disconnected', () => h.noticesOf('a').some((n) => n.type === 'store.disconnected'));
    const link = await api('GET', `/v1/checkout/links/${encodeURIComponent(a.hash as string)}`);
    assert.equal(link.status, 410);
    assert.equal(link.json.api_code, 'STORE_DISCONNECTED');
    const order = await buy(a.hash as string);
    assert.equal(order.json.api_code, 'STORE_DISCONNECTED');
    const create = await api('POST', '/v1/stores/me/links', { key: a.apiKey, body: { description: 'x', reference: 'cart-a-9', amount: 1_000 } });
    assert.equal(create.status, 409);
    assert.equal(create.json.api_code, 'STORE_NOT_CONNECTED');
    await new Promise((r) => setTimeout(r, 500));
    const disconnected = h.noticesOf('a').filter((n) => n.type === 'store.disconnected');
    assert.equal(disconnected.length, 1);
    assert.deepEqual(disconnected[0]?.data, { store_id: a.storeId, reason: 'integration_uninstalled' });
    // The shop deleting itself revokes its key.
    assert.equal((await api('DELETE', '/v1/stores/me', { key: a.apiKey })).status, 200);
    assert.equal((await api('GET', '/v1/stores/me', { key: a.apiKey })).status, 401);
  });

  it('sells for every connected shop after a SIGKILL and a restart', async () => {
    await stopChild(serve!.child, 'SIGKILL');
    await startServe(key1);
    for (const shop of [shops.b, shops.c, shops.hang] as Shop[]) await sells(shop);
  });

  it('still sells after the keys rotate from "1" to "2,1" and then to "2" alone, and refuses to start with a key that opens nothing', async () => {
    await stopChild(serve!.child);
    serve = undefined;
    const settingsOf = (keys: string) => h.settings({ PAY_CHECKOUT_KEYS: keys, PORT: String(port) });
    const printed: string[] = [];
    const print = (line: string) => void printed.push(line);
    // Key 2 in front: key 1 still opens every shop, so serve sells; rotate-keys wraps them all under key 2.
    let running = await startServeInProcess(settingsOf(`${key2},${key1}`), { onEvent: () => {} });
    try {
      await sells(shops.b!);
      assert.equal(await runStores(settingsOf(`${key2},${key1}`), ['rotate-keys'], print), 0);
      assert.match(printed.join('\n'), /[1-9]\d* of \d+ shop data key\(s\) re-wrapped/);
    } finally {
      await running.close();
    }
    running = await startServeInProcess(settingsOf(key2), { onEvent: () => {} });
    try {
      await sells(shops.b!);
      await sells(shops.c!);
      printed.length = 0;
      assert.equal(await runStores(settingsOf(key2), [], print), 0);
      const listed = printed.join('\n');
      for (const shop of Object.values(shops)) assert.ok(!listed.includes(shop.apiKey) && !listed.includes(shop.merchantKey) && !listed.includes(shop.notifySecret));
      assert.match(listed, new RegExp(`${shops.b!.storeId}.*connected`));
    } finally {
      await running.close();
    }
    // A key list that opens no shop: serve does not start, and says which setting.
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => void errors.push(line);
    try {
      const status = await serveCommand([], h.env({ PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64') }), { probe: async () => ({ ok: true }) as never });
      assert.equal(status, 2);
    } finally {
      console.error = error;
    }
    assert.match(errors.join('\n'), /^pay-checkout serve: PAY_CHECKOUT_KEYS does not open/);
  });
});
