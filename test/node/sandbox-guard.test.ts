// The sandbox on a developer's machine refuses what a hostile page could make a browser send it: a foreign Host (DNS
// rebinding), cross-site writes and non-JSON control bodies, a card page return to a foreign origin, a webhook forward
// to any loopback service. The buyer API keeps answering every origin. Real sockets; Host is set with node:http,
// since fetch may not.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { assertError, assertFieldError, checkoutOrder, gateways, startTestSandbox, type Reply, type TestSandbox } from './sandbox-harness.js';

/** One request with any headers (Host included), over a real socket. */
function send(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox guard', () => {
  let sb: TestSandbox;
  let port: string;
  before(async () => {
    sb = await startTestSandbox();
    port = new URL(sb.origin).port;
  });
  after(() => sb.close());
  // A paid order pays the fixed link: each test starts from the fixtures.
  beforeEach(() => sb.reset());

  const pushOrder = async () => {
    const r = await checkoutOrder(sb, 'demo-fixed', gateways.push);
    assert.equal(r.status, 201, r.text);
    return r.body.data.id_order as number;
  };
  const statusOf = (id: number) => sb.running.sandbox.state.orders.get(id)?.status;

  test('a Host it does not serve (DNS rebinding) reads no order and no page; loopback names and the bound address do', async () => {
    const id = await pushOrder();
    for (const host of [`evil.example:${port}`, `rebind.attacker.test`, `127.0.0.1.nip.io:${port}`, `localhost.evil.example:${port}`]) {
      for (const path of [`/sandbox/orders/${id}`, '/sandbox/fixtures', '/', '/onboarding?platform=demo-partner', '/checkout/demo-fixed']) {
        const r = await send(sb.origin, 'GET', path, { host });
        assertError(r, 403, 'REQUEST_NOT_ALLOWED', 1006);
        assert.doesNotMatch(r.text, /otp|mk_test_demo/);
      }
    }
    const refused = await send(sb.origin, 'POST', `/sandbox/orders/${id}/approve`, { host: `evil.example:${port}` });
    assertError(refused, 403, 'REQUEST_NOT_ALLOWED');
    assert.equal(statusOf(id), 'processing', 'still waiting for the buyer');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `localhost:8000`, `app.localhost:${port}`, `[::1]:${port}`]) {
      assert.equal((await send(sb.origin, 'GET', `/sandbox/orders/${id}`, { host })).status, 200, host);
    }
  });

  test('the buyer API answers any Host and any Origin, with CORS', async () => {
    const r = await send(sb.origin, 'GET', '/v1/checkout/links/demo-fixed', { host: `shop.example:${port}`, origin: 'https://evil.example' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
  });

  test('a cross-site write is refused: a foreign Origin, a text/plain body, Sec-Fetch-Site cross-site, Origin null', async () => {
    const id = await pushOrder();
    const pay = `/sandbox/orders/${id}/approve`;
    assertError(await send(sb.origin, 'POST', pay, { origin: 'https://evil.example', 'content-type': 'text/plain' }, '{}'), 403, 'REQUEST_NOT_ALLOWED');
    assertError(await send(sb.origin, 'POST', pay, { origin: 'https://evil.example' }), 403, 'REQUEST_NOT_ALLOWED');
    assertError(await send(sb.origin, 'POST', pay, { origin: 'null' }), 403, 'REQUEST_NOT_ALLOWED');
    assertError(await send(sb.origin, 'POST', pay, { 'sec-fetch-site': 'cross-site' }), 403, 'REQUEST_NOT_ALLOWED');
    // A loopback page (another port, the demo, a test runner) may, but only with JSON (a form or text/plain needs no preflight).
    assertError(await send(sb.origin, 'POST', pay, { origin: 'http://localhost:5173', 'content-type': 'text/plain' }, '{}'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await send(sb.origin, 'POST', pay, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await send(sb.origin, 'POST', '/sandbox/reset', { origin: 'https://evil.example', 'content-type': 'application/json' }, '{}'), 403, 'REQUEST_NOT_ALLOWED');
    // A foreign page cannot read the control API either (the OTP codes).
    assertError(await send(sb.origin, 'GET', `/sandbox/orders/${id}`, { origin: 'https://evil.example' }), 403, 'REQUEST_NOT_ALLOWED');
    assert.equal(statusOf(id), 'processing', 'still waiting for the buyer');
    // curl -X POST (no body, no Origin) and a loopback page sending JSON both work.
    assert.equal((await send(sb.origin, 'POST', pay, { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8000', 'content-type': 'application/json' }, '{}')).status, 200);
    assert.equal(statusOf(id), 'confirmed');
    await sb.reset();
    const second = await pushOrder();
    assert.equal((await send(sb.origin, 'POST', `/sandbox/orders/${second}/decline`)).status, 200);
    assert.equal(statusOf(second), 'cancelled');
  });

  test('the card page returns only to a loopback or the sandbox origin: a buyer-sent return_url elsewhere is refused', async () => {
    const before = sb.orderCount();
    for (const url of ['https://phish.example/gracias', 'https://evil.example:443/', 'http://127.0.0.1.evil.example/']) {
      const r = await checkoutOrder(sb, 'demo-fixed', gateways.card, { extra: { return_url: url } });
      assertError(r, 400, 'VALIDATION_FAILED');
      assertFieldError(r, 'return_url');
    }
    assert.equal(sb.orderCount(), before, 'no order made');
    const ok = await checkoutOrder(sb, 'demo-fixed', gateways.card, { extra: { return_url: `${sb.origin}/checkout/demo-fixed` } });
    assert.equal(ok.status, 201, ok.text);
    // The card form posts from its own page: its origin is the sandbox's (the page's referrer policy lets the browser say so).
    const page = await send(sb.origin, 'GET', new URL(ok.body.data.next_action.url).pathname);
    assert.equal(page.headers.get('referrer-policy'), 'same-origin');
    const form = await send(sb.origin, 'POST', new URL(ok.body.data.next_action.url).pathname, { origin: sb.origin, 'content-type': 'application/x-www-form-urlencoded' }, 'card_number=4242424242424242');
    assert.equal(form.status, 303, form.text);
    assert.equal(form.headers.get('location'), `${sb.origin}/checkout/demo-fixed`);
  });
});

describe('sandbox guard, configured', () => {
  let running: RunningSandbox;
  before(async () => {
    running = await startSandbox({
      port: 0,
      defaultReceiver: false,
      publicUrl: 'https://pay-sandbox.tunnel.example',
      guard: { allowedHosts: ['sandbox.lan'], allowedOrigins: ['https://shop.example'], allowedForwards: ['http://127.0.0.1:3000/hooks'] },
    });
  });
  after(() => running.close());
  const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const { body: text, ...type } = json(body);
    return send(running.url, 'POST', path, { ...type, ...headers }, text);
  };

  test('an allowed host name and the public URL host answer; others still do not', async () => {
    assert.equal((await send(running.url, 'GET', '/sandbox/fixtures', { host: 'sandbox.lan:4010' })).status, 200);
    assert.equal((await send(running.url, 'GET', '/sandbox/fixtures', { host: 'pay-sandbox.tunnel.example' })).status, 200);
    assertError(await send(running.url, 'GET', '/sandbox/fixtures', { host: 'other.lan' }), 403, 'REQUEST_NOT_ALLOWED');
  });

  test('an allowed origin may use the control API and is a card page return', async () => {
    assert.equal((await post('/sandbox/clock', { advance_ms: 1 }, { origin: 'https://shop.example' })).status, 200);
    assertError(await post('/sandbox/clock', { advance_ms: 1 }, { origin: 'https://shop.example.evil.test' }), 403, 'REQUEST_NOT_ALLOWED');
    const order = { payment_gateway: { id_payment_gateway: gateways.card }, shopper: { id_number: '12345678', id_type: 1 } };
    const r = await post('/v1/checkout/links/demo-fixed/orders', { ...order, return_url: 'https://shop.example/gracias' }, { 'idempotency-key': 'guard-1' });
    assert.equal(r.status, 201, r.text);
    assertFieldError(await post('/v1/checkout/links/demo-fixed/orders', { ...order, return_url: 'https://other.example/' }, { 'idempotency-key': 'guard-2' }), 'return_url');
  });

  test('only the named forward targets (and the sandbox itself) are accepted', async () => {
    assert.equal((await post('/sandbox/forward', { url: 'http://127.0.0.1:3000/hooks' })).status, 200);
    for (const url of ['http://127.0.0.1:6379/', 'http://localhost:3000/other', 'http://127.0.0.1:3001/hooks']) {
      assertFieldError(await post('/sandbox/forward', { url }), 'url');
    }
    assert.equal((await post('/sandbox/forward', { url: `${running.url}/sandbox/receiver` })).status, 200);
  });
});
