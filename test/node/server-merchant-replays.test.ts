/**
 * createCheckoutHandler() when the merchant API deduplicates `order_key` itself (the sandbox does): a repeated
 * buyer request is a replay, answered 200 with `Idempotent-Replayed: true`, even from an instance that has not seen the key.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CheckoutOrderCreatedSchema, dataOf } from '../../src/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { serveHandler as serve } from './handler-harness.js';

const links = { 'camiseta-m': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } };
const resolveLink = (hash: string) => links[hash as keyof typeof links] ?? null;
const otpBody = { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '1020304050', id_type: 1 } };


/** A merchant API that never says "replayed" (the header is dropped on the way back). */
const dropReplay: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.delete('idempotent-replayed');
  return new Response(await response.text(), { status: response.status, headers });
};

describe('createCheckoutHandler: replays by the merchant API', () => {
  let sandbox: RunningSandbox;
  let handler: { url: string; close(): Promise<void> };
  let headerless: { url: string; close(): Promise<void> };

  const order = async (base: string, key: string, body: unknown = otpBody) => {
    const response = await fetch(`${base}/v1/checkout/links/camiseta-m/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });
    const json: unknown = await response.json();
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), json };
  };
  const created = (json: unknown) => dataOf(CheckoutOrderCreatedSchema).parse(json).data;

  before(async () => {
    sandbox = await startSandbox({ port: 0, defaultReceiver: false });
    // No idempotency store: only the merchant API remembers the order_key.
    handler = await serve({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink, secret: 'a-test-server-secret' });
    headerless = await serve({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink, secret: 'a-test-server-secret', fetch: dropReplay });
  });
  beforeEach(() => sandbox.sandbox.reset());
  after(async () => {
    await handler.close();
    await headerless.close();
    await sandbox.close();
  });

  it('answers a repeated request 200 with Idempotent-Replayed: true and the same order and token', async () => {
    const first = await order(handler.url, 'buyer-key-1');
    assert.deepEqual([first.status, first.replayed], [201, null], JSON.stringify(first.json));
    const again = await order(handler.url, 'buyer-key-1');
    assert.deepEqual([again.status, again.replayed], [200, 'true'], JSON.stringify(again.json));
    assert.equal(created(again.json).id_order, created(first.json).id_order);
    assert.equal(created(again.json).order_token, created(first.json).order_token);
    assert.equal(sandbox.sandbox.state.orders.size, 1);
  });

  it('concurrent repeats: one 201, every other answer a replay of the same order', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, () => order(handler.url, 'buyer-key-2')));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 201]);
    for (const r of replies) assert.equal(r.replayed, r.status === 200 ? 'true' : null, 'each answer judged by its own merchant API response');
    assert.equal(new Set(replies.map((r) => created(r.json).id_order)).size, 1);
    assert.equal(sandbox.sandbox.state.orders.size, 1);
  });

  it('another body with the same key is 409 IDEMPOTENCY_KEY_REUSED, not a replay', async () => {
    assert.equal((await order(handler.url, 'buyer-key-3')).status, 201);
    const other = await order(handler.url, 'buyer-key-3', { ...otpBody, shopper: { id_number: '99999999', id_type: 1 } });
    assert.equal(other.status, 409, JSON.stringify(other.json));
    assert.equal(other.replayed, null);
  });

  it('only the merchant API header says "replayed": without it the same order comes back as 201', async () => {
    const first = await order(headerless.url, 'buyer-key-4');
    // Another instance with its own memory store: only the merchant API knows the key there.
    const other = await serve({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink, secret: 'a-test-server-secret', fetch: dropReplay });
    try {
      const again = await order(other.url, 'buyer-key-4');
      assert.deepEqual([first.status, again.status, again.replayed], [201, 201, null]);
      assert.equal(created(again.json).id_order, created(first.json).id_order);
    } finally {
      await other.close();
    }
  });

  it("the handler's own store replays a repeat without asking the merchant API again", async () => {
    const first = await order(headerless.url, 'buyer-key-5');
    const again = await order(headerless.url, 'buyer-key-5');
    assert.deepEqual([first.status, again.status, again.replayed], [201, 200, 'true']);
    assert.deepEqual(created(again.json), created(first.json));
    assert.equal(sandbox.sandbox.state.orders.size, 1);
  });
});
