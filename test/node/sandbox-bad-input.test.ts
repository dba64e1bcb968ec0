// Bad input everywhere: each gets the contract's ErrorResponse with the right status, and no state changes.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { assertError, assertFieldError, checkoutOrder, directOrderBody, gateways, merchant, partner, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

describe('sandbox bad input', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  const bodyPaths: [string, Record<string, string>][] = [
    ['/v1/orders', merchant],
    ['/v1/links', merchant],
    ['/v1/checkout/links/demo-fixed/orders', { 'Idempotency-Key': 'bad-input' }],
    ['/sandbox/onboarding', {}],
  ];

  for (const [path, headers] of bodyPaths) {
    test(`malformed JSON on ${path} is 400 MALFORMED_JSON`, async () => {
      const r = await sb.raw(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"amount": 1000,' });
      assertError(r, 400, 'MALFORMED_JSON');
      assert.equal(sb.orderCount(), 0);
    });

    test(`a wrong content type on ${path} is 415`, async () => {
      const r = await sb.raw(path, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: JSON.stringify(directOrderBody(gateways.push)) });
      assertError(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
      assert.equal(sb.orderCount(), 0);
    });
  }

  test('a body over 100 KB is 413, by Content-Length', async () => {
    const huge = JSON.stringify({ ...directOrderBody(gateways.push), description: 'x'.repeat(101 * 1024) });
    const r = await sb.raw('/v1/orders', { method: 'POST', headers: { ...merchant, 'content-type': 'application/json' }, body: huge });
    assertError(r, 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(sb.orderCount(), 0);
  });

  test('a body over 100 KB is 413 by the bytes actually read (chunked, no Content-Length)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"description":"'));
        if (sent >= 8) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const r = await sb.raw('/v1/links', { method: 'POST', headers: { ...merchant, 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    assertError(r, 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(sb.running.sandbox.state.links.size, 2);
  });

  test('an empty body where one is required is 400 MALFORMED_JSON', async () => {
    assertError(await sb.raw('/v1/orders', { method: 'POST', headers: { ...merchant, 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
  });

  test('a JSON value that is not an object is a validation error', async () => {
    const r = await sb.api('POST', '/v1/links', [1, 2], merchant);
    assertError(r, 400, 'VALIDATION_FAILED');
    assert.ok(Array.isArray(r.body.validation_errors));
  });

  test('an unknown route is 404 NOT_FOUND as an ErrorResponse, under /v1 and /sandbox', async () => {
    assertError(await sb.api('GET', '/v1/nowhere', undefined, merchant), 404, 'NOT_FOUND');
    assertError(await sb.api('POST', '/sandbox/nowhere'), 404, 'NOT_FOUND');
    assertError(await sb.api('PUT', '/v1/orders/1/cancel', undefined, merchant), 404, 'NOT_FOUND');
    assertError(await sb.api('GET', '/checkout/%E0%A4%A'), 404, 'NOT_FOUND');
  });

  test('an unknown gateway on the buyer API is 4004, no order', async () => {
    assertError(await checkoutOrder(sb, 'demo-fixed', 77), 400, 'GATEWAY_NOT_SUPPORTED', 4004);
    assert.equal(sb.orderCount(), 0);
  });

  test('amount on a standard link and no amount on a dynamic link are 400 on field amount, no order', async () => {
    const fixed = await checkoutOrder(sb, 'demo-fixed', gateways.push, { amount: 50_000 });
    assertError(fixed, 400, 'VALIDATION_FAILED');
    assertFieldError(fixed, 'amount');
    const dynamic = await checkoutOrder(sb, 'demo-dynamic', gateways.push);
    assertError(dynamic, 400, 'VALIDATION_FAILED');
    assertFieldError(dynamic, 'amount');
    assert.equal(sb.orderCount(), 0);
    assert.equal(sb.running.sandbox.state.idempotency.size, 0, 'a refused request reserves no key');
  });

  test('PATCH /partners/webhook with unknown fields is a validation error and changes nothing', async () => {
    const r = await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://example.com/hooks', extra: 1 }, partner);
    assertError(r, 400, 'VALIDATION_FAILED');
    assert.equal((await sb.api('GET', '/v1/partners/webhook', undefined, partner)).body.data.url, null);
  });

  test('a thrown error is 500 INTERNAL_SERVER_ERROR (7001) and the server keeps serving', async () => {
    const real = createClock(Date.parse('2026-03-02T15:00:00Z'));
    let broken = false;
    const errors: unknown[] = [];
    const clock = { now: () => (broken ? (() => { throw new Error('clock broke'); })() : real.now()), advance: (ms: number) => real.advance(ms) };
    const running = await startSandbox({ port: 0, clock, onUnexpectedError: (e) => errors.push(e) });
    try {
      broken = true;
      const r = await fetch(`${running.baseUrl}/checkout/links/demo-fixed`);
      const body = await r.json();
      assert.equal(r.status, 500);
      assert.equal(body.code, 7001);
      assert.equal(body.api_code, 'INTERNAL_SERVER_ERROR');
      assert.equal(errors.length, 1);
      broken = false;
      assert.equal((await fetch(`${running.baseUrl}/checkout/links/demo-fixed`)).status, 200);
    } finally {
      await running.close();
    }
  });
});
