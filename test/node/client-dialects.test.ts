/**
 * The merchant client reads every shape the live service is documented or observed to answer in
 * (live-service-facts §12–13), from a stand-in on a real socket; what money depends on is still required.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { InvalidResponseError, MerchantClient, ServiceError, type DialectReport } from '../../src/client/index.js';
import { FakeService } from './client-server.js';

const order = { id_order: 42, id_external: 'order-42', status: 'CONFIRMED', amount: 50000, currency: 'COP', created_at: '2025-06-01T12:00:00.000Z', extra_field: 'kept' };
const gateway = { id_payment_gateway: 1, name: 'Nequi', required_fields: ['phone_number'], icon: 'https://x.test/n.png' };

describe('merchant client: the live service dialects (real HTTP stand-in)', () => {
  const service = new FakeService();
  let reports: DialectReport[];
  let merchant: MerchantClient;

  before(() => service.start());
  afterEach(() => {
    service.received.length = 0;
  });
  after(() => service.stop());

  const fresh = () => {
    reports = [];
    // A new client per test: reports are once per client.
    merchant = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo', timeoutMs: 2_000, onDialect: (r) => reports.push(r) });
  };

  it('reads `result` envelopes, `{payment_gateways}`, `{link, hash, wallet_id}`, amount/created_at and any-case status', async () => {
    fresh();
    service
      .on('GET /v1/orders/42', { body: { result: order } })
      .on('GET /v1/orders/paymentGateways', { body: { result: { payment_gateways: [gateway] } } })
      .on('POST /v1/links', { body: { result: { link: 'https://pay.dev.wava.co/abc123', hash: 'abc123', wallet_id: null } } });
    const details = await merchant.getOrder(42);
    assert.equal(details.total, 50000);
    assert.equal(details.purchase_date, '2025-06-01T12:00:00.000Z');
    assert.equal(details.status, 'confirmed');
    assert.equal(details.extra_field, 'kept', 'unknown fields pass through');
    assert.deepEqual(await merchant.paymentGateways(), [gateway]);
    const link = await merchant.createLink({ description: 'Donación' });
    assert.equal(link.payment_url, 'https://pay.dev.wava.co/abc123');
    assert.equal(link.hash, 'abc123');
    assert.equal(link.payment_link_id, undefined);
    assert.deepEqual(reports.map((r) => r.variant).sort(), ['amount_field', 'created_at_field', 'gateways_object', 'link_field', 'result_envelope', 'status_case']);
    assert.equal(reports.find((r) => r.variant === 'result_envelope')?.route, 'GET /orders/42');
  });

  it('reports each variant once per client, however many answers use it; a second client is told again', async () => {
    fresh();
    service.on('GET /v1/orders/42', { body: { result: order } });
    const told: DialectReport[] = [];
    const onDialect = (r: DialectReport) => told.push(r);
    const first = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo', onDialect });
    for (let i = 0; i < 3; i++) await first.getOrder(42);
    const again = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo', onDialect });
    assert.equal(told.length, 4);
    await again.getOrder(42);
    assert.equal(told.length, 8, 'a second client, even with the same callback, is told too');
    await again.getOrder(42);
    assert.equal(told.length, 8, 'and once only');
  });

  it('reads a bare body, and a non-ISO created_at as ISO', async () => {
    fresh();
    service.on('GET /v1/orders/42', { body: { ...order, status: 'processing', created_at: '2025-06-01 12:00:00Z' } });
    const details = await merchant.getOrder(42);
    assert.equal(details.purchase_date, '2025-06-01T12:00:00.000Z');
    assert.equal(details.id_external, 'order-42');
    assert.ok(reports.some((r) => r.variant === 'bare_envelope'));
  });

  it('what money depends on is still required: no id, an unknown status or no amount is an InvalidResponseError', async () => {
    fresh();
    const { id_order: _i, ...noId } = order;
    const { amount: _a, ...noAmount } = order;
    for (const [body, field] of [
      [{ result: noId }, 'result.id_order'],
      [{ result: { ...order, status: 'paid-ish' } }, 'result.status'],
      [{ result: noAmount }, 'result.total'],
      [{ data: { ...order, amount: '50000' } }, 'data.total'],
    ] as const) {
      service.on('GET /v1/orders/42', { body });
      await assert.rejects(merchant.getOrder(42), (error: unknown) => error instanceof InvalidResponseError && error.problems.some((p) => p.field === field));
    }
    service.on('POST /v1/orders/cancel/42', { body: { result: { status: 'cancelled' } } });
    await assert.rejects(merchant.cancel(42), InvalidResponseError);
  });

  it('cancel tries PUT /orders/{id}/cancel after a foreign 404 on the documented route, and keeps using it', async () => {
    fresh();
    const framework404 = { status: 404, body: { statusCode: 404, message: 'Cannot POST /v1/orders/cancel/42', error: 'Not Found' } };
    service.on('POST /v1/orders/cancel/42', framework404).on('PUT /v1/orders/42/cancel', { body: { result: { id_order: 42, status: 'Cancelled' } } });
    assert.deepEqual(await merchant.cancel(42), { id_order: 42, status: 'cancelled' });
    assert.deepEqual(await merchant.cancel(42), { id_order: 42, status: 'cancelled' });
    assert.deepEqual(service.received.map((r) => `${r.method} ${r.url}`), ['POST /v1/orders/cancel/42', 'PUT /v1/orders/42/cancel', 'PUT /v1/orders/42/cancel']);
    assert.ok(reports.some((r) => r.variant === 'cancel_put_route' && r.route === 'PUT /orders/42/cancel'));
  });

  it("a contract 404 on cancel is the service's answer (no second route); neither route existing names the documented one", async () => {
    fresh();
    service.on('POST /v1/orders/cancel/7', { status: 404, body: { code: 4010, api_code: 'ORDER_NOT_FOUND', message: 'No.', error: true } });
    await assert.rejects(merchant.cancel(7), (e: unknown) => e instanceof ServiceError && e.code === 4010);
    assert.equal(service.received.length, 1);
    service.received.length = 0;
    service.on('POST /v1/orders/cancel/8', { status: 404, body: '<html>Not Found</html>' }).on('PUT /v1/orders/8/cancel', { status: 405, body: '<html>Method Not Allowed</html>' });
    await assert.rejects(merchant.cancel(8), (e: unknown) => e instanceof ServiceError && e.message === 'The payment service answered HTTP 404 to POST /orders/cancel/8 without its error body.');
    assert.equal(service.received.length, 2);
  });

  it("a failure with the service's code and message but no `error: true` keeps its code and validation errors", async () => {
    fresh();
    service.on('GET /v1/orders/42', { status: 400, body: { code: 2006, api_code: 'INVALID_EMAIL', message: 'The email address is invalid.', validation_errors: [{ field: 'shopper.email', message: 'is invalid' }] } });
    await assert.rejects(merchant.getOrder(42), (e: unknown) => e instanceof ServiceError && e.serviceBody && e.code === 2006 && e.validationErrors[0]?.field === 'shopper.email');
  });

  it('the contract dialect reports nothing', async () => {
    fresh();
    service.on('GET /v1/orders/42', { body: { data: { ...order, status: 'confirmed', total: 50000, purchase_date: order.created_at, amount: undefined, created_at: undefined } } });
    assert.equal((await merchant.getOrder(42)).total, 50000);
    assert.deepEqual(reports, []);
  });
});
