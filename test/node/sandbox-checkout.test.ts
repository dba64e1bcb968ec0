// The buyer API (docs/site/contributing/architecture.md): link resolution, idempotent order creation, order tokens, amounts, CORS.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CheckoutLinkSchema, CheckoutOrderCreatedSchema, CheckoutOrderSchema } from '../../src/contract/index.js';
import { assertError, assertFieldError, checkoutOrder, gateways, merchant, startTestSandbox, type TestSandbox, type Json } from './sandbox-harness.js';

describe('sandbox buyer API', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  test('GET /checkout/links/{hash}: everything the first screen needs', async () => {
    const r = await sb.api('GET', '/v1/checkout/links/demo-fixed');
    assert.equal(r.status, 200);
    assert.ok(CheckoutLinkSchema.safeParse(r.body.data).success, r.text);
    const link = r.body.data;
    assert.deepEqual([link.amount, link.currency, link.status, link.store_name], [50_000, 'COP', 'active', 'Tienda Demo']);
    const byKind = Object.fromEntries(link.gateways.map((g: Json) => [g.kind, g]));
    assert.deepEqual(Object.keys(byKind).sort(), ['card', 'otp', 'push', 'transfer']);
    assert.deepEqual(byKind.otp.id_types, [1, 2, 3]);
    assert.equal(byKind.push.min_amount, 1_000);
    assert.deepEqual(link.document_types.map((d: Json) => d.type), ['CC', 'CE', 'TI']);
    const dynamic = await sb.api('GET', '/v1/checkout/links/demo-dynamic');
    assert.equal(dynamic.body.data.amount, undefined);
    assertError(await sb.api('GET', '/v1/checkout/links/nope'), 404, 'LINK_NOT_FOUND');
  });

  test('no merchant key is needed and none leaks', async () => {
    const r = await sb.api('GET', '/v1/checkout/links/demo-fixed');
    assert.ok(!r.text.includes('mk_test'));
    const order = await checkoutOrder(sb, 'demo-fixed', gateways.push);
    assert.ok(!order.text.includes('mk_test'));
  });

  test('CORS: open, with a working preflight for the buyer headers', async () => {
    const pre = await sb.raw('/v1/checkout/links/demo-fixed/orders', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,idempotency-key,x-order-token' },
    });
    assert.ok(pre.status === 204 || pre.status === 200, String(pre.status));
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /idempotency-key/i);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-order-token/i);
    const get = await sb.raw('/v1/checkout/links/demo-fixed', { headers: { Origin: 'https://shop.example' } });
    assert.equal(get.headers.get('access-control-allow-origin'), '*');
    const error = await sb.raw('/v1/checkout/links/nope', { headers: { Origin: 'https://shop.example' } });
    assert.equal(error.headers.get('access-control-allow-origin'), '*', 'errors are readable cross-origin too');
    const merchantApi = await sb.raw('/v1/orders/1', { headers: { Origin: 'https://shop.example', ...merchant } });
    assert.equal(merchantApi.headers.get('access-control-allow-origin'), null, 'the merchant API is not opened to browsers');
  });

  describe('POST /checkout/links/{hash}/orders', () => {
    test('creates the order with an order_token and next_action; order_key derives from the Idempotency-Key', async () => {
      const r = await checkoutOrder(sb, 'demo-fixed', gateways.push, { key: 'buyer-key-1' });
      assert.equal(r.status, 201, r.text);
      assert.ok(CheckoutOrderCreatedSchema.safeParse(r.body.data).success, r.text);
      assert.equal(r.body.data.status, 'processing');
      assert.equal(r.body.data.amount, 50_000);
      assert.ok(r.body.data.order_token.length >= 16);
      assert.equal(r.body.data.next_action.type, 'approve_push');
      const row = sb.running.sandbox.state.orders.get(r.body.data.id_order)!;
      assert.match(row.id_external ?? '', /^chk_[0-9a-f]{32}$/);
      const again = await checkoutOrder(sb, 'demo-dynamic', gateways.push, { key: 'buyer-key-1', amount: 10_000 });
      assert.notEqual(sb.running.sandbox.state.orders.get(again.body.data.id_order)!.id_external, row.id_external, 'per link');
    });

    test('same key and same body: the same order, 200, one order in state', async () => {
      const first = await checkoutOrder(sb, 'demo-fixed', gateways.otp, { key: 'same' });
      const second = await checkoutOrder(sb, 'demo-fixed', gateways.otp, { key: 'same' });
      assert.equal(first.status, 201);
      assert.equal(second.status, 200, second.text);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(second.body.data, first.body.data);
      assert.equal(sb.orderCount(), 1);
    });

    test('same key and another body: 409 IDEMPOTENCY_KEY_REUSED, no new order', async () => {
      await checkoutOrder(sb, 'demo-fixed', gateways.otp, { key: 'k' });
      assertError(await checkoutOrder(sb, 'demo-fixed', gateways.transfer, { key: 'k' }), 409, 'IDEMPOTENCY_KEY_REUSED');
      assert.equal(sb.orderCount(), 1);
    });

    test('concurrent requests with one key make one order', async () => {
      const replies = await Promise.all(Array.from({ length: 8 }, () => checkoutOrder(sb, 'demo-fixed', gateways.transfer, { key: 'race' })));
      assert.equal(new Set(replies.map((r) => r.body.data.id_order)).size, 1);
      assert.equal(sb.orderCount(), 1);
    });

    test('the Idempotency-Key header is required', async () => {
      const r = await sb.api('POST', '/v1/checkout/links/demo-fixed/orders', { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '1', id_type: 1, phone_number: '3001234567' } });
      assertError(r, 400, 'IDEMPOTENCY_KEY_REQUIRED');
      assert.equal(sb.orderCount(), 0);
    });

    test('dynamic links: amount required, whole pesos, within the gateway range', async () => {
      const ok = await checkoutOrder(sb, 'demo-dynamic', gateways.transfer, { amount: 12_345 });
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.data.amount, 12_345);
      const cents = await checkoutOrder(sb, 'demo-dynamic', gateways.transfer, { amount: 1000.5 });
      assertFieldError(cents, 'amount');
      const low = await checkoutOrder(sb, 'demo-dynamic', gateways.transfer, { amount: 500 });
      assertError(low, 400, 'AMOUNT_OUT_OF_RANGE');
      assertFieldError(low, 'amount');
      assert.equal(sb.orderCount(), 1);
    });

    test('push needs a mobile number; legacy shopper names work', async () => {
      assertFieldError(await checkoutOrder(sb, 'demo-fixed', gateways.push, { phone: '6011234567' }), 'shopper.phone_number');
      const legacy = await sb.api('POST', '/v1/checkout/links/demo-fixed/orders', { payment_gateway: { id_payment_gateway: 2 }, shopper: { national_id_number: '52123456', id_national_document_type: 2 } }, { 'Idempotency-Key': 'legacy' });
      assert.equal(legacy.status, 201, legacy.text);
      assert.equal(sb.orderCount(), 1);
    });

    test('collect_shopper_data links require the contact fields', async () => {
      const created = await sb.api('POST', '/v1/links', { description: 'Donación', collect_shopper_data: true }, merchant);
      const hash = created.body.data.hash;
      const missing = await checkoutOrder(sb, hash, gateways.otp, { amount: 5_000 });
      assertFieldError(missing, 'shopper.email');
      assertFieldError(missing, 'shopper.first_name');
      const full = await checkoutOrder(sb, hash, gateways.otp, { amount: 5_000, extra: { shopper: { id_number: '1', id_type: 1, first_name: 'Ana', last_name: 'Gómez', email: 'a@b.co', phone_number: '3001112233' } } });
      assert.equal(full.status, 201, full.text);
    });
  });

  describe('orders by token', () => {
    test('GET with the right token shows status and next_action', async () => {
      const created = (await checkoutOrder(sb, 'demo-fixed', gateways.otp)).body.data;
      const r = await sb.api('GET', `/v1/checkout/orders/${created.id_order}`, undefined, { 'X-Order-Token': created.order_token });
      assert.equal(r.status, 200);
      assert.ok(CheckoutOrderSchema.safeParse(r.body.data).success, r.text);
      assert.equal(r.body.data.order_token, undefined, 'the token is not repeated');
      assert.deepEqual({ ...r.body.data.next_action, expires_at: undefined }, { type: 'enter_otp', length: 6, attempts_left: 3, expires_at: undefined });
    });

    test('a wrong or missing token is 404 ORDER_NOT_FOUND, like a missing order', async () => {
      const created = (await checkoutOrder(sb, 'demo-fixed', gateways.otp)).body.data;
      const tries: Record<string, string>[] = [{}, { 'X-Order-Token': 'x'.repeat(32) }, { 'X-Order-Token': created.order_token.slice(0, -1) }];
      for (const headers of tries) {
        assertError(await sb.api('GET', `/v1/checkout/orders/${created.id_order}`, undefined, headers), 404, 'ORDER_NOT_FOUND');
        assertError(await sb.api('POST', `/v1/checkout/orders/${created.id_order}/cancel`, undefined, headers), 404, 'ORDER_NOT_FOUND');
        assertError(await sb.api('POST', `/v1/checkout/orders/${created.id_order}/otp`, { daviplata_otp: '123456' }, headers), 404, 'ORDER_NOT_FOUND');
      }
      const missing = await sb.api('GET', '/v1/checkout/orders/999', undefined, { 'X-Order-Token': created.order_token });
      assertError(missing, 404, 'ORDER_NOT_FOUND');
      assert.equal(missing.text.replace(/"description":"[^"]*",?/, ''), (await sb.api('GET', `/v1/checkout/orders/${created.id_order}`)).text.replace(/"description":"[^"]*",?/, ''));
      const order = sb.running.sandbox.state.orders.get(created.id_order)!;
      assert.equal(order.status, 'processing');
      // Orders made through the merchant API have no token at all: the buyer API cannot read them.
      const direct = await sb.api('POST', '/v1/orders', { amount: 5_000, description: 'd', currency: 'COP', payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '1', id_type: 1 } }, merchant);
      assertError(await sb.api('GET', `/v1/checkout/orders/${direct.body.data.id_order}`, undefined, { 'X-Order-Token': '' }), 404, 'ORDER_NOT_FOUND');
    });

    test('the buyer cancels a waiting order (reason buyer); a cancelled one is 4011', async () => {
      const created = (await checkoutOrder(sb, 'demo-fixed', gateways.transfer)).body.data;
      const token = { 'X-Order-Token': created.order_token };
      const r = await sb.api('POST', `/v1/checkout/orders/${created.id_order}/cancel`, undefined, token);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.data.status, r.body.data.cancel_reason, r.body.data.next_action], ['cancelled', 'buyer', null]);
      assertError(await sb.api('POST', `/v1/checkout/orders/${created.id_order}/cancel`, undefined, token), 400, 'INVALID_ORDER_STATUS', 4011);
    });
  });

  describe('link status', () => {
    test('a standard link becomes paid when its order is confirmed, and takes no new orders', async () => {
      const created = (await checkoutOrder(sb, 'demo-fixed', gateways.push)).body.data;
      await sb.api('POST', `/sandbox/orders/${created.id_order}/approve`);
      assert.equal((await sb.api('GET', '/v1/checkout/links/demo-fixed')).body.data.status, 'paid');
      assertError(await checkoutOrder(sb, 'demo-fixed', gateways.push), 409, 'LINK_ALREADY_PAID');
      assert.equal(sb.orderCount(), 1);
    });

    test('a dynamic link stays active for the next buyer', async () => {
      const created = (await checkoutOrder(sb, 'demo-dynamic', gateways.push, { amount: 7_000 })).body.data;
      await sb.api('POST', `/sandbox/orders/${created.id_order}/approve`);
      assert.equal((await sb.api('GET', '/v1/checkout/links/demo-dynamic')).body.data.status, 'active');
      assert.equal((await checkoutOrder(sb, 'demo-dynamic', gateways.push, { amount: 8_000 })).status, 201);
    });

    test('a link past expires_at is expired and takes no orders', async () => {
      const link = await sb.api('POST', '/v1/links', { description: 'Breve', amount: 3_000, ttl_minutes: 10 }, merchant);
      const hash = link.body.data.hash;
      await sb.advance(10 * 60 * 1000);
      assert.equal((await sb.api('GET', `/v1/checkout/links/${hash}`)).body.data.status, 'expired');
      assertError(await checkoutOrder(sb, hash, gateways.push), 410, 'LINK_EXPIRED');
      assert.equal(sb.orderCount(), 0);
    });
  });
});
