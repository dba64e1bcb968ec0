// Keys and environments, nullable fields, and error messages a merchant can act on: the clients against the real
// sandbox over HTTP, and a fetch that records whether anything was sent.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { InvalidRequestError, MerchantClient, NetworkError, PartnerClient, TimeoutError, baseUrls } from '../../src/client/index.js';
import { createCheckoutHandler } from '../../src/server/index.js';
import { directOrderBody, gateways, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

/** A fetch that fails the test if it is ever called: "before anything is sent". */
const mustNotSend: typeof fetch = () => assert.fail('a request was sent');

function refusal(make: () => unknown): InvalidRequestError {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError, String(error));
    return error;
  }
  assert.fail('expected InvalidRequestError');
}

describe('a key whose prefix contradicts the environment is refused before anything is sent', () => {
  it('a test merchant key with no base URL (production) or the production URL', () => {
    for (const options of [{}, { environment: 'production' as const }, { baseUrl: baseUrls.production }]) {
      const error = refusal(() => new MerchantClient({ merchantKey: 'mk_test_demo', fetch: mustNotSend, ...options }));
      assert.equal(error.problems[0]?.field, 'merchantKey');
      assert.match(error.message, /test key \(mk_test_…\) but the base URL is production \(https:\/\/api\.wava\.co\/v1\); pass baseUrl/);
      assert.doesNotMatch(error.message, /mk_test_demo/, 'the key itself is never in the message');
    }
  });

  it('a live key against the sandbox (loopback) or the development service', () => {
    for (const baseUrl of ['http://127.0.0.1:4010/v1', 'http://localhost:5173/v1', baseUrls.development]) {
      const error = refusal(() => new MerchantClient({ merchantKey: 'mk_live_abc', baseUrl, fetch: mustNotSend }));
      assert.match(error.message, /live key \(mk_live_…\) but the base URL .* is a sandbox or development service/);
    }
  });

  it('partner keys too, directly and when acting for a store', () => {
    assert.equal(refusal(() => new PartnerClient({ apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo', fetch: mustNotSend })).problems[0]?.field, 'apiKey');
    assert.equal(refusal(() => new PartnerClient({ apiKey: 'pk_other', apiSecret: 'sk_live_x', baseUrl: 'http://127.0.0.1:1/v1' })).problems[0]?.field, 'apiSecret');
    const partner = new PartnerClient({ apiKey: 'pk_any', apiSecret: 'sk_any', fetch: mustNotSend });
    assert.equal(refusal(() => partner.forMerchant('mk_test_demo')).problems[0]?.field, 'merchantKey');
  });

  it('the server handler: createCheckoutHandler() with a test key and no base URL throws at once', () => {
    assert.throws(() => createCheckoutHandler({ merchantKey: 'mk_test_demo', resolveLink: () => null, fetch: mustNotSend }), /merchantKey is a test key/);
  });

  it('matching and unprefixed keys are accepted anywhere they may be right', () => {
    assert.ok(new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl: 'http://127.0.0.1:4010/v1' }));
    assert.ok(new MerchantClient({ merchantKey: 'mk_test_demo', environment: 'development' }));
    assert.ok(new MerchantClient({ merchantKey: 'mk_live_abc' }));
    assert.ok(new MerchantClient({ merchantKey: 'f0a1b2c3d4', baseUrl: 'https://shop.example/v1' }));
    assert.ok(new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl: 'https://proxy.shop.example/v1' }), 'a host we cannot judge is not refused');
  });
});

describe('clients against the sandbox: nullable id_external, actionable network errors', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());

  it("refund(id, { id_external: order.id_external }) takes the order's own nullable id_external", async () => {
    const merchant = new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1` });
    const withKey = await merchant.createOrder(directOrderBody(gateways.otp));
    await merchant.submitOtp(withKey.id_order, '123456');
    const order = await merchant.getOrder(withKey.id_order);
    assert.equal(typeof order.id_external, 'string');
    assert.equal(await merchant.refund(order.id_order, { id_external: order.id_external }), 'Refund processed successfully');

    const { order_key: _unused, ...noKey } = directOrderBody(gateways.otp);
    const created = await merchant.createOrder(noKey);
    await merchant.submitOtp(created.id_order, '123456');
    const keyless = await merchant.getOrder(created.id_order);
    assert.equal(keyless.id_external, null);
    assert.equal(await merchant.refund(keyless.id_order, { id_external: keyless.id_external }), 'Refund processed successfully');
    assert.equal((await merchant.getOrder(keyless.id_order)).status, 'refunded');
  });

  it('the sandbox itself answers an unknown or live merchant key with what to use instead (for curl and other languages)', async () => {
    const unknown = await sb.api('GET', '/v1/orders/1', undefined, { 'merchant-key': 'mk_test_nope' });
    assert.equal(unknown.status, 401);
    assert.match(unknown.body.description, /^No store of this sandbox has this merchant key; GET \/sandbox\/fixtures lists them \(the demo store's is mk_test_demo\)/);
    const live = await sb.api('GET', '/v1/orders/1', undefined, { 'merchant-key': 'mk_live_0123' });
    assert.match(live.body.description, /^This is the sandbox: a live key never works here\. /);
    assert.doesNotMatch(live.text, /mk_live_0123/);
  });

  it('a refused connection says what was tried, where, the reason and what to check', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const merchant = new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl: `http://127.0.0.1:${port}/v1` });
    const error = await merchant.getOrder(7).then(() => assert.fail('answered'), (e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.request, `GET http://127.0.0.1:${port}/v1/orders/7`);
    assert.match(error.message, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/v1/orders/7 got no answer \\(.*ECONNREFUSED.*\\)\\. Check that the payment service runs at http://127\\.0\\.0\\.1:${port} \\(the sandbox: npx pay-checkout sandbox\\)`));
    assert.match(error.message, /CORS/);
    assert.doesNotMatch(error.message, /mk_test_demo/);
  });

  it('a timeout names the request, the limit and what to change', async () => {
    await sb.api('POST', '/sandbox/faults', { path: '/v1/orders/*', method: 'GET', count: 1, mode: 'latency', latency_ms: 2_000 });
    const merchant = new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, timeoutMs: 100 });
    const error = await merchant.getOrder(1).then(() => assert.fail('answered'), (e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.match(error.message, new RegExp(`^GET ${sb.origin}/v1/orders/1 got no answer within 100 ms\\. Check that the payment service at ${sb.origin} is up and reachable, or raise timeoutMs\\.$`));
    await sb.api('DELETE', '/sandbox/faults');
  });
});
