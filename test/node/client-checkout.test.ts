import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { CheckoutClient, InvalidRequestError, baseUrls, resolveBaseUrl } from '../../src/client/index.js';
import { FakeService } from './client-server.js';

const at = '2025-06-01T12:05:00.000Z';
const link = {
  hash: 'demo-fixed',
  store_name: 'Tienda Demo',
  description: 'Camiseta talla M',
  amount: 50000,
  currency: 'COP',
  status: 'active',
  expires_at: null,
  collect_shopper_data: false,
  gateways: [
    { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp', required_fields: [], id_types: [1, 2, 3], min_amount: 1000, max_amount: 5000000, icon: 'https://example.test/d.png' },
  ],
  document_types: [{ id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' }],
};
const order = {
  id_order: 7,
  status: 'processing',
  amount: 50000,
  currency: 'COP',
  gateway: { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp' },
  created_at: at,
  next_action: { type: 'enter_otp', length: 6, expires_at: at, attempts_left: 3 },
};
const token = 'tok_0123456789abcdef';

describe('CheckoutClient (real HTTP server)', () => {
  const service = new FakeService();
  let client: CheckoutClient;

  before(async () => {
    await service.start();
    client = new CheckoutClient({ baseUrl: `${service.baseUrl}/` });
  });
  afterEach(() => {
    service.received.length = 0;
  });
  after(() => service.stop());

  it('getLink unwraps and validates the link; the hash is path-encoded', async () => {
    service.on('GET /v1/checkout/links/demo-fixed', { body: { data: link } });
    assert.deepEqual(await client.getLink('demo-fixed'), link);
    const req = service.only();
    assert.equal(req.headers.accept, 'application/json');
    assert.equal(req.headers['merchant-key'], undefined, 'the buyer API carries no secrets');
    service.received.length = 0;
    await client.getLink('a/b?c').catch(() => undefined);
    assert.equal(service.only().url, '/v1/checkout/links/a%2Fb%3Fc');
  });

  it('createOrder sends Idempotency-Key and the normalized body, and returns the token', async () => {
    service.on('POST /v1/checkout/links/demo-fixed/orders', { status: 201, body: { data: { ...order, order_token: token } } });
    const created = await client.createOrder(
      'demo-fixed',
      { payment_gateway: { id_payment_gateway: 2 }, shopper: { national_id_number: '12345678', id_national_document_type: 1 } },
      'idem-key-1',
    );
    assert.equal(created.order_token, token);
    assert.equal(created.next_action?.type, 'enter_otp');
    const req = service.only();
    assert.equal(req.method, 'POST');
    assert.equal(req.headers['idempotency-key'], 'idem-key-1');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req.body), { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } });
  });

  it('createOrder without an Idempotency-Key is refused before sending', async () => {
    await assert.rejects(
      client.createOrder('demo-fixed', { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '1', id_type: 1 } }, ''),
      (e: unknown) => e instanceof InvalidRequestError && e.problems[0]?.field === 'Idempotency-Key',
    );
    assert.equal(service.received.length, 0);
  });

  it('getOrder, submitOtp and cancelOrder send X-Order-Token', async () => {
    service.on('GET /v1/checkout/orders/7', { body: { data: order } });
    service.on('POST /v1/checkout/orders/7/otp', { body: { data: { ...order, status: 'confirmed', next_action: null } } });
    service.on('POST /v1/checkout/orders/7/cancel', { body: { data: { ...order, status: 'cancelled', cancel_reason: 'buyer', next_action: null } } });

    assert.equal((await client.getOrder(7, token)).status, 'processing');
    assert.equal((await client.submitOtp(7, token, '123456')).status, 'confirmed');
    assert.equal((await client.cancelOrder(7, token)).cancel_reason, 'buyer');

    assert.deepEqual(service.received.map((r) => `${r.method} ${r.url}`), [
      'GET /v1/checkout/orders/7',
      'POST /v1/checkout/orders/7/otp',
      'POST /v1/checkout/orders/7/cancel',
    ]);
    for (const r of service.received) assert.equal(r.headers['x-order-token'], token);
    assert.deepEqual(JSON.parse(service.received[1]?.body ?? ''), { daviplata_otp: '123456' });
  });
});

describe('base URL', () => {
  it('per environment, or explicit', () => {
    assert.equal(resolveBaseUrl({}), 'https://api.wava.co/v1');
    assert.equal(resolveBaseUrl({ environment: 'production' }), baseUrls.production);
    assert.equal(resolveBaseUrl({ environment: 'development' }), 'https://api.dev.wava.co/v1');
    assert.equal(resolveBaseUrl({ environment: 'development', baseUrl: 'http://127.0.0.1:5173/v1/' }), 'http://127.0.0.1:5173/v1');
  });

  it('the injected fetch receives the environment URL and a signal', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(input), init });
      return new Response(JSON.stringify({ data: link }), { status: 200 });
    };
    const client = new CheckoutClient({ environment: 'development', fetch });
    await client.getLink('demo-fixed');
    assert.equal(seen[0]?.url, 'https://api.dev.wava.co/v1/checkout/links/demo-fixed');
    assert.ok(seen[0]?.init?.signal instanceof AbortSignal);
  });
});
