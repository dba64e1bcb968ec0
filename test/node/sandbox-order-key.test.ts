// `order_key` on POST /v1/orders as an idempotency key per store, over real HTTP, and end to end through a
// createCheckoutHandler() that keeps no idempotency store of its own.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CheckoutClient, ServiceError } from '../../src/client/index.js';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';
import { assertError, directOrderBody, gateways, merchant, shopper, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

describe('sandbox order_key deduplication', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  const create = (body: unknown, headers: Record<string, string> = merchant) => sb.api('POST', '/v1/orders', body, headers);

  test('the same order_key and body return the first order: 200, same id_order, Idempotent-Replayed, no second gateway start', async () => {
    const body = directOrderBody(gateways.transfer, { order_key: 'pedido-77' });
    const first = await create(body);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // Same data, other key order and the legacy shopper names: still the same body.
    const { id_number, id_type, ...contact } = shopper();
    const { shopper: _same, ...rest } = body;
    const again = await create({ shopper: { ...contact, national_id_number: id_number, id_national_document_type: id_type }, ...rest });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.data.id_order, first.body.data.id_order);
    assert.equal(again.body.data.id_external, 'pedido-77');
    // The transfer key is random per gateway start, so an equal key means the gateway did not start twice.
    assert.equal(again.body.data.payment_gateway.breb.key, first.body.data.payment_gateway.breb.key);
    assert.equal(sb.orderCount(), 1);
  });

  test('a replay shows the order as it is now, and never a second order', async () => {
    const body = directOrderBody(gateways.push, { order_key: 'pedido-paid' });
    const first = await create(body);
    assert.equal((await sb.api('POST', `/sandbox/orders/${first.body.data.id_order}/approve`)).status, 200);
    const again = await create(body);
    assert.equal(again.body.data.id_order, first.body.data.id_order);
    assert.equal(again.body.data.status, 'confirmed');
    assert.equal(sb.orderCount(), 1);
  });

  test('the same order_key with another amount, currency, gateway or shopper id is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const body = directOrderBody(gateways.push, { order_key: 'pedido-1' });
    assert.equal((await create(body)).status, 200);
    const others = [
      { ...body, amount: 21_000 },
      { ...body, currency: 'USD' },
      { ...body, payment_gateway: { id_payment_gateway: gateways.otp } },
      { ...body, shopper: shopper({ id_number: '99999999' }) },
      { ...body, shopper: shopper({ id_type: 2 }) },
    ];
    for (const other of others) assertError(await create(other), 409, 'IDEMPOTENCY_KEY_REUSED', 3013);
    assert.equal(sb.orderCount(), 1);
  });

  test('order_key is per store: another store may use the same key', async () => {
    const body = directOrderBody(gateways.push, { order_key: 'shared-key' });
    const mine = await create(body);
    const theirs = await create(body, { 'merchant-key': 'mk_test_other' });
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(theirs.body.data.id_order, mine.body.data.id_order);
    assert.equal(sb.orderCount(), 2);
  });

  test('orders without order_key are never deduplicated', async () => {
    const { order_key: _none, ...body } = directOrderBody(gateways.push);
    const a = await create(body);
    const b = await create(body);
    assert.notEqual(a.body.data.id_order, b.body.data.id_order);
    assert.equal(b.headers.get('idempotent-replayed'), null);
    assert.equal(sb.orderCount(), 2);
  });

  test('a refused create does not use up its key, and reset forgets every key', async () => {
    const refused = await create(directOrderBody(gateways.push, { order_key: 'k-retry', amount: 999 }));
    assertError(refused, 400, 'AMOUNT_OUT_OF_RANGE');
    const made = await create(directOrderBody(gateways.push, { order_key: 'k-retry', amount: 5_000 }));
    assert.equal(made.status, 200, made.text);
    await sb.reset();
    const fresh = await create(directOrderBody(gateways.push, { order_key: 'k-retry', amount: 6_000 }));
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.headers.get('idempotent-replayed'), null);
  });

  test('8 simultaneous identical creates make one order; the other 7 are replays', async () => {
    const body = directOrderBody(gateways.otp, { order_key: 'k-burst' });
    const replies = await Promise.all(Array.from({ length: 8 }, () => create(body)));
    assert.deepEqual(replies.map((r) => r.status), Array(8).fill(200));
    assert.equal(new Set(replies.map((r) => r.body.data.id_order)).size, 1);
    assert.equal(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 7);
    assert.equal(sb.orderCount(), 1);
  });

  test('createCheckoutHandler without a store: a retried Idempotency-Key gives one order end to end; another amount is 409', async () => {
    const handler = createCheckoutHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: `${sb.origin}/v1`,
      resolveLink: () => ({ description: 'Aporte', storeName: 'Tienda Demo' }),
    });
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new CheckoutClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
      const body = { amount: 15_000, payment_gateway: { id_payment_gateway: gateways.otp }, shopper: { id_number: '1020304050', id_type: 1 } };
      const [first, again] = await Promise.all([client.createOrder('aporte', body, 'k-buyer'), client.createOrder('aporte', body, 'k-buyer')]);
      assert.equal(again.id_order, first.id_order);
      assert.equal(again.order_token, first.order_token);
      const other = await client.createOrder('aporte', { ...body, amount: 16_000 }, 'k-buyer').catch((e: unknown) => e);
      assert.ok(other instanceof ServiceError, String(other));
      assert.equal(other.status, 409);
      assert.equal(other.code, 3013);
      assert.equal(sb.orderCount(), 1);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
