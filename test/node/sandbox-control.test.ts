// The control API, the onboarding page and which webhooks go where (partner URL by subscription, forward targets always).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { LinkPaidPayloadSchema, OrderPaymentPayloadSchema, StoreOnboardedPayloadSchema } from '../../src/contract/index.js';
import { verify } from '../../src/webhooks/signature.js';
import { createClock } from '../../src/sandbox/clock.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { assertError, assertFieldError, checkoutOrder, directOrderBody, gateways, merchant, partner, type Reply, type Json, type TestSandbox } from './sandbox-harness.js';
import { startReceiver, type Receiver } from './sandbox-webhooks-receiver.js';

interface Sent {
  url: string;
  event: string;
  body: string;
  signature: string | null;
}

describe('sandbox control API and webhook routing', () => {
  let running: RunningSandbox;
  let receiver: Receiver;
  // Deliveries to the partner's https URL never leave the machine: the sandbox's fetch is replaced for those.
  const toPartner: Sent[] = [];
  const fetchForTests: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.startsWith('https://partner.example/')) {
      const headers = new Headers(init?.headers);
      toPartner.push({ url, event: headers.get('x-service-event') ?? '', body: String(init?.body), signature: headers.get('x-service-signature') });
      return new Response('{"ok":true}', { status: 200 });
    }
    return fetch(input, init);
  };

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  const sandboxLike = () => ({ api: call });
  const settle = () => running.sandbox.deliverer.idle();
  const forwarded = (event: string) => receiver.received.filter((r) => r.headers['x-service-event'] === event).map((r) => JSON.parse(r.body));

  before(async () => {
    // No built-in receiver: these tests count every delivery, and this file's receiver is the only forward target.
    running = await startSandbox({ port: 0, clock: createClock(Date.parse('2026-03-02T15:00:00Z')), fetch: fetchForTests, defaultReceiver: false, timings: { webhookTimeoutMs: 500, webhookRetryDelayMs: 10 } });
    receiver = await startReceiver();
  });
  after(async () => {
    await running.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await call('POST', '/sandbox/reset');
    receiver.received.length = 0;
    toPartner.length = 0;
    assert.equal((await call('POST', '/sandbox/forward', { url: receiver.url })).status, 200);
  });

  test('GET /sandbox/fixtures lists the fixed keys, links and gateways', async () => {
    const r = await call('GET', '/sandbox/fixtures');
    const f = r.body.data;
    assert.equal(f.merchant_key, 'mk_test_demo');
    assert.deepEqual([f.partner.name, f.partner.api_key, f.partner.api_secret, f.partner.signing_secret], ['demo-partner', 'pk_test_demo', 'sk_test_demo', 'whsec_test_demo']);
    assert.deepEqual(f.links.map((l: Json) => [l.hash, l.amount]), [['demo-fixed', 50_000], ['demo-dynamic', null]]);
    assert.equal(f.links[0].checkout_url, `${running.url}/checkout/demo-fixed`);
    assert.deepEqual(f.gateways.map((g: Json) => `${g.id_payment_gateway} ${g.kind}`), ['1 push', '2 otp', '9 transfer', '4 card']);
  });

  test('GET /sandbox/orders lists orders; GET /sandbox/orders/{id} shows the OTP and next_action', async () => {
    const created = await call('POST', '/v1/orders', directOrderBody(gateways.otp), merchant);
    const list = await call('GET', '/sandbox/orders');
    assert.deepEqual(list.body.data.map((o: Json) => o.id_order), [created.body.data.id_order]);
    const one = await call('GET', `/sandbox/orders/${created.body.data.id_order}`);
    assert.equal(one.body.data.otp, '123456');
    assert.equal(one.body.data.next_action.type, 'enter_otp');
    assertError(await call('GET', '/sandbox/orders/99'), 404, 'ORDER_NOT_FOUND');
    assertFieldError(await call('GET', '/sandbox/orders/abc'), 'id');
  });

  test('POST /sandbox/reset restores the fixtures: ids from 1, links active, new stores gone', async () => {
    const a = await checkoutOrder(sandboxLike() as unknown as TestSandbox, 'demo-fixed', gateways.push);
    await call('POST', `/sandbox/orders/${a.body.data.id_order}/approve`);
    await call('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Temporal' });
    await call('POST', '/sandbox/reset');
    assert.equal((await call('GET', '/v1/checkout/links/demo-fixed')).body.data.status, 'active');
    assert.equal(running.sandbox.state.stores.length, 2);
    assert.equal((await call('GET', '/sandbox/forward')).body.data.urls.length, 0, 'forward targets are state too');
    assert.equal((await call('GET', '/sandbox/deliveries')).body.data.length, 0);
    const b = await call('POST', '/v1/orders', directOrderBody(gateways.push), merchant);
    assert.equal(b.body.data.id_order, 1);
  });

  test('POST /sandbox/clock advances the clock; bad values are 400 and change nothing', async () => {
    const before = running.sandbox.clock.now();
    const r = await call('POST', '/sandbox/clock', { advance_ms: 60_000 });
    assert.equal(r.status, 200);
    assert.equal(running.sandbox.clock.now() - before, 60_000);
    assertFieldError(await call('POST', '/sandbox/clock', { advance_ms: -5 }), 'advance_ms');
    assertFieldError(await call('POST', '/sandbox/clock', { advance_ms: '5' }), 'advance_ms');
    assert.equal(running.sandbox.clock.now() - before, 60_000);
  });

  test('POST /sandbox/forward accepts loopback receivers only, and only the one named first (not any loopback service)', async () => {
    for (const url of ['http://example.com/hooks', 'https://10.0.0.5/x', 'http://192.168.1.2:3000/']) {
      assertFieldError(await call('POST', '/sandbox/forward', { url }), 'url');
    }
    assertFieldError(await call('POST', '/sandbox/forward', { url: 'not a url' }), 'url');
    // receiver.url was named first (above): another port or path of loopback is refused, the same receiver is not.
    for (const url of ['http://localhost:6379/', 'http://127.0.0.1:9/x', `${new URL(receiver.url).origin}/other`]) {
      assertFieldError(await call('POST', '/sandbox/forward', { url }), 'url');
    }
    assert.equal((await call('POST', '/sandbox/forward', { url: receiver.url })).status, 200);
    // The sandbox's own routes are always a target (they are no other service).
    assert.equal((await call('POST', '/sandbox/forward', { url: `${running.url}/sandbox/no-such-receiver` })).status, 200);
    assert.deepEqual((await call('DELETE', '/sandbox/forward', { url: `${running.url}/sandbox/no-such-receiver` })).body.data.urls, [receiver.url]);
  });

  test('a paid link order sends signed order_payment and link_paid in the documented shapes', async () => {
    const created = await checkoutOrder(sandboxLike() as unknown as TestSandbox, 'demo-fixed', gateways.transfer);
    await call('POST', `/sandbox/orders/${created.body.data.id_order}/pay`);
    await settle();
    const [payment] = forwarded('order_payment');
    const parsed = OrderPaymentPayloadSchema.parse(payment);
    assert.deepEqual([parsed.id_order, parsed.status, parsed.total_price, parsed.payment_method.gateway, parsed.id_store, parsed.external_store_id], [created.body.data.id_order, 'confirmed', 50_000, 'breb', 1, 'demo-store']);
    const [linkPaid] = forwarded('link_paid');
    LinkPaidPayloadSchema.parse(linkPaid);
    assert.deepEqual([linkPaid.hash, linkPaid.status, linkPaid.amount, linkPaid.currency, linkPaid.payment_link_id], ['demo-fixed', 'paid', 50_000, 'COP', 1]);
    for (const delivery of receiver.received) assert.ok(await verify(delivery.body, String(delivery.headers['x-service-signature']), 'whsec_test_demo'));
  });

  test('order events reach the partner URL (operator-enabled) once a URL is set', async () => {
    await call('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/hooks' }, partner);
    const order = await call('POST', '/v1/orders', directOrderBody(gateways.otp), merchant);
    await call('POST', `/v1/orders/daviplata/${order.body.data.id_order}`, { daviplata_otp: '123456' }, merchant);
    await settle();
    assert.deepEqual(toPartner.map((s) => s.event), ['order_payment'], 'a direct order sends no link_paid');
    assert.ok(await verify(toPartner[0]!.body, toPartner[0]!.signature, 'whsec_test_demo'));
    assert.equal(forwarded('order_payment').length, 1);
  });

  test('store events go to the partner URL only when subscribed, and always to forward targets', async () => {
    await call('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/hooks', events: ['store_onboarded'] }, partner);
    const onboarded = await call('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Tienda Ruta', external_store_id: 'ruta' });
    assert.equal(onboarded.status, 200, onboarded.text);
    await call('DELETE', `/v1/partners/stores/${onboarded.body.data.id_store}`, undefined, partner);
    await settle();
    assert.deepEqual(toPartner.map((s) => s.event), ['store_onboarded']);
    const payload = StoreOnboardedPayloadSchema.parse(JSON.parse(toPartner[0]!.body));
    assert.equal(payload.merchant_key, onboarded.body.data.merchant_key);
    assert.equal(payload.external_store_id, 'ruta');
    assert.deepEqual(receiver.received.map((r) => r.headers['x-service-event']), ['store_onboarded', 'integration_uninstalled']);
  });

  test('orders created from the dashboard (POST /sandbox/orders) emit no webhooks', async () => {
    await call('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/hooks' }, partner);
    const direct = await call('POST', '/sandbox/orders', directOrderBody(gateways.push));
    assert.equal(direct.status, 200, direct.text);
    const onLink = await call('POST', '/sandbox/orders', { hash: 'demo-fixed', payment_gateway: { id_payment_gateway: 9 }, shopper: { id_number: '1', id_type: 1 } });
    assert.equal(onLink.status, 200, onLink.text);
    await call('POST', `/sandbox/orders/${direct.body.data.id_order}/approve`);
    await call('POST', `/sandbox/orders/${onLink.body.data.id_order}/pay`);
    await settle();
    assert.deepEqual([toPartner.length, receiver.received.length, running.sandbox.deliverer.records().length], [0, 0, 0]);
    assert.equal((await call('GET', `/sandbox/orders/${onLink.body.data.id_order}`)).body.data.status, 'confirmed');
  });

  describe('onboarding page', () => {
    test('GET shows a plain form under a strict CSP; POST completes the onboarding', async () => {
      const page = await call('GET', '/onboarding?platform=demo-partner');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.doesNotMatch(page.text, /<script|style=/i);
      const done = await fetch(`${running.url}/onboarding?platform=demo-partner`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ store_name: 'Tienda <b>Form</b>', external_store_id: 'form-1' }).toString(),
      });
      const html = await done.text();
      assert.equal(done.status, 200);
      assert.ok(html.includes('Tienda &#60;b&#62;Form&#60;/b&#62;'), 'escaped');
      assert.ok(!html.includes('<b>Form</b>'));
      await settle();
      assert.equal(forwarded('store_onboarded')[0]?.store_name, 'Tienda <b>Form</b>');
    });

    test('every interpolated string is escaped; an unknown platform is 404', async () => {
      const r = await call('GET', `/onboarding?platform=${encodeURIComponent('"><script>alert(1)</script>')}`);
      assert.equal(r.status, 404);
      assert.ok(!r.text.includes('<script>'));
      assert.ok(r.text.includes('&#34;&#62;&#60;script&#62;'));
    });
  });

  test('/checkout/{hash} serves the hosted page, or a placeholder until it is built', async () => {
    const r = await call('GET', '/checkout/demo-fixed');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
  });
});

describe('sandbox hosted page', () => {
  test('serves the built page for any hash, its assets by path, and nothing outside its folder', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'hosted-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>hosted</title>');
    writeFileSync(path.join(dir, 'assets', 'app.js'), 'export {};');
    writeFileSync(path.join(tmpdir(), 'hosted-secret.txt'), 'secret');
    const running = await startSandbox({ port: 0, hostedDir: dir });
    try {
      const page = await fetch(`${running.url}/checkout/demo-fixed`);
      assert.equal(await page.text(), '<!doctype html><title>hosted</title>');
      const asset = await fetch(`${running.url}/checkout/assets/app.js`);
      assert.match(asset.headers.get('content-type') ?? '', /javascript/);
      assert.equal(await asset.text(), 'export {};');
      const escape = await fetch(`${running.url}/checkout/..%2Fhosted-secret.txt`);
      assert.ok(!(await escape.text()).includes('secret'));
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(path.join(tmpdir(), 'hosted-secret.txt'), { force: true });
    }
  });
});
