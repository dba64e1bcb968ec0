/**
 * Partner mode under attack, on a real serve (in process), the real sandbox and a real Redis: a merchant of the same
 * partner who learns another shop's store_id and finishes onboarding naming it (then removes that integration), the
 * same partner webhook delivered several times at once or again later, two shops' orders under one id, floods and
 * bad bodies at registration, and no key of any shop in any event serve emits. Set up by test/harness/partner-serve.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { isPublicAddress } from '../../src/server/serve/partner/public-address.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { runStores } from '../../src/server/serve/partner/stores-command.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { SettingError } from '../../src/server/serve/settings.js';
import { sign } from '../../src/webhooks/signature.js';
import { startPartnerServe, type PartnerServe } from '../harness/partner-serve.js';
import { freePort, launch, startRedis, stopChild, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let h: PartnerServe;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const api: PartnerServe['api'] = (method, route, options) => h.api(method, route, options);
const until = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs?: number) => h.until(what, check, limitMs);
const onboard: PartnerServe['onboard'] = (storeName, external) => h.onboard(storeName, external);
/** What serve emitted, each as its JSON text. */
const events = () => h.events.map((event) => JSON.stringify(event));

/** Until serve answered the service's integration_uninstalled for a service store. */
async function uninstallAnswered(idStore: number) {
  await until('the integration_uninstalled answered', async () => {
    const records = (await h.control('GET', '/deliveries')).data as Json[];
    return records.some((r) => r.event === 'integration_uninstalled' && r.payload.id_store === idStore && r.url.startsWith(h.url) && r.state !== 'pending');
  });
}

/** Until serve said what it did with a store_onboarded naming the shop (at most 3 s: a silent takeover says nothing). */
const status = async (apiKey: string) => (await api('GET', '/v1/stores/me', { key: apiKey })).json.data as { status: string; id_store: number | null; connect_url: string };
/** The `external_store_id` a connect_url sends the merchant on with (what the onboarding carries through). */
async function externalOf(connectUrl: string): Promise<string> {
  const redirect = await fetch(connectUrl, { redirect: 'manual' });
  assert.equal(redirect.status, 302, await redirect.text());
  return new URL(redirect.headers.get('location') ?? '').searchParams.get('external_store_id') ?? '';
}

const handled = (since: number, storeId: string) =>
  until('the store_onboarded to be handled', () => events().slice(since).some((e) => /"store_(onboarded_refused|onboarded_unbound|connected)"/.test(e) && e.includes(storeId)), 3_000).catch(() => false);

const secrets: string[] = [];
async function register(name: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const shop = await h.register(name, extra, headers);
  secrets.push(shop.apiKey, shop.notifySecret);
  return { store_id: shop.storeId, api_key: shop.apiKey, status: shop.status };
}

/** Each registration from its own address, so the per-address limit is the flood test's alone. */
let addresses = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `203.0.113.${(addresses += 1)}` });

before(async () => {
  redis = await startRedis();
  h = await startPartnerServe({ store: { redisUrl: redis.url }, env: { PAY_CHECKOUT_TRUST_PROXY: '1', PAY_CHECKOUT_PENDING_SHOPS: '40' } });
});

after(async () => {
  await h?.close();
  await redis?.stop();
});

describe('partner mode against a hostile merchant, shop or sender', () => {
  it("keeps a shop connected with its own merchant key when another merchant's onboarding names its store_id", async () => {
    const own = await onboard('Tienda propia');
    const shop = await register('byok', { merchant_key: own.merchantKey }, fromNewAddress());
    assert.equal(shop.status, 'connected');
    const before = h.events.length;
    // Another merchant of the same partner, who learnt the shop's id, finishes onboarding naming it.
    await onboard('Tienda ajena', shop.store_id);
    await handled(before, shop.store_id);
    const me = await api('GET', '/v1/stores/me', { key: shop.api_key });
    assert.equal(me.json.data.id_store, null, 'the shop was handed to the other merchant\'s service store');
  });

  it("keeps selling a shop that brought its own merchant key when a stranger's onboarding names its store_id and is then uninstalled", async () => {
    const own = await onboard('Tienda con llave propia');
    const shop = await register('byok-victim', { merchant_key: own.merchantKey }, fromNewAddress());
    assert.equal(shop.status, 'connected');
    // A stranger onboards a merchant of the same partner naming the shop's store_id, then removes that integration:
    // the service tells the partner, naming the store_id the stranger gave.
    const stranger = await onboard('Tienda del extraño', shop.store_id);
    const removed = await fetch(`${h.sandbox.baseUrl}/partners/stores/${stranger.idStore}`, { method: 'DELETE', headers: { 'x-api-key': 'pk_test_demo', 'x-api-secret': 'sk_test_demo' } });
    assert.equal(removed.status, 200, await removed.text());
    await uninstallAnswered(stranger.idStore);
    assert.equal((await status(shop.api_key)).status, 'connected', "a stranger's uninstall disconnected the shop");
    const link = await api('POST', '/v1/stores/me/links', { key: shop.api_key, body: { description: 'Sigue vendiendo', reference: 'cart-1', amount: 15000 } });
    assert.equal(link.status, 201, JSON.stringify(link.json));
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!h.notices.some((n) => n.shop === 'byok-victim' && n.type === 'store.disconnected'), 'the shop was told it was disconnected');
  });

  it('disconnects a shop that brought its own merchant key when its own service store removes the integration, and no other', async () => {
    // Such a shop's id_store is never learnt: the service's uninstall names a store no shop here is connected to.
    const own = await onboard('Tienda que se va');
    const leaving = await register('byok-leaving', { merchant_key: own.merchantKey }, fromNewAddress());
    const other = await onboard('Tienda que sigue');
    const staying = await register('byok-staying', { merchant_key: other.merchantKey }, fromNewAddress());
    assert.deepEqual([leaving.status, staying.status], ['connected', 'connected']);
    const removed = await fetch(`${h.sandbox.baseUrl}/partners/stores/${own.idStore}`, { method: 'DELETE', headers: { 'x-api-key': 'pk_test_demo', 'x-api-secret': 'sk_test_demo' } });
    assert.equal(removed.status, 200, await removed.text());
    await uninstallAnswered(own.idStore);
    assert.equal((await status(leaving.api_key)).status, 'disconnected', 'the shop whose integration was removed still sells');
    assert.equal((await status(staying.api_key)).status, 'connected', 'another shop that brought its own key was disconnected');
    const link = await api('POST', '/v1/stores/me/links', { key: leaving.api_key, body: { description: 'Ya no', reference: 'cart-2', amount: 15000 } });
    assert.ok(link.status >= 400 && link.status < 500 && link.json.error === true, JSON.stringify(link.json));
    await until('the shop told', () => h.notices.some((n) => n.shop === 'byok-leaving' && n.type === 'store.disconnected'));
    assert.equal(h.notices.filter((n) => n.shop === 'byok-leaving' && n.type === 'store.disconnected').length, 1);
    assert.ok(!h.notices.some((n) => n.shop === 'byok-staying' && n.type === 'store.disconnected'));
  });

  it("connects no shop for a stranger who finishes onboarding naming its store_id or a used connect value; only a fresh connect_url does", async () => {
    const shop = await register('victim', {}, fromNewAddress());
    let before = h.events.length;
    // A stranger who learnt the pending shop's store_id onboards their own merchant account naming it.
    await onboard('Tienda del atacante', shop.store_id);
    await handled(before, shop.store_id);
    assert.equal((await status(shop.api_key)).status, 'pending', "a stranger's merchant account was connected to the shop");
    // The shop's own connect_url carries more than its id, and that connects it.
    const external = await externalOf((await status(shop.api_key)).connect_url);
    assert.ok(external.startsWith(`${shop.store_id}.`) && external.length > shop.store_id.length + 40, external);
    const own = await onboard('Tienda de la víctima', external);
    await until('the shop connected', async () => (await status(shop.api_key)).status === 'connected');
    assert.equal((await status(shop.api_key)).id_store, own.idStore);
    // Disconnected by the service: neither its bare id nor the used value connects it to another account.
    const payload = JSON.stringify({ event: 'integration_uninstalled', timestamp: new Date().toISOString(), id_store: own.idStore, store_name: 'Tienda de la víctima' });
    const uninstalled = await fetch(`${h.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': await sign(payload, 'whsec_test_demo') }, body: payload });
    assert.equal(uninstalled.status, 200);
    await until('the shop disconnected', async () => (await status(shop.api_key)).status === 'disconnected');
    for (const value of [shop.store_id, external]) {
      before = h.events.length;
      await onboard('Tienda del atacante', value);
      await handled(before, shop.store_id);
      assert.equal((await status(shop.api_key)).status, 'disconnected', `onboarding naming ${value === external ? 'the used value' : 'the bare id'} connected the shop`);
    }
    // A connect_url opened after it is used answers a 4xx ErrorResponse; a fresh one from GET /v1/stores/me connects.
    const stale = await api('GET', `/v1/stores/${shop.store_id}/connect?token=${external.slice(shop.store_id.length + 1)}`);
    assert.equal(stale.status, 410, JSON.stringify(stale.json));
    assert.equal(stale.json.api_code, 'CONNECT_URL_EXPIRED');
    const again = await onboard('Tienda de la víctima', await externalOf((await status(shop.api_key)).connect_url));
    await until('the shop connected again', async () => (await status(shop.api_key)).id_store === again.idStore);
  });

  it('acts once on a partner delivery sent again: an integration_uninstalled replayed after the shop was bound again leaves it connected', async () => {
    const shop = await register('replayed', {}, fromNewAddress());
    const bind = async (idStore: number) => {
      await until('the store_onboarded kept', () => events().some((e) => e.includes('"store_onboarded_unbound"') && e.includes(`"id_store":${idStore}`)));
      assert.equal(await runStores(h.settings(), ['bind', shop.store_id, String(idStore)], () => {}), 0);
      assert.equal((await status(shop.api_key)).status, 'connected');
    };
    // Onboarding that names the shop by its bare id binds nothing; the operator binds it by hand.
    const merchant = await onboard('Tienda enlazada', shop.store_id);
    await bind(merchant.idStore);
    const removed = await fetch(`${h.sandbox.baseUrl}/partners/stores/${merchant.idStore}`, { method: 'DELETE', headers: { 'x-api-key': 'pk_test_demo', 'x-api-secret': 'sk_test_demo' } });
    assert.equal(removed.status, 200, await removed.text());
    await until('the shop disconnected', async () => (await status(shop.api_key)).status === 'disconnected');
    const sent = ((await h.control('GET', '/deliveries')).data as Json[]).find((r) => r.event === 'integration_uninstalled' && r.payload.id_store === merchant.idStore && r.url.startsWith(h.url));
    assert.ok(sent, 'the service sent serve its integration_uninstalled');
    // The merchant comes back (the service re-subscribes the same store), and is bound again.
    const before = h.events.length;
    await onboard('Tienda enlazada', shop.store_id);
    await until('the return kept', () => events().slice(before).some((e) => e.includes('"store_onboarded_unbound"')));
    await bind(merchant.idStore);
    // The service's earlier delivery, sent again as it was (a late retry, or a copy someone kept).
    const replayed = await fetch(`${h.url}/v1/webhooks`, { method: 'POST', headers: sent.headers, body: sent.body });
    assert.equal(replayed.status, 200, await replayed.text());
    assert.equal((await status(shop.api_key)).status, 'connected', 'the replayed uninstall disconnected the shop again');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(h.noticesOf('replayed').filter((n) => n.type === 'store.disconnected').length, 1);
  });

  it('never connects again a shop that deleted itself, whoever finishes onboarding for it', async () => {
    const shop = await register('gone', {}, fromNewAddress());
    assert.equal((await api('DELETE', '/v1/stores/me', { key: shop.api_key })).status, 200);
    const before = h.events.length;
    await onboard('Tienda ajena 2', shop.store_id);
    await handled(before, shop.store_id);
    const connect = await api('GET', `/v1/stores/${shop.store_id}/connect`);
    assert.notEqual(connect.json.api_code, 'STORE_ALREADY_CONNECTED', 'a shop that deleted itself was connected to another merchant');
    assert.ok(!events().slice(before).some((e) => e.includes('"store_connected"') && e.includes(shop.store_id)));
  });

  it('sends one store.disconnected when the same integration_uninstalled arrives several times at once', async () => {
    const merchant = await onboard('Tienda doble');
    const shop = await register('twice', { merchant_key: merchant.merchantKey }, fromNewAddress());
    // Connected through its own key (serve knows no id_store of it); its integration removed at the service, whose
    // own delivery names no shop of ours. The same removal, naming the shop, then arrives six times at once.
    const removed = await fetch(`${h.sandbox.baseUrl}/partners/stores/${merchant.idStore}`, { method: 'DELETE', headers: { 'x-api-key': 'pk_test_demo', 'x-api-secret': 'sk_test_demo' } });
    assert.equal(removed.status, 200, await removed.text());
    await uninstallAnswered(merchant.idStore);
    const payload = JSON.stringify({ event: 'integration_uninstalled', timestamp: new Date().toISOString(), id_store: merchant.idStore, external_id: shop.store_id, external_store_id: shop.store_id, store_name: 'Tienda doble' });
    const signature = await sign(payload, 'whsec_test_demo');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${h.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signature }, body: payload }).then((r) => r.status)),
    );
    assert.ok(answers.every((s) => s === 200), JSON.stringify(answers));
    await until('a store.disconnected', () => h.notices.some((n) => n.shop === 'twice' && n.type === 'store.disconnected'));
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(h.notices.filter((n) => n.shop === 'twice' && n.type === 'store.disconnected').length, 1);
  });

  it('refuses unsigned and forged partner webhooks with an ErrorResponse, and connects nothing', async () => {
    const shop = await register('forged', {}, fromNewAddress());
    const payload = JSON.stringify({ event: 'store_onboarded', timestamp: new Date().toISOString(), id_store: 999, external_store_id: shop.store_id, merchant_key: 'mk_test_forged' });
    for (const headers of <Record<string, string>[]>[{}, { 'x-service-signature': await sign(payload, 'whsec_guess') }, { 'x-wava-signature': 'a'.repeat(64) }]) {
      const answer = await api('POST', '/v1/webhooks', { body: payload, headers });
      assert.equal(answer.status, 401, JSON.stringify(answer.json));
      assert.equal(answer.json.error, true);
    }
    assert.equal((await api('GET', '/v1/stores/me', { key: shop.api_key })).json.data.status, 'pending');
  });

  it('limits registrations per address with 429 and Retry-After, and answers bad bodies with 4xx ErrorResponses', async () => {
    const address = { 'x-forwarded-for': '198.51.100.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api('POST', '/v1/stores', { body: { name: `flood ${i}`, notify_url: h.notifyUrl('flood') }, headers: address })).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(201));
    const limited = await api('POST', '/v1/stores', { body: { name: 'flood', notify_url: h.notifyUrl('flood') }, headers: address });
    assert.equal(limited.status, 429);
    assert.equal(limited.json.api_code, 'LIMIT_REACHED');
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    const bad = [
      await api('POST', '/v1/stores', { body: '{"name":', headers: fromNewAddress() }),
      await api('POST', '/v1/stores', { body: JSON.stringify({ name: 'x'.repeat(5_000_000), notify_url: h.notifyUrl('big') }), headers: fromNewAddress() }),
      await api('POST', '/v1/stores', { body: { name: 'long', notify_url: `https://93.184.216.34/${'a'.repeat(3_000)}` }, headers: fromNewAddress() }),
      await api('POST', '/v1/stores', { body: { name: 'creds', notify_url: 'http://user:pass@127.0.0.1:1/n' }, headers: fromNewAddress() }),
      await api('POST', '/v1/stores', { body: [], headers: fromNewAddress() }),
      await api('POST', '/v1/stores/me/links', { body: { description: 'x', reference: 'y' }, key: 'pcs_' + 'A'.repeat(43) }),
      await api('GET', `/v1/stores/${encodeURIComponent('st_%zz')}/connect`),
      await api('GET', '/v1/stores/%E0%A4%A/connect'),
    ];
    for (const [index, answer] of bad.entries()) {
      assert.ok(answer.status >= 400 && answer.status < 500, `bad body ${index}: ${answer.status} ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.error, true);
    }
  });

  it('counts registrations from one IPv6 /64 as from one address', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i++) statuses.push((await api('POST', '/v1/stores', { body: { name: `v6 ${i}`, notify_url: h.notifyUrl('v6') }, headers: { 'x-forwarded-for': `2001:db8:77:1::${i.toString(16)}` } })).status);
    assert.deepEqual(statuses, Array(10).fill(201));
    const sameNetwork = await api('POST', '/v1/stores', { body: { name: 'v6 again', notify_url: h.notifyUrl('v6') }, headers: { 'x-forwarded-for': '2001:db8:77:1:ffff:1234:5678:9abc' } });
    assert.equal(sameNetwork.status, 429, 'another address of the same /64 registered past the limit');
    assert.equal(sameNetwork.json.api_code, 'LIMIT_REACHED');
    const otherNetwork = await api('POST', '/v1/stores', { body: { name: 'v6 other', notify_url: h.notifyUrl('v6') }, headers: { 'x-forwarded-for': '2001:db8:77:2::1' } });
    assert.equal(otherNetwork.status, 201, JSON.stringify(otherNetwork.json));
  });

  it("checks in partner mode the keys, the pair, the partner webhook the running serve verifies and one shop's notify URL; --pay says what it needs", async () => {
    const printed: string[] = [];
    const log = console.log;
    const error = console.error;
    console.log = console.error = (line: unknown) => void printed.push(String(line));
    const check = (argv: string[]) => serveCommand(['--check', ...argv], h.env(), { probe: runDoctor });
    try {
      const shop = await register('checked', {}, fromNewAddress());
      printed.length = 0;
      assert.equal(await check(['--store', shop.store_id]), 0, printed.join('\n'));
      const lines = printed.join('\n');
      for (const item of ['keys', 'service', 'webhook', 'notify']) assert.match(lines, new RegExp(`^✓ ${item}: `, 'm'), lines);
      assert.match(lines, /took the service's signed test delivery \(200\)/);
      assert.ok(h.notices.some((n) => n.shop === 'checked' && n.type === 'test'), 'the shop got no test notice');
      // A shop whose notify URL answers nothing fails the check, naming it.
      const closed = await api('POST', '/v1/stores', { body: { name: 'closed', notify_url: `http://127.0.0.1:${await freePort()}/n` }, headers: fromNewAddress() });
      printed.length = 0;
      assert.equal(await check(['--store', closed.json.data.store_id]), 1);
      assert.match(printed.join('\n'), new RegExp(`^✗ notify: shop ${closed.json.data.store_id} .*did not take a signed test notice`, 'm'));
      printed.length = 0;
      assert.equal(await check(['--pay']), 2);
      assert.match(printed.join('\n'), /--pay is for one shop's serve; in partner mode .*register a test shop/);
    } finally {
      console.log = log;
      console.error = error;
    }
  });

  it('registers no more pending shops past PAY_CHECKOUT_PENDING_SHOPS, with an ErrorResponse, and one more once one connects', async () => {
    const made: { store_id: string; api_key: string }[] = [];
    let refused: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 60 && !refused; i++) {
      const answer = await api('POST', '/v1/stores', { body: { name: `cap ${i}`, notify_url: h.notifyUrl('cap') }, headers: fromNewAddress() });
      if (answer.status === 201) made.push(answer.json.data);
      else refused = answer;
    }
    assert.ok(refused && made.length > 0, `40 pending shops at most, yet ${made.length} more registered`);
    assert.equal(refused.status, 429, JSON.stringify(refused.json));
    assert.equal(refused.json.api_code, 'LIMIT_REACHED');
    assert.equal(refused.json.error, true);
    // A shop that brings its own merchant key is connected at once: not refused.
    const own = await onboard('Tienda con su llave');
    assert.equal((await register('cap-byok', { merchant_key: own.merchantKey }, fromNewAddress())).status, 'connected');
    // One pending shop connects: its place is free again.
    const first = made[0]!;
    await onboard('Tienda que conecta', await externalOf((await status(first.api_key)).connect_url));
    await until('the shop connected', async () => (await status(first.api_key)).status === 'connected');
    assert.equal((await api('POST', '/v1/stores', { body: { name: 'cap after', notify_url: h.notifyUrl('cap') }, headers: fromNewAddress() })).status, 201);
    assert.equal((await api('POST', '/v1/stores', { body: { name: 'cap full', notify_url: h.notifyUrl('cap') }, headers: fromNewAddress() })).status, 429);
    // Pending shops, and one that deleted itself before it connected, are still forgotten within 24 hours.
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const gone = await register('gone-pending', {}, {}).catch(() => undefined);
      assert.equal(gone, undefined, 'the cap let one more in');
      const deleting = made[1]!;
      assert.equal((await api('DELETE', '/v1/stores/me', { key: deleting.api_key })).status, 200);
      for (const shop of [made[2]!, deleting]) {
        const ttl = await client.pTTL(`pay-checkout:{partner}:shop:${shop.store_id}`);
        assert.ok(ttl > 0 && ttl <= 24 * 60 * 60 * 1000, `shop ${shop.store_id} kept for ${ttl} ms`);
      }
    } finally {
      await client.quit();
    }
  });

  it("waits at start for a shops' store that does not answer yet, saying so, and starts once it does; gives up past its bound with a setting error", async () => {
    const port = await freePort();
    const said: { name: string; message: string }[] = [];
    const settings = h.settings({ PAY_CHECKOUT_REDIS_URL: `redis://127.0.0.1:${port}`, PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64') });
    // Beside it, one whose store never answers (both at once: a first try takes the 5 s bound on connecting).
    const neverSettings = h.settings({ PAY_CHECKOUT_REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const never = startServeCommand(neverSettings, { onEvent: () => {}, partner: { storeWait: { boundMs: 400, firstRetryMs: 100 } } });
    never.catch(() => {});
    // Nothing answers there for a while; then a Redis starts on that port.
    const starting = startServeCommand(settings, { onEvent: (event) => void said.push(event as { name: string; message: string }), partner: { storeWait: { boundMs: 30_000, firstRetryMs: 100 } } });
    await until('a store_waiting event', () => said.some((e) => e.name === 'store_waiting'));
    const late = await launch(port);
    let waited: RunningServeCommand | undefined;
    try {
      waited = await starting;
      assert.ok(said.some((e) => e.name === 'store_answered'), JSON.stringify(said.map((e) => e.name)));
      // Listening; ready once the claim store, which connects on its own, answers too.
      const url = waited.url;
      await until('ready', async () => (await fetch(`${url}/v1/health/ready`)).status === 200);
    } finally {
      await waited?.close();
      await stopChild(late);
    }
    // Nothing ever answers: past the bound, one sentence naming the store's setting.
    await assert.rejects(never, (error: unknown) => error instanceof SettingError && /PAY_CHECKOUT_REDIS_URL\) did not answer within/.test(error.message));
  });

  it("keeps two shops' orders of one id apart: the partner webhook, the wake-up and the code limits are each shop's", async () => {
    // The sandbox numbers orders from 1 again after a reset (the service's ids may repeat across its stores): shop A
    // (the sandbox's demo store, kept by a reset) is paid for its order 1; then shop B's order 1 is made and paid.
    const restart = async () => {
      await h.control('POST', '/reset');
      await h.forward();
    };
    const sell = async (apiKey: string, reference: string) => {
      const link = await api('POST', '/v1/stores/me/links', { key: apiKey, body: { description: `Pedido ${reference}`, reference, amount: 20_000 } });
      assert.equal(link.status, 201, JSON.stringify(link.json));
      const order = await api('POST', `/v1/checkout/links/${encodeURIComponent(link.json.data.hash)}/orders`, {
        headers: { 'idempotency-key': `same-id-${reference}` },
        body: { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: reference === 'cart-a' ? '1020304050' : '5040302010', id_type: 1, phone_number: '3001234567' } },
      });
      assert.equal(order.status, 201, JSON.stringify(order.json));
      return order.json.data as { id_order: number; order_token: string };
    };
    const client = createClient({ url: redis.url });
    const subscriber = client.duplicate();
    await Promise.all([client.connect(), subscriber.connect()]);
    try {
      await restart();
      const a = await register('same-id-a', { merchant_key: 'mk_test_demo' }, fromNewAddress());
      const orderA = await sell(a.api_key, 'cart-a');
      assert.equal((await fetch(`${h.sandbox.url}/sandbox/orders/${orderA.id_order}/approve`, { method: 'POST' })).status, 200);
      await until("A's order.paid", () => h.notices.some((n) => n.shop === 'same-id-a' && n.type === 'order.paid'));
      await restart();
      const merchant = await onboard('Tienda mismo número');
      const b = await register('same-id-b', { merchant_key: merchant.merchantKey }, fromNewAddress());
      const orderB = await sell(b.api_key, 'cart-b');
      assert.equal(orderB.id_order, orderA.id_order, 'the sandbox gave the second shop another order id');
      const id = orderB.id_order;
      // The document each buyer gave, kept for the code limits of that shop's order.
      const documents = await client.keys(`*code-document:${id}`);
      for (const shop of [a, b]) assert.equal(documents.filter((key) => key.includes(shop.store_id)).length, 1, `${shop.store_id}: ${JSON.stringify(documents)}`);
      // B's order paid: the partner webhook reaches B (A's delivery of its order 1 does not stand for it), and wakes B's order only.
      const channels: string[] = [];
      await subscriber.pSubscribe(`*order:${id}`, (_message, channel) => void channels.push(channel));
      assert.equal((await fetch(`${h.sandbox.url}/sandbox/orders/${id}/approve`, { method: 'POST' })).status, 200);
      const paid = await until("B's order.paid", () => h.notices.find((n) => n.shop === 'same-id-b' && n.type === 'order.paid'), 5_000);
      assert.deepEqual([paid.data.store_id, paid.data.reference], [b.store_id, 'cart-b']);
      assert.equal(h.notices.filter((n) => n.shop === 'same-id-a' && n.type === 'order.paid').length, 1, 'A was told of B\'s order');
      await until('a wake-up', () => channels.length > 0);
      assert.ok(channels.every((channel) => channel.includes(b.store_id)), JSON.stringify(channels));
      // Each shop reads its own order of that id; a buyer's token of one shop never opens the other's.
      const mine = await api('GET', `/v1/stores/me/orders/${id}`, { key: b.api_key });
      assert.equal(mine.status, 200, JSON.stringify(mine.json));
      assert.equal(mine.json.data.reference, 'cart-b');
      const buyerB = await api('GET', `/v1/checkout/orders/${id}`, { headers: { 'x-order-token': orderB.order_token } });
      assert.equal(buyerB.status, 200, JSON.stringify(buyerB.json));
      const buyerA = await api('GET', `/v1/checkout/orders/${id}`, { headers: { 'x-order-token': orderA.order_token } });
      assert.ok(buyerA.status >= 400 && buyerA.status < 500 && buyerA.json.error === true, JSON.stringify(buyerA.json));
      // An order recorded before an id could name more than one shop's (one record, not a list) is still its shop's.
      const index = `pay-checkout:{partner}:order:${id}`;
      const kept = JSON.parse((await client.get(index)) ?? '[]') as { store_id: string }[];
      await client.set(index, JSON.stringify(kept.find((order) => order.store_id === b.store_id)));
      assert.equal((await api('GET', `/v1/stores/me/orders/${id}`, { key: b.api_key })).status, 200, 'an order of the earlier form was lost');
    } finally {
      await subscriber.quit();
      await client.quit();
    }
  });

  it('takes no IPv6 address that carries an IPv4 one through a tunnel or translation as public', () => {
    for (const address of ['::7f00:1', '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe']) assert.equal(isPublicAddress(address), false, address);
    for (const address of ['2606:4700:4700::1111', '8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::808:808']) assert.equal(isPublicAddress(address), true, address);
  });

  it('puts no api key, notify secret or merchant key in any event it emitted', () => {
    assert.ok(h.events.length > 10);
    const all = events().join('\n');
    for (const secret of secrets) assert.ok(!all.includes(secret), 'a shop secret in an event');
    assert.ok(!/mk_test_[0-9a-f]{24}/.test(all), 'a merchant key in an event');
  });
});
