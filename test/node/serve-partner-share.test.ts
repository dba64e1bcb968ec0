/**
 * Partner mode shares one instance between its shops, on a real serve (in process), the real sandbox and a real
 * Redis: one shop's buyers beyond its share get a quick 429 while another shop's buyers are all served; and one sweep
 * follows every shop's open orders, so an order paid with no webhook and no buyer asking reaches its shop alone.
 * The sandbox forwards no webhook here, and the sweep's first read is shortened through its setting.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { parsePartnerServeSettings } from '../../src/server/serve/partner/settings.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { rawSettings } from '../../src/server/serve/settings.js';
import { verifyPayCheckoutSignature } from '../../src/webhooks/index.js';
import { until } from './claim-store-contract.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let sandbox: RunningSandbox;
let serve: RunningServeCommand;
const events: { name?: string; store_id?: string }[] = [];
/** What each shop's notify endpoint received (by shop name), with whether it verified under that shop's secret. */
const received = new Map<string, { type: string; data: Record<string, unknown>; signed: boolean }[]>();
const notifySecrets = new Map<string, string>();
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const shop = (request.url ?? '/').slice(1);
    const notice = JSON.parse(body) as { type: string; data: Record<string, unknown> };
    const secret = notifySecrets.get(shop);
    const signed = secret !== undefined && verifyPayCheckoutSignature({ header: request.headers['pay-checkout-signature'] as string, signedText: body, secrets: [secret] });
    received.set(shop, [...(received.get(shop) ?? []), { ...notice, signed }]);
    response.writeHead(200).end();
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
async function api(method: string, route: string, { body, key, headers = {} }: { body?: unknown; key?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${serve.url}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: (text ? JSON.parse(text) : {}) as Json };
}

const control = async (method: string, route: string, body?: unknown): Promise<Json> => {
  const response = await fetch(`${sandbox.url}/sandbox${route}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const json = (await response.json()) as Json;
  assert.ok(response.ok, `${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
};

interface Shop {
  name: string;
  storeId: string;
  apiKey: string;
  hash: string;
}

let addresses = 0;
/** A shop connected with its own merchant key (a merchant of the demo partner, onboarded through the sandbox's API), and a link. */
async function connectedShop(name: string): Promise<Shop> {
  const { data: merchant } = await control('POST', '/onboarding', { platform: 'demo-partner', store_name: `Tienda ${name}` });
  const made = await api('POST', '/v1/stores', {
    body: { name, notify_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${name}`, merchant_key: merchant.merchant_key },
    headers: { 'x-forwarded-for': `203.0.113.${(addresses += 1)}` },
  });
  assert.equal(made.status, 201, JSON.stringify(made.json));
  assert.equal(made.json.data.status, 'connected');
  notifySecrets.set(name, made.json.data.notify_secret);
  const link = await api('POST', '/v1/stores/me/links', { key: made.json.data.api_key, body: { description: `Pedido ${name}`, reference: `cart-${name}`, amount: 30_000 } });
  assert.equal(link.status, 201, JSON.stringify(link.json));
  return { name, storeId: made.json.data.store_id, apiKey: made.json.data.api_key, hash: link.json.data.hash };
}

let buyers = 0;
/** A buyer's create on the link, from an address of its own. */
function buy(hash: string) {
  buyers += 1;
  return api('POST', `/v1/checkout/links/${encodeURIComponent(hash)}/orders`, {
    headers: { 'idempotency-key': `share-buyer-${process.pid}-${buyers}`, 'x-forwarded-for': `10.1.${buyers >> 8}.${buyers & 255}` },
    body: { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: `${4_000_000 + buyers}`, id_type: 1, phone_number: `300777${String(1000 + buyers).slice(-4)}` } },
  });
}

before(async () => {
  receiver.listen(0, '127.0.0.1');
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, defaultReceiver: false }), once(receiver, 'listening')]);
  const settings = parsePartnerServeSettings(
    rawSettings({
      PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
      PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
      PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
      PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64'),
      PAY_CHECKOUT_REDIS_URL: redis.url,
      PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
      PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
      PAY_CHECKOUT_TRUST_PROXY: '1',
      PAY_CHECKOUT_SWEEP_FIRST_MS: '300',
      PORT: '0',
      HOST: '127.0.0.1',
    }),
  );
  serve = await startServeCommand(settings, { onEvent: (event) => void events.push(event as (typeof events)[number]), partner: { shopInProgress: 2, noticeTimings: { firstRetryMs: 100, pollMs: 50 } } });
});

after(async () => {
  await serve?.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await sandbox?.close();
  await redis?.stop();
});

describe('partner mode shares one instance between its shops', () => {
  it("refuses a flooded shop's buyers beyond its share with 429 LIMIT_REACHED and Retry-After, while another shop's creates all succeed", async () => {
    const [flooded, quiet] = [await connectedShop('flooded'), await connectedShop('quiet')];
    // The service takes its time over the next two creates: the flooded shop's two take its share and hold it.
    await control('POST', '/faults', { path: '/v1/orders', method: 'POST', count: 2, mode: 'latency', latency_ms: 1_500 });
    const holding = [buy(flooded.hash), buy(flooded.hash)];
    await new Promise((r) => setTimeout(r, 400));
    const started = Date.now();
    const beyond = await Promise.all([buy(flooded.hash), buy(flooded.hash), buy(flooded.hash), api('GET', `/v1/checkout/links/${encodeURIComponent(flooded.hash)}`)]);
    const refusedIn = Date.now() - started;
    // The other shop's buyers, two at a time (its own share), meanwhile.
    const others = [...(await Promise.all([buy(quiet.hash), buy(quiet.hash)])), ...(await Promise.all([buy(quiet.hash), buy(quiet.hash)]))];
    for (const refused of beyond) {
      assert.equal(refused.status, 429, JSON.stringify(refused.json));
      assert.equal(refused.json.api_code, 'LIMIT_REACHED');
      assert.equal(refused.json.code, 3017);
      assert.equal(refused.headers.get('retry-after'), '1');
    }
    assert.ok(refusedIn < 1_200, `refused at once, before the held creates finished (${refusedIn} ms)`);
    for (const created of others) assert.equal(created.status, 201, JSON.stringify(created.json));
    // The held two finish as created; then the flooded shop's share is free again.
    for (const held of await Promise.all(holding)) assert.equal(held.status, 201, JSON.stringify(held.json));
    assert.equal((await buy(flooded.hash)).status, 201);
  });

  it("reads every shop's open orders back with that shop's key: paid with no webhook and no buyer asking, it reaches that shop alone, once", async () => {
    const paying = await connectedShop('paying');
    await connectedShop('other');
    const order = await buy(paying.hash);
    assert.equal(order.status, 201, JSON.stringify(order.json));
    const idOrder = order.json.data.id_order as number;
    await control('POST', `/orders/${idOrder}/approve`);
    const paid = await until(() => received.get('paying')?.find((n) => n.type === 'order.paid'), 'the order.paid notice', 10_000);
    assert.equal(paid.signed, true);
    assert.deepEqual([paid.data.store_id, paid.data.reference, paid.data.id_order, paid.data.link], [paying.storeId, 'cart-paying', idOrder, paying.hash]);
    assert.ok(events.some((e) => e.name === 'order_outcome_swept' && (e as { id_order?: number }).id_order === idOrder), 'the sweep found it');
    // Time for a second copy, or a copy to the other shop, to show up, were there one.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(received.get('paying')?.filter((n) => n.type === 'order.paid').length, 1);
    assert.deepEqual(received.get('other') ?? [], []);
  });

  it("stops reading a disconnected shop's open orders: its order paid afterwards is never read or told", async () => {
    const leaving = await connectedShop('leaving');
    const order = await buy(leaving.hash);
    assert.equal(order.status, 201, JSON.stringify(order.json));
    const idOrder = order.json.data.id_order as number;
    assert.equal((await api('DELETE', '/v1/stores/me', { key: leaving.apiKey })).status, 200);
    await control('POST', `/orders/${idOrder}/approve`);
    await until(() => events.some((e) => e.name === 'order_sweep_no_client' && (e as { id_order?: number }).id_order === idOrder), 'the sweep to let the order go', 10_000);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual((received.get('leaving') ?? []).map((n) => n.type), ['store.disconnected']);
  });
});
