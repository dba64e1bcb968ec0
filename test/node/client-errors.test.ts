import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  AbortedError,
  CheckoutLinkClient,
  InvalidRequestError,
  InvalidResponseError,
  MerchantClient,
  NetworkError,
  PayCheckoutError,
  ServiceError,
  TimeoutError,
} from '../../src/client/index.js';
import { readLinkAnswer } from '../../src/client/checkout-link.js';
import { FakeService } from './client-server.js';

const orderPath = '/v1/orders/42';
const details = {
  id_order: 42,
  id_external: 'order-42',
  purchase_date: '2025-06-01T12:00:00.000Z',
  status: 'confirmed',
  total: 50000,
  currency: 'COP',
};

/** Runs `call` and returns what it threw, asserting it is one of ours. */
async function failure<E extends PayCheckoutError>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof PayCheckoutError, `not a PayCheckoutError: ${String(error)}`);
    assert.ok(error instanceof type, `expected ${type.name}, got ${(error as Error).name}: ${(error as Error).message}`);
    return error;
  }
  assert.fail(`expected ${type.name}, but the call succeeded`);
}

describe('client error mapping (real HTTP server)', () => {
  const service = new FakeService();
  let client: MerchantClient;

  before(async () => {
    await service.start();
    client = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo', timeoutMs: 2_000 });
  });
  afterEach(() => {
    service.received.length = 0;
  });
  after(() => service.stop());

  it('401 with 4007 is a ServiceError with code, apiCode and status', async () => {
    service.on(`GET ${orderPath}`, {
      status: 401,
      body: { code: 4007, api_code: 'INVALID_MERCHANT_KEY', message: 'The merchant key is invalid or expired.', description: 'Check the key', error: true },
    });
    const error = await failure(client.getOrder(42), ServiceError);
    assert.equal(error.kind, 'service');
    assert.equal(error.code, 4007);
    assert.equal(error.apiCode, 'INVALID_MERCHANT_KEY');
    assert.equal(error.status, 401);
    assert.equal(error.message, 'The merchant key is invalid or expired.');
    assert.equal(error.description, 'Check the key');
  });

  it('404 with 4010 is ORDER_NOT_FOUND', async () => {
    service.on(`GET ${orderPath}`, { status: 404, body: { code: 4010, api_code: 'ORDER_NOT_FOUND', message: 'Not found', error: true } });
    const error = await failure(client.getOrder(42), ServiceError);
    assert.equal(error.code, 4010);
    assert.equal(error.status, 404);
  });

  it('500 with 7001 is INTERNAL_SERVER_ERROR', async () => {
    service.on(`GET ${orderPath}`, { status: 500, body: { code: 7001, api_code: 'INTERNAL_SERVER_ERROR', message: 'Boom', error: true } });
    const error = await failure(client.getOrder(42), ServiceError);
    assert.equal(error.code, 7001);
    assert.equal(error.status, 500);
  });

  it('keeps validation errors and the gateway name', async () => {
    service.on('POST /v1/orders/daviplata/42', {
      status: 400,
      body: {
        code: 6105,
        api_code: 'DAVIPLATA_OTP_ERROR',
        message: 'Invalid or expired OTP',
        error: true,
        gateway_name: 'daviplata',
        validation_errors: [{ field: 'daviplata_otp', message: 'wrong code', value: '999999' }],
      },
    });
    const error = await failure(client.submitOtp(42, '999999'), ServiceError);
    assert.equal(error.gatewayName, 'daviplata');
    assert.deepEqual(error.validationErrors, [{ field: 'daviplata_otp', message: 'wrong code' }]);
  });

  // A failure without the service's error body is said plainly, with the HTTP status and the route.
  it('a 502 HTML page is a ServiceError naming the HTTP status and the route, not a schema complaint', async () => {
    service.on(`GET ${orderPath}`, { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
    const error = await failure(client.getOrder(42), ServiceError);
    assert.equal(error.kind, 'service');
    assert.equal(error.status, 502);
    assert.equal(error.serviceBody, false);
    assert.equal(error.route, 'GET /orders/42');
    assert.equal(error.message, 'The payment service answered HTTP 502 to GET /orders/42 without its error body.');
  });

  it("a 4xx framework body ({statusCode, message}) is a ServiceError quoting its words, naming no schema field", async () => {
    service.on(`GET ${orderPath}`, { status: 403, body: { statusCode: 403, message: 'Forbidden' } });
    const error = await failure(client.getOrder(42), ServiceError);
    assert.equal(error.status, 403);
    assert.equal(error.code, 0);
    assert.equal(error.apiCode, 'HTTP_403');
    assert.equal(error.message, 'The payment service answered HTTP 403 to GET /orders/42 without its error body (it said: "Forbidden").');
    assert.doesNotMatch(error.message, /is required|must be/);
  });

  it('a 200 missing a required field is an InvalidResponseError naming the field', async () => {
    const { id_order: _drop, ...withoutId } = details;
    service.on(`GET ${orderPath}`, { body: { data: withoutId } });
    const error = await failure(client.getOrder(42), InvalidResponseError);
    assert.equal(error.status, 200);
    assert.deepEqual(error.problems.map((p) => p.field), ['data.id_order']);
    assert.match(error.message, /data\.id_order/);
  });

  it("a link answer that breaks the schema: the clients word each problem, the element's link reader names its issue code", async () => {
    const link = {
      hash: 'h1',
      store_name: 'Tienda',
      description: 'Pedido',
      amount: 50000,
      currency: 'COP',
      status: 'active',
      expires_at: null,
      collect_shopper_data: false,
      gateways: [{ id_payment_gateway: 1, name: 'Nequi', kind: 'crypto', required_fields: [], id_types: [1], min_amount: 1, max_amount: 9, icon: '' }],
      document_types: [],
    };
    const { store_name: _drop, ...withoutStore } = link;
    const text = JSON.stringify({ data: withoutStore });
    service.on('GET /v1/checkout/links/h1', { body: JSON.parse(text) as unknown });
    const worded = await failure(new CheckoutLinkClient({ baseUrl: service.baseUrl }).getLink('h1'), InvalidResponseError);
    assert.deepEqual(worded.problems, [
      { field: 'data.store_name', message: 'is required' },
      { field: 'data.gateways.0.kind', message: 'must be one of "push", "otp", "transfer", "card"' },
    ]);
    let coded: unknown;
    try {
      readLinkAnswer({ status: 200, text });
    } catch (error) {
      coded = error;
    }
    assert.ok(coded instanceof InvalidResponseError);
    assert.deepEqual(coded.problems, [
      { field: 'data.store_name', message: 'invalid type' },
      { field: 'data.gateways.0.kind', message: 'invalid value' },
    ]);
    assert.equal(coded.message, 'The service sent a response we could not read (HTTP 200): data.store_name invalid type; data.gateways.0.kind invalid value');
    // The same reader still tells a service error from a broken answer.
    assert.throws(() => readLinkAnswer({ status: 404, text: JSON.stringify({ code: 4019, api_code: 'LINK_NOT_FOUND', message: 'No.', error: true }) }), ServiceError);
  });

  // The live service may answer without the wrapper; what money depends on is still required.
  it('a 200 without the data wrapper is read; one missing its id, or empty, is an InvalidResponseError', async () => {
    service.on(`GET ${orderPath}`, { body: details });
    assert.deepEqual(await client.getOrder(42), details);
    const { id_order: _drop, ...withoutId } = details;
    service.on(`GET ${orderPath}`, { body: withoutId });
    assert.deepEqual((await failure(client.getOrder(42), InvalidResponseError)).problems.map((p) => p.field), ['id_order']);
    service.on(`GET ${orderPath}`, { status: 200 });
    assert.deepEqual((await failure(client.getOrder(42), InvalidResponseError)).problems, []);
  });

  it('a 2xx carrying an ErrorResponse is a ServiceError', async () => {
    service.on(`GET ${orderPath}`, { status: 200, body: { code: 7001, message: 'Boom', error: true } });
    assert.equal((await failure(client.getOrder(42), ServiceError)).code, 7001);
  });

  it('no answer within timeoutMs is a TimeoutError', async () => {
    service.on(`GET ${orderPath}`, { hang: true });
    const quick = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo', timeoutMs: 200 });
    const started = Date.now();
    const error = await failure(quick.getOrder(42), TimeoutError);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.timeoutMs, 200);
    assert.ok(Date.now() - started < 1_500, 'gave up near the timeout');
  });

  it("the caller's signal aborts with an AbortedError, before or during the request", async () => {
    service.on(`GET ${orderPath}`, { hang: true });
    const controller = new AbortController();
    const pending = client.getOrder(42, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    assert.equal((await failure(pending, AbortedError)).kind, 'aborted');
    const beforeCount = service.received.length;
    await failure(client.getOrder(42, { signal: AbortSignal.abort() }), AbortedError);
    assert.equal(service.received.length, beforeCount, 'an already aborted call sends nothing');
  });

  it('a refused connection is a NetworkError', async () => {
    const closed = new FakeService();
    await closed.start();
    await closed.stop();
    const offline = new MerchantClient({ baseUrl: closed.baseUrl, merchantKey: 'mk_test_demo' });
    assert.equal((await failure(offline.getOrder(42), NetworkError)).kind, 'network');
  });

  it('an injected fetch that throws is a NetworkError, not a crash', async () => {
    const broken = new MerchantClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      merchantKey: 'mk_test_demo',
      fetch: () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await failure(broken.getOrder(42), NetworkError);
    assert.ok(error.cause instanceof TypeError);
  });

  it('arguments that break the contract reject with InvalidRequestError and send nothing', async () => {
    assert.deepEqual((await failure(client.getOrder(0), InvalidRequestError)).problems, [{ field: 'orderId', message: 'must be an integer of at least 1' }]);
    assert.equal((await failure(client.submitOtp(42, '12'), InvalidRequestError)).problems[0]?.field, 'daviplata_otp');
    const link = await failure(client.createLink({ description: '', amount: 5000, collect_shopper_data: true }), InvalidRequestError);
    assert.deepEqual(link.problems.map((p) => p.field).sort(), ['collect_shopper_data', 'description']);
    assert.equal(service.received.length, 0);
  });
});
