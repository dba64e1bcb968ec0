/**
 * Partner mode shares one instance between its shops, on a real serve (in process), the real sandbox and a real
 * Redis: one shop's buyers beyond its share get a quick 429 while another shop's buyers are all served; and one sweep
 * follows every shop's open orders, so an order paid with no webhook and no buyer asking reaches its shop alone.
 * The sandbox forwards no webhook here, and the sweep's first read is shortened through its setting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPartnerServe, type PartnerServe, type Shop } from '../harness/partner-serve.js';
import { until } from './claim-store-contract.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let h: PartnerServe;
const events = () => h.events as { name?: string; store_id?: string; id_order?: number }[];

let addresses = 0;
/** A shop connected with its own merchant key (a merchant of the demo partner, onboarded through the sandbox's API), and a link. */
async function connectedShop(name: string): Promise<Shop & { hash: string }> {
  const shop = await h.connectedShop(name, { 'x-forwarded-for': `203.0.113.${(addresses += 1)}` });
  return { ...shop, hash: await h.makeLink(shop.apiKey, `cart-${name}`) };
}

let buyers = 0;
/** A buyer's create on the link, from an address of its own. */
function buy(hash: string) {
  buyers += 1;
  return h.buy(hash, { headers: { 'x-forwarded-for': `10.1.${buyers >> 8}.${buyers & 255}` } });
}

before(async () => {
  redis = await startRedis();
  h = await startPartnerServe({
    store: { redisUrl: redis.url },
    // Each shop 1 buyer request a second, 3 at once: two held creates leave the flooded shop under half its burst, where
    // its cap of 2 under way binds.
    env: { PAY_CHECKOUT_TRUST_PROXY: '1', PAY_CHECKOUT_SWEEP_FIRST_MS: '300', PAY_CHECKOUT_SHOP_RATE: '1', PAY_CHECKOUT_SHOP_BURST: '3' },
    forward: false,
    serve: { partner: { shopInProgress: 2 } },
  });
});

after(async () => {
  await h?.close();
  await redis?.stop();
});

describe('partner mode shares one instance between its shops', () => {
  it("refuses a flooded shop's buyers beyond its share with 429 LIMIT_REACHED and Retry-After, while another shop's creates all succeed", async () => {
    const [flooded, quiet] = [await connectedShop('flooded'), await connectedShop('quiet')];
    // The service takes its time over the next two creates: the flooded shop's two take its share and hold it.
    await h.control('POST', '/faults', { path: '/v1/orders', method: 'POST', count: 2, mode: 'latency', latency_ms: 1_500 });
    const holding = [buy(flooded.hash), buy(flooded.hash)];
    await new Promise((r) => setTimeout(r, 400));
    const started = Date.now();
    const beyond = await Promise.all([buy(flooded.hash), buy(flooded.hash), buy(flooded.hash), h.api('GET', `/v1/checkout/links/${encodeURIComponent(flooded.hash)}`)]);
    const refusedIn = Date.now() - started;
    // The other shop's buyers, two at once (its own share), then one more, meanwhile.
    const others = [...(await Promise.all([buy(quiet.hash), buy(quiet.hash)])), await buy(quiet.hash)];
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
    await h.control('POST', `/orders/${idOrder}/approve`);
    const paid = await until(() => h.noticesOf('paying').find((n) => n.type === 'order.paid'), 'the order.paid notice', 10_000);
    assert.equal(paid.signed, true);
    assert.deepEqual([paid.data.store_id, paid.data.reference, paid.data.id_order, paid.data.link], [paying.storeId, 'cart-paying', idOrder, paying.hash]);
    assert.ok(events().some((e) => e.name === 'order_outcome_swept' && (e as { id_order?: number }).id_order === idOrder), 'the sweep found it');
    // Time for a second copy, or a copy to the other shop, to show up, were there one.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(h.noticesOf('paying').filter((n) => n.type === 'order.paid').length, 1);
    assert.deepEqual(h.noticesOf('other'), []);
  });

  it("stops reading a disconnected shop's open orders: its order paid afterwards is never read or told", async () => {
    const leaving = await connectedShop('leaving');
    const order = await buy(leaving.hash);
    assert.equal(order.status, 201, JSON.stringify(order.json));
    const idOrder = order.json.data.id_order as number;
    assert.equal((await h.api('DELETE', '/v1/stores/me', { key: leaving.apiKey })).status, 200);
    await h.control('POST', `/orders/${idOrder}/approve`);
    await until(() => events().some((e) => e.name === 'order_sweep_no_client' && (e as { id_order?: number }).id_order === idOrder), 'the sweep to let the order go', 10_000);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(h.noticesOf('leaving').map((n) => n.type), ['store.disconnected']);
  });
});
