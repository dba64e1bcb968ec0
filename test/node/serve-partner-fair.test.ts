/**
 * Each shop's rate on a partner-mode instance, on a real serve (in process), the real sandbox and a real Redis: a
 * shop's buyers beyond its rate (PAY_CHECKOUT_SHOP_RATE a second, PAY_CHECKOUT_SHOP_BURST at once) get 429
 * LIMIT_REACHED with Retry-After before their body is read, never a 5xx, while another shop's creates all succeed.
 * The bucket itself, and the shops' checkouts let go when idle, on a clock of the test's own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { parsePartnerServeSettings } from '../../src/server/serve/partner/settings.js';
import { shopShare } from '../../src/server/serve/partner/shop-share.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { rawSettings, SettingError } from '../../src/server/serve/settings.js';
import { CheckoutHttpError } from '../../src/server/http/errors.js';
import { memoryClaimStore } from '../../src/server/once/claims.js';
import { createKeyring, parseMasterKeys, type MasterKey } from '../../src/server/serve/partner/keyring.js';
import { redisKv } from '../../src/server/serve/partner/redis-kv.js';
import { createRegistry } from '../../src/server/serve/partner/registry.js';
import { shopCheckouts } from '../../src/server/serve/partner/shop-checkouts.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let sandbox: RunningSandbox;
let serve: RunningServeCommand;

const env = (more: Record<string, string> = {}) =>
  rawSettings({
    PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
    PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
    PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
    PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64'),
    PAY_CHECKOUT_REDIS_URL: redis?.url ?? 'redis://127.0.0.1:1',
    PAY_CHECKOUT_BASE_URL: sandbox?.baseUrl ?? 'http://127.0.0.1:1/v1',
    PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
    PAY_CHECKOUT_TRUST_PROXY: '1',
    PAY_CHECKOUT_SWEEP_READS: '0',
    PORT: '0',
    HOST: '127.0.0.1',
    ...more,
  });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
async function api(method: string, route: string, { body, key, headers = {} }: { body?: unknown; key?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${serve.url}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: (text ? JSON.parse(text) : {}) as Json };
}

let addresses = 0;
/** A shop connected with its own merchant key (a merchant of the demo partner), and a link; returns the link's hash. */
async function shopLink(name: string): Promise<string> {
  const onboarded = await fetch(`${sandbox.url}/sandbox/onboarding`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'demo-partner', store_name: `Tienda ${name}` }) });
  const merchant = ((await onboarded.json()) as Json).data as { merchant_key: string };
  const made = await api('POST', '/v1/stores', { body: { name, notify_url: 'http://127.0.0.1:9/notify', merchant_key: merchant.merchant_key }, headers: { 'x-forwarded-for': `203.0.113.${(addresses += 1)}` } });
  assert.equal(made.json.data?.status, 'connected', JSON.stringify(made.json));
  const link = await api('POST', '/v1/stores/me/links', { key: made.json.data.api_key, body: { description: `Pedido ${name}`, reference: `cart-${name}`, amount: 30_000 } });
  assert.equal(link.status, 201, JSON.stringify(link.json));
  return link.json.data.hash as string;
}

let buyers = 0;
/** A buyer's create on the link, from an address of its own (or a body as given). */
function buy(hash: string, body?: string) {
  buyers += 1;
  return api('POST', `/v1/checkout/links/${encodeURIComponent(hash)}/orders`, {
    headers: { 'idempotency-key': `fair-buyer-${process.pid}-${buyers}`, 'x-forwarded-for': `10.2.${buyers >> 8}.${buyers & 255}` },
    body: body ?? { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: `${5_000_000 + buyers}`, id_type: 1 } },
  });
}

before(async () => {
  [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, defaultReceiver: false })]);
  // Each shop may start 1 buyer request a second on this instance, 3 at once.
  serve = await startServeCommand(parsePartnerServeSettings(env({ PAY_CHECKOUT_SHOP_RATE: '1', PAY_CHECKOUT_SHOP_BURST: '3' })), { onEvent: () => {} });
});

after(async () => {
  await serve?.close();
  await sandbox?.close();
  await redis?.stop();
});

describe("each shop's rate on a partner-mode instance", () => {
  it("refuses a flooded shop's buyers beyond its rate with 429 LIMIT_REACHED and Retry-After, never a 5xx, while another shop's creates all succeed", async () => {
    const [flooded, quiet] = [await shopLink('flooded'), await shopLink('quiet')];
    const flood = await Promise.all(Array.from({ length: 10 }, () => buy(flooded)));
    // Refused before its body is read: bodies the handler would answer 400 are refused the same (the bucket refills at
    // 1 a second, so on a slow machine one or two may be let through, and answered 400).
    const unread = await Promise.all(Array.from({ length: 5 }, () => buy(flooded, '{"payment_gateway":')));
    const quietOnes = await Promise.all([buy(quiet), buy(quiet), buy(quiet)]);
    const refused = flood.filter((r) => r.status === 429);
    assert.deepEqual(flood.filter((r) => r.status !== 429 && r.status !== 201).map((r) => [r.status, r.json]), [], 'nothing but creates and refusals');
    assert.ok(refused.length >= 5, `most of the flood refused (${refused.length} of 10)`);
    for (const refusal of refused) {
      assert.equal(refusal.json.api_code, 'LIMIT_REACHED');
      assert.equal(refusal.json.code, 3017);
      assert.match(refusal.json.description, /this shop's payments/);
      assert.equal(refusal.headers.get('retry-after'), '1');
    }
    for (const created of quietOnes) assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.deepEqual(unread.filter((r) => r.status !== 429 && r.status !== 400).map((r) => [r.status, r.json]), [], 'refused or malformed');
    assert.ok(unread.filter((r) => r.status === 429).length >= 3, JSON.stringify(unread.map((r) => r.status)));
    // After its Retry-After, the flooded shop's buyer is served again.
    await new Promise((r) => setTimeout(r, 1_100));
    assert.equal((await buy(flooded)).status, 201);
  });

  it('takes a burst at once, then the rate, each shop its own bucket (a clock of its own)', () => {
    let now = 0;
    const share = shopShare({ perSecond: 2, burst: 3, now: () => now });
    for (let i = 0; i < 3; i++) share.enter('st_a')();
    assert.throws(() => share.enter('st_a'), (error: unknown) => error instanceof CheckoutHttpError && error.status === 429 && error.headers?.['Retry-After'] === '1');
    share.enter('st_b')();
    now = 499;
    assert.throws(() => share.enter('st_a'), CheckoutHttpError);
    now = 500;
    share.enter('st_a')();
    assert.throws(() => share.enter('st_a'), CheckoutHttpError);
    // A long quiet spell gives back the burst, never more.
    now = 60_000;
    for (let i = 0; i < 3; i++) share.enter('st_a')();
    assert.throws(() => share.enter('st_a'), CheckoutHttpError);
  });

  it('reads PAY_CHECKOUT_SHOP_RATE and PAY_CHECKOUT_SHOP_BURST, and names either when it is not a whole number from 1', () => {
    assert.deepEqual(parsePartnerServeSettings(env()).partner.shopRate, { perSecond: 100, burst: 50 });
    assert.deepEqual(parsePartnerServeSettings(env({ PAY_CHECKOUT_SHOP_RATE: '20', PAY_CHECKOUT_SHOP_BURST: '60' })).partner.shopRate, { perSecond: 20, burst: 60 });
    assert.throws(() => parsePartnerServeSettings(env({ PAY_CHECKOUT_SHOP_RATE: '0' })), (error: unknown) => error instanceof SettingError && /PAY_CHECKOUT_SHOP_RATE/.test(error.message));
    assert.throws(() => parsePartnerServeSettings(env({ PAY_CHECKOUT_SHOP_BURST: '2.5' })), (error: unknown) => error instanceof SettingError && /PAY_CHECKOUT_SHOP_BURST/.test(error.message));
  });

  it("lets go of a shop's checkout no buyer used for its idle time, and of the least recently used beyond the bound; makes it again on demand", async () => {
    const registry = createRegistry({ kv: redisKv({ url: redis.url }), keyring: createKeyring(parseMasterKeys(randomBytes(32).toString('base64')) as MasterKey[]) });
    try {
      const connected = async (name: string) => {
        const made = await registry.register({ name, notify_url: 'http://127.0.0.1:9/notify', allowed_origins: [] });
        return (await registry.connect(made!.record.store_id, `mk_test_${name}`, null))!;
      };
      const [a, b, c, d, e] = [await connected('a'), await connected('b'), await connected('c'), await connected('d'), await connected('e')];
      let now = 0;
      const checkouts = shopCheckouts({ registry, store: memoryClaimStore(), service: { baseUrl: sandbox.baseUrl }, partner: { apiKey: 'pk', apiSecret: 'sk' }, webhookSecrets: ['whsec'], secrets: ['order-token-secret-0123456789'], trustProxy: 0, emit: () => {}, onOutcome: async () => {}, sweep: false, idleMs: 60_000, maxLive: 3, now: () => now });
      const first = checkouts.of(a);
      assert.ok(first);
      assert.equal(checkouts.of(a), first, 'reused while in use');
      now = 30_000;
      checkouts.of(b);
      // a idle for 61 s, b for 31 s: a is let go, b kept, though the bound of 3 is not reached.
      now = 61_000;
      checkouts.of(c);
      assert.equal(checkouts.held(a.store_id), undefined, 'the idle one let go');
      assert.deepEqual([checkouts.live, Boolean(checkouts.held(b.store_id))], [2, true]);
      // Beyond the bound of 3, the least recently used goes first.
      now = 62_000;
      checkouts.of(d);
      checkouts.of(e);
      assert.deepEqual([checkouts.live, checkouts.held(b.store_id), ...[c, d, e].map((shop) => Boolean(checkouts.held(shop.store_id)))], [3, undefined, true, true, true]);
      // Made again on demand.
      const again = checkouts.of(a);
      assert.ok(again && again !== first);
      // What holds no state is shared by every shop's checkout: the router and its compiled patterns.
      assert.equal(again.router, checkouts.of(c)!.router);
    } finally {
      await registry.close();
    }
  });
});
