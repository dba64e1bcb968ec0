// The merchant API of the sandbox over real HTTP: authentication, orders per gateway, the transition
// table's cancel and refund rules, links, discovery, document types and dashboard statistics.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  CreatedLinkSchema,
  CreatedOrderSchema,
  DashboardStatsSchema,
  DocumentTypeListSchema,
  OrderDetailsSchema,
  PaymentGatewayListSchema,
} from '../../src/contract/index.js';
import { hasValidCrc } from '../../src/sandbox/gateways/emvco.js';
import {
  assertError,
  assertFieldError,
  directOrderBody,
  gateways,
  merchant,
  otherPartner,
  partner,
  shopper,
  startTestSandbox,
  type TestSandbox, type Json } from './sandbox-harness.js';

const hours = (h: number) => h * 60 * 60 * 1000;

describe('sandbox merchant API', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  const createOrder = async (gateway: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = merchant) => {
    const r = await sb.api('POST', '/v1/orders', directOrderBody(gateway, extra), headers);
    assert.equal(r.status, 200, r.text);
    return r.body.data as Json;
  };
  const status = async (id: number) => (await sb.api('GET', `/v1/orders/${id}`, undefined, merchant)).body.data.status as string;

  describe('authentication', () => {
    test('a missing merchant key is 401 MISSING_MERCHANT_KEY', async () => {
      assertError(await sb.api('POST', '/v1/orders', directOrderBody(gateways.push)), 401, 'MISSING_MERCHANT_KEY', 1001);
      assert.equal(sb.orderCount(), 0);
    });

    test('an invalid merchant key is 401 INVALID_MERCHANT_KEY (4007)', async () => {
      assertError(await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), { 'merchant-key': 'mk_test_nope' }), 401, 'INVALID_MERCHANT_KEY', 4007);
      assertError(await sb.api('GET', '/v1/orders/1', undefined, { 'merchant-key': 'wrong' }), 401, 'INVALID_MERCHANT_KEY', 4007);
      assertError(await sb.api('POST', '/v1/orders/refund/1', undefined, { 'merchant-key': 'wrong' }), 401, 'INVALID_MERCHANT_KEY', 4007);
      assert.equal(sb.orderCount(), 0);
    });

    test('a partner pair with only one header is 401', async () => {
      const halves: Record<string, string>[] = [{ 'X-API-Key': partner['X-API-Key'] }, { 'X-API-Secret': partner['X-API-Secret'] }];
      for (const half of halves) {
        const r = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), { ...merchant, ...half });
        assert.equal(r.status, 401, r.text);
        assert.equal(r.body.error, true);
      }
      assert.equal(sb.orderCount(), 0);
    });

    test('a wrong partner secret or unknown partner key is 401', async () => {
      for (const pair of [{ ...partner, 'X-API-Secret': 'sk_wrong' }, { 'X-API-Key': 'pk_unknown', 'X-API-Secret': 'sk_test_demo' }]) {
        const r = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), { ...merchant, ...pair });
        assert.equal(r.status, 401, r.text);
      }
      assert.equal(sb.orderCount(), 0);
    });

    test('a partner not connected to the store may not act for it: 401', async () => {
      const r = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), { ...merchant, ...otherPartner });
      assertError(r, 401, 'UNAUTHORIZED_ACCESS');
      const link = await sb.api('POST', '/v1/links', { description: 'x', amount: 10_000 }, { ...merchant, ...otherPartner });
      assert.equal(link.status, 401);
      assert.equal(sb.orderCount(), 0);
    });

    test('with three valid headers the merchant key still selects the store, and the order is attributed to the partner', async () => {
      const order = await createOrder(gateways.push, {}, { ...merchant, ...partner });
      const row = sb.running.sandbox.state.orders.get(order.id_order);
      assert.equal(row?.id_store, 1);
      assert.equal(row?.id_partner, 1);
      // The other store's own partner acts for the other store, and lands there.
      const other = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), { 'merchant-key': 'mk_test_other', ...otherPartner });
      assert.equal(other.status, 200, other.text);
      assert.equal(sb.running.sandbox.state.orders.get(other.body.data.id_order)?.id_store, 2);
    });

    test('/partners/* needs only the pair, and the merchant key alone is not enough', async () => {
      assert.equal((await sb.api('GET', '/v1/partners/stores', undefined, partner)).status, 200);
      assert.equal((await sb.api('GET', '/v1/partners/stores', undefined, merchant)).status, 401);
      assert.equal((await sb.api('GET', '/v1/partners/webhook', undefined, { 'X-API-Key': 'pk_test_demo' })).status, 401);
    });

    test("another store's order is 4010 ORDER_NOT_FOUND, like a missing one", async () => {
      const order = await createOrder(gateways.push);
      assertError(await sb.api('GET', `/v1/orders/${order.id_order}`, undefined, { 'merchant-key': 'mk_test_other' }), 404, 'ORDER_NOT_FOUND', 4010);
      assertError(await sb.api('GET', '/v1/orders/999', undefined, merchant), 404, 'ORDER_NOT_FOUND', 4010);
      assertError(await sb.api('POST', `/v1/orders/cancel/${order.id_order}`, undefined, { 'merchant-key': 'mk_test_other' }), 404, 'ORDER_NOT_FOUND');
      assert.equal(await status(order.id_order), 'processing');
    });
  });

  describe('POST /orders per gateway', () => {
    test('mobile wallet (push): processing, masked phone, order_key back as id_external', async () => {
      const order = await createOrder(gateways.push, { order_key: 'mine-42' });
      assert.ok(CreatedOrderSchema.safeParse(order).success);
      assert.equal(order.id_order, 1, 'order ids start at 1');
      assert.equal(order.status, 'processing');
      assert.equal(order.id_external, 'mine-42');
      assert.equal(order.payment_gateway.nequi.phone_number, '******4567');
      assert.equal((await createOrder(gateways.push)).id_order, 2, 'sequential');
    });

    test('digital wallet (otp): daviplata_token_required', async () => {
      const order = await createOrder(gateways.otp);
      assert.equal(order.status, 'processing');
      assert.equal(order.daviplata_token_required, true);
    });

    test('interbank transfer: base64 PNG, transfer key and an EMVCo payload with a valid CRC', async () => {
      const order = await createOrder(gateways.transfer);
      const breb = order.payment_gateway.breb;
      assert.match(breb.key, /^BREB-SBX-000001-[0-9A-F]{6}$/);
      assert.ok(Buffer.from(breb.qr_code, 'base64').subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG');
      assert.ok(!breb.qr_code.startsWith('data:'));
      assert.ok(hasValidCrc(breb.qr_data));
      assert.ok(breb.qr_data.includes(breb.key));
    });

    test('card is not available on POST /orders: 4004 GATEWAY_NOT_SUPPORTED, no order', async () => {
      assertError(await sb.api('POST', '/v1/orders', directOrderBody(gateways.card), merchant), 400, 'GATEWAY_NOT_SUPPORTED', 4004);
      assert.equal(sb.orderCount(), 0);
    });

    test('an unknown gateway id is 4004, no order', async () => {
      assertError(await sb.api('POST', '/v1/orders', directOrderBody(77), merchant), 400, 'GATEWAY_NOT_SUPPORTED', 4004);
      assert.equal(sb.orderCount(), 0);
    });

    test('no payment gateway is 4001 PAYMENT_GATEWAY_REQUIRED', async () => {
      const { payment_gateway: _omit, ...body } = directOrderBody(gateways.push);
      assertError(await sb.api('POST', '/v1/orders', body, merchant), 400, 'PAYMENT_GATEWAY_REQUIRED', 4001);
      assert.equal(sb.orderCount(), 0);
    });

    test('the shopper needs id_number and id_type; the legacy names are accepted', async () => {
      const missing = await sb.api('POST', '/v1/orders', directOrderBody(gateways.otp, { shopper: shopper({ id_number: undefined }) }), merchant);
      assertError(missing, 400, 'VALIDATION_FAILED');
      assertFieldError(missing, 'shopper.id_number');
      const legacy = await createOrder(gateways.otp, { shopper: { national_id_number: '999', id_national_document_type: 2 } });
      assert.equal(sb.running.sandbox.state.orders.get(legacy.id_order)?.shopper.id_number, '999');
      assert.equal(sb.orderCount(), 1);
    });

    test('push needs a Colombian mobile: +57, spaces and dashes are stripped; landlines refused', async () => {
      const ok = await createOrder(gateways.push, { shopper: shopper({ phone_number: '+573105550001' }) });
      assert.equal(ok.payment_gateway.nequi.phone_number, '******0001');
      for (const phone of ['6012345678', undefined]) {
        const r = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { shopper: shopper({ phone_number: phone }) }), merchant);
        assertError(r, 400, 'VALIDATION_FAILED');
        assertFieldError(r, 'shopper.phone_number');
      }
      assert.equal(sb.orderCount(), 1);
    });

    test('amounts: within the gateway range, whole pesos, COP only on the wallets', async () => {
      const low = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { amount: 999 }), merchant);
      assertError(low, 400, 'AMOUNT_OUT_OF_RANGE');
      assertFieldError(low, 'amount');
      assertError(await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { amount: 10_000_001 }), merchant), 400, 'AMOUNT_OUT_OF_RANGE');
      assertFieldError(await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { amount: 1500.5 }), merchant), 'amount');
      const usd = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { currency: 'USD' }), merchant);
      assertError(usd, 400, 'INVALID_CURRENCY');
      assert.equal(usd.body.provided_currency, 'USD');
      assert.equal(usd.body.supported_currency, 'COP');
      assert.equal(sb.orderCount(), 0);
    });
  });

  describe('GET /orders/{orderId}', () => {
    test('returns the order in the contract shape', async () => {
      const order = await createOrder(gateways.push, { order_key: 'k-7' });
      const r = await sb.api('GET', `/v1/orders/${order.id_order}`, undefined, merchant);
      assert.equal(r.status, 200);
      assert.ok(OrderDetailsSchema.safeParse(r.body.data).success, r.text);
      assert.equal(r.body.data.id_external, 'k-7');
      assert.equal(r.body.data.total, 20_000);
      assert.equal(r.body.data.payment_method.gateway, 'nequi');
    });

    for (const bad of ['0', '-1', 'abc', '1.5']) {
      test(`orderId ${bad} is 400 with validation_errors`, async () => {
        for (const path of [`/v1/orders/${bad}`, `/v1/orders/refund/${bad}`, `/v1/orders/cancel/${bad}`]) {
          const r = await sb.api(path.includes('refund') || path.includes('cancel') ? 'POST' : 'GET', path, undefined, merchant);
          assertError(r, 400, 'VALIDATION_FAILED');
          assertFieldError(r, 'orderId');
        }
      });
    }
  });

  describe('cancel (POST /orders/cancel/{orderId})', () => {
    test('processing → cancelled, reason merchant', async () => {
      const order = await createOrder(gateways.push);
      const r = await sb.api('POST', `/v1/orders/cancel/${order.id_order}`, undefined, merchant);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.data, { id_order: order.id_order, status: 'cancelled' });
      const details = await sb.api('GET', `/v1/orders/${order.id_order}`, undefined, merchant);
      assert.equal(details.body.data.cancel_reason, 'merchant');
    });

    test('rule 1: cancelling a cancelled or confirmed order is 4011 and changes nothing', async () => {
      const cancelled = await createOrder(gateways.push);
      await sb.api('POST', `/v1/orders/cancel/${cancelled.id_order}`, undefined, merchant);
      assertError(await sb.api('POST', `/v1/orders/cancel/${cancelled.id_order}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS', 4011);
      const confirmed = await createOrder(gateways.push);
      await sb.api('POST', `/sandbox/orders/${confirmed.id_order}/approve`);
      assertError(await sb.api('POST', `/v1/orders/cancel/${confirmed.id_order}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS', 4011);
      assert.equal(await status(confirmed.id_order), 'confirmed');
    });

    test('a pending order can be cancelled (pending → cancelled row)', async () => {
      // Orders start processing over HTTP at once; a pending one exists only between creation and the gateway start.
      const order = await createOrder(gateways.push);
      const row = sb.running.sandbox.state.orders.get(order.id_order)!;
      row.status = 'pending';
      const r = await sb.api('POST', `/v1/orders/cancel/${order.id_order}`, undefined, merchant);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'cancelled');
    });
  });

  describe('refund (POST /orders/refund/{orderId})', () => {
    const confirmedOrder = async (extra: Record<string, unknown> = {}) => {
      const order = await createOrder(gateways.push, extra);
      const approved = await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`);
      assert.equal(approved.status, 200);
      return order.id_order;
    };

    test('confirmed → refunded with a result message (full refund)', async () => {
      const id = await confirmedOrder();
      const r = await sb.api('POST', `/v1/orders/refund/${id}`, undefined, merchant);
      assert.equal(r.status, 200, r.text);
      assert.equal(typeof r.body.result, 'string');
      assert.equal(await status(id), 'refunded');
      assertError(await sb.api('POST', `/v1/orders/refund/${id}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS', 4011);
    });

    test('refunding an order that is not confirmed is 4011', async () => {
      const order = await createOrder(gateways.push);
      assertError(await sb.api('POST', `/v1/orders/refund/${order.id_order}`, {}, merchant), 400, 'INVALID_ORDER_STATUS', 4011);
      assert.equal(await status(order.id_order), 'processing');
    });

    test('rule 2: older than 96 hours is 4011; just inside the window works', async () => {
      const late = await confirmedOrder();
      const inTime = await confirmedOrder();
      await sb.advance(hours(96) - 1);
      assert.equal((await sb.api('POST', `/v1/orders/refund/${inTime}`, {}, merchant)).status, 200);
      await sb.advance(2);
      assertError(await sb.api('POST', `/v1/orders/refund/${late}`, {}, merchant), 400, 'INVALID_ORDER_STATUS', 4011);
      assert.equal(await status(late), 'confirmed');
    });

    test('rule 3: partial refunds are unsupported (an amount is refused)', async () => {
      const id = await confirmedOrder();
      const r = await sb.api('POST', `/v1/orders/refund/${id}`, { amount: 1000 }, merchant);
      assertError(r, 400, 'VALIDATION_FAILED');
      assertFieldError(r, 'amount');
      assert.equal(await status(id), 'confirmed');
    });

    test('id_external must match when sent: a mismatch is 4010', async () => {
      const id = await confirmedOrder({ order_key: 'ref-1' });
      assertError(await sb.api('POST', `/v1/orders/refund/${id}`, { id_external: 'ref-2' }, merchant), 404, 'ORDER_NOT_FOUND', 4010);
      assert.equal(await status(id), 'confirmed');
      assert.equal((await sb.api('POST', `/v1/orders/refund/${id}`, { id_external: 'ref-1' }, merchant)).status, 200);
    });
  });

  describe('POST /orders/daviplata/{orderId}', () => {
    test('a test code confirms, with the live payment_method shape', async () => {
      const order = await createOrder(gateways.otp);
      const r = await sb.api('POST', `/v1/orders/daviplata/${order.id_order}`, { daviplata_otp: '000000' }, merchant);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'confirmed');
      assert.equal(r.body.data.payment_method.gateway, 'daviplata');
      assert.equal(r.body.data.payment_method.status, 'completed');
    });

    test('a wrong code is 6105 DAVIPLATA_OTP_ERROR with gateway_name', async () => {
      const order = await createOrder(gateways.otp);
      const r = await sb.api('POST', `/v1/orders/daviplata/${order.id_order}`, { daviplata_otp: '999999' }, merchant);
      assertError(r, 400, 'DAVIPLATA_OTP_ERROR', 6105);
      assert.equal(r.body.gateway_name, 'daviplata');
      assert.equal(await status(order.id_order), 'processing');
    });

    test('a code that is not 6 digits is a validation error; an order of another gateway is 4011', async () => {
      const order = await createOrder(gateways.otp);
      assertFieldError(await sb.api('POST', `/v1/orders/daviplata/${order.id_order}`, { daviplata_otp: '12' }, merchant), 'daviplata_otp');
      const push = await createOrder(gateways.push);
      assertError(await sb.api('POST', `/v1/orders/daviplata/${push.id_order}`, { daviplata_otp: '123456' }, merchant), 400, 'INVALID_ORDER_STATUS');
      assert.equal(await status(push.id_order), 'processing');
    });
  });

  describe('POST /links', () => {
    test('a standard link: hash, payment_url under checkout_url, expires_at', async () => {
      const r = await sb.api('POST', '/v1/links', { description: 'Camiseta', amount: 45_000 }, merchant);
      assert.equal(r.status, 200, r.text);
      assert.ok(CreatedLinkSchema.safeParse(r.body.data).success);
      assert.equal(r.body.data.payment_url, `${sb.origin}/checkout/${r.body.data.hash}`);
      assert.equal(Date.parse(r.body.data.expires_at) - sb.clock.now(), 7 * 24 * hours(1));
      const link = await sb.api('GET', `/v1/checkout/links/${r.body.data.hash}`);
      assert.equal(link.body.data.amount, 45_000);
    });

    test('a dynamic link omits amount; collect_shopper_data with an amount is 400', async () => {
      const dynamic = await sb.api('POST', '/v1/links', { description: 'Donación', collect_shopper_data: true, ttl_minutes: 60 }, merchant);
      assert.equal(dynamic.status, 200, dynamic.text);
      const link = await sb.api('GET', `/v1/checkout/links/${dynamic.body.data.hash}`);
      assert.equal(link.body.data.amount, undefined);
      assert.equal(link.body.data.collect_shopper_data, true);
      const before = sb.running.sandbox.state.links.size;
      const bad = await sb.api('POST', '/v1/links', { description: 'x', amount: 1000, collect_shopper_data: true }, merchant);
      assertError(bad, 400, 'VALIDATION_FAILED');
      assertFieldError(bad, 'collect_shopper_data');
      assertFieldError(await sb.api('POST', '/v1/links', { amount: 1000 }, merchant), 'description');
      assert.equal(sb.running.sandbox.state.links.size, before);
    });

    test('a partner creates a link on behalf of a connected store', async () => {
      const r = await sb.api('POST', '/v1/links', { description: 'x', amount: 5_000 }, { ...merchant, ...partner });
      assert.equal(r.status, 200, r.text);
      assert.equal(sb.running.sandbox.state.links.get(r.body.data.hash)?.id_partner, 1);
    });
  });

  describe('discovery and document types', () => {
    test('GET /orders/paymentGateways lists the four gateways with sandbox-served PNG icons, as the live service serves them', async () => {
      const r = await sb.api('GET', '/v1/orders/paymentGateways', undefined, merchant);
      assert.equal(r.status, 200);
      assert.ok(PaymentGatewayListSchema.safeParse(r.body.data).success);
      assert.deepEqual(r.body.data.map((g: Json) => [g.id_payment_gateway, g.name, g.kind]), [[1, 'Nequi', 'push'], [2, 'Daviplata', 'otp'], [9, 'Bre-B', 'transfer'], [4, 'Tarjeta', 'card']]);
      for (const g of r.body.data) {
        assert.ok(g.icon.startsWith(`${sb.origin}/sandbox/icons/`));
        const icon = await fetch(g.icon);
        assert.equal(icon.headers.get('content-type'), 'image/png');
        const bytes = Buffer.from(await icon.arrayBuffer());
        assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
        assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [64, 64], 'a 64 × 64 image');
        // The drawing it was made from stays at its .svg name.
        assert.match(await (await fetch(g.icon.replace(/\.png$/, '.svg'))).text(), /^<svg /);
      }
      assert.equal((await sb.api('GET', '/v1/orders/paymentGateways')).status, 401);
    });

    test('GET /national-document-types/CO: 1 CC, 2 CE, 3 TI', async () => {
      const r = await sb.api('GET', '/v1/national-document-types/CO', undefined, merchant);
      assert.ok(DocumentTypeListSchema.safeParse(r.body.data).success);
      assert.deepEqual(r.body.data.map((d: Json) => `${d.id_national_document_type} ${d.type}`), ['1 CC', '2 CE', '3 TI']);
      assert.deepEqual((await sb.api('GET', '/v1/national-document-types/PE', undefined, merchant)).body.data, []);
      assertFieldError(await sb.api('GET', '/v1/national-document-types/COL', undefined, merchant), 'countryCode');
    });
  });

  describe('GET /merchant/{storeId}/dashboard/stats', () => {
    // The clock moves between tests (refund window), so the range is around "now" in Colombian time.
    const day = (offsetDays: number) => new Date(sb.clock.now() - 5 * hours(1) + offsetDays * 24 * hours(1)).toISOString().slice(0, 10);
    const range = () => `?currency=COP&date_from=${day(-1)}&date_to=${day(1)}`;

    test('sums confirmed orders of the store, wrapped in result', async () => {
      const paid = await createOrder(gateways.push, { amount: 30_000 });
      await sb.api('POST', `/sandbox/orders/${paid.id_order}/approve`);
      await createOrder(gateways.push, { amount: 70_000 });
      const r = await sb.api('GET', `/v1/merchant/1/dashboard/stats${range()}`, undefined, merchant);
      assert.equal(r.status, 200, r.text);
      assert.ok(DashboardStatsSchema.safeParse(r.body.result).success, r.text);
      assert.equal(r.body.result.total_revenue, 30_000);
      assert.equal(r.body.result.total_orders, 1);
      assert.equal(r.body.result.conversion_rate, 50);
      assert.deepEqual(r.body.result.gateway_split, [{ gateway: 'nequi', tpv: 30_000, pct: 1 }]);
      assert.equal(r.body.result.daily_revenue.length, 3);
    });

    test("another store's stats are refused; the query is validated", async () => {
      assertError(await sb.api('GET', `/v1/merchant/2/dashboard/stats${range()}`, undefined, merchant), 401, 'INSUFFICIENT_SCOPE');
      const bad = await sb.api('GET', '/v1/merchant/1/dashboard/stats?currency=COP&date_from=yesterday', undefined, merchant);
      assertError(bad, 400, 'VALIDATION_FAILED');
      assertFieldError(bad, 'date_from');
      assertFieldError(bad, 'date_to');
    });

    test('impossible calendar dates are refused', async () => {
      const bad = await sb.api('GET', '/v1/merchant/1/dashboard/stats?currency=COP&date_from=2026-02-29&date_to=2026-02-31', undefined, merchant);
      assertError(bad, 400, 'VALIDATION_FAILED');
      assertFieldError(bad, 'date_from');
      assertFieldError(bad, 'date_to');
    });
  });
});
