/**
 * Hostile bodies: well-formed JSON nested 5,000 levels deep (about 10 KB) on every endpoint that
 * takes a body, in the sandbox and in the server handler, over real sockets. Each answers a 4xx ErrorResponse, nothing
 * changes, and the server keeps serving.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { maxJsonDepth } from '../../src/contract/index.js';
import { assertError, checkoutOrder, gateways, merchant, partner, startTestSandbox, type Reply, type TestSandbox } from './sandbox-harness.js';
import { pushOrderBody, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';

const levels = 5_000;
const deepArray = '['.repeat(levels) + ']'.repeat(levels);
/** A plausible order body with one field nested deep inside it, where a fingerprint or a schema would walk into it. */
const deepInsideOrder = `{"payment_gateway":{"id_payment_gateway":1},"shopper":{"id_number":"12345678","id_type":1,"phone_number":"3001234567","note":${'{"a":'.repeat(levels / 2)}1${'}'.repeat(levels / 2)}}}`;
const hostileBodies = { 'nested arrays': deepArray, 'an order with a nested field': deepInsideOrder };

async function send(origin: string, method: string, path: string, body: string, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(`${origin}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

test('the hostile bodies are what the issue describes: well-formed, about 10 KB, far deeper than the limit', () => {
  assert.ok(deepArray.length >= 10_000 && deepArray.length < 11_000);
  assert.doesNotThrow(() => JSON.parse(deepArray));
  assert.doesNotThrow(() => JSON.parse(deepInsideOrder));
  assert.ok(maxJsonDepth >= 8 && maxJsonDepth < levels / 10);
});

describe('sandbox: a deeply nested body is 400 VALIDATION_FAILED on every endpoint', () => {
  let sb: TestSandbox;
  let order: { id: number; token: string; status: string };
  before(async () => {
    sb = await startTestSandbox();
    const created = await checkoutOrder(sb, 'demo-fixed', gateways.push);
    assert.equal(created.status, 201, created.text);
    order = { id: created.body.data.id_order, token: created.body.data.order_token, status: created.body.data.status };
  });
  after(() => sb.close());

  const routes = (): [string, string, Record<string, string>][] => [
    ['POST', '/v1/checkout/links/demo-fixed/orders', { 'Idempotency-Key': 'hostile' }],
    ['POST', '/v1/checkout/links/demo-dynamic/orders', { 'Idempotency-Key': 'hostile' }],
    ['POST', `/v1/checkout/orders/${order.id}/otp`, { 'X-Order-Token': order.token }],
    ['POST', `/v1/checkout/orders/${order.id}/cancel`, { 'X-Order-Token': order.token }],
    ['POST', '/v1/orders', merchant],
    ['POST', `/v1/orders/refund/${order.id}`, merchant],
    ['POST', `/v1/orders/cancel/${order.id}`, merchant],
    ['POST', `/v1/orders/daviplata/${order.id}`, merchant],
    ['POST', '/v1/links', merchant],
    ['PATCH', '/v1/partners/webhook', partner],
    ['POST', '/v1/partners/webhook/test', partner],
    ['DELETE', '/v1/partners/stores/1', partner],
    ['POST', '/sandbox/orders', merchant],
    ['POST', `/sandbox/orders/${order.id}/approve`, {}],
    ['POST', `/sandbox/orders/${order.id}/pay`, {}],
    ['POST', `/sandbox/orders/${order.id}/decline`, {}],
    ['POST', `/sandbox/orders/${order.id}/expire`, {}],
    ['POST', '/sandbox/clock', {}],
    ['POST', '/sandbox/onboarding', {}],
    ['POST', '/sandbox/forward', {}],
    ['DELETE', '/sandbox/forward', {}],
    ['POST', '/sandbox/faults', {}],
    ['DELETE', '/sandbox/faults', {}],
    ['POST', '/sandbox/reset', {}],
    ['POST', '/sandbox/receiver', {}],
    ['POST', '/sandbox/receiver/partner', {}],
  ];

  for (const [name, body] of Object.entries(hostileBodies)) {
    test(`${name}: each endpoint refuses it, nothing changes, the sandbox keeps serving`, async () => {
      const before = { orders: sb.orderCount(), links: sb.running.sandbox.state.links.size, received: sb.running.sandbox.state.received.length };
      for (const [method, path, headers] of routes()) {
        const reply = await send(sb.origin, method, path, body, headers);
        assertError(reply, 400, 'VALIDATION_FAILED', 2000);
        assert.match(reply.body.validation_errors?.[0]?.message ?? '', new RegExp(`${maxJsonDepth} levels`), `${method} ${path}: ${reply.text}`);
      }
      assert.deepEqual(
        { orders: sb.orderCount(), links: sb.running.sandbox.state.links.size, received: sb.running.sandbox.state.received.length },
        before,
      );
      const status = await sb.api('GET', `/v1/checkout/orders/${order.id}`, undefined, { 'X-Order-Token': order.token });
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.data.status, order.status);
    });
  }

  test('the form pages refuse it with a 4xx ErrorResponse too', async () => {
    for (const path of ['/onboarding', '/sandbox/card/nope']) {
      const reply = await send(sb.origin, 'POST', path, deepArray, {});
      assert.ok(reply.status >= 400 && reply.status < 500, `${path}: ${reply.status} ${reply.text}`);
      assert.equal(reply.body?.error, true, reply.text);
    }
  });

  test('a body at the depth limit is still read (and judged by its schema)', async () => {
    const atLimit = '['.repeat(maxJsonDepth) + ']'.repeat(maxJsonDepth);
    const reply = await send(sb.origin, 'POST', '/v1/links', atLimit, merchant);
    assertError(reply, 400, 'VALIDATION_FAILED');
    assert.doesNotMatch(reply.text, /levels/);
  });

  test('brackets and escaped quotes inside strings do not count as nesting', async () => {
    const description = `${'[{'.repeat(60)} " ${'[{'.repeat(60)}`;
    const reply = await send(sb.origin, 'POST', '/v1/links', JSON.stringify({ description, amount: 10_000 }), merchant);
    assert.equal(reply.status, 200, reply.text);
  });
});

describe('server handler: a deeply nested body is 400 VALIDATION_FAILED on every endpoint', () => {
  let sb: TestSandbox;
  let handler: RunningHandler;
  let order: { id: number; token: string; status: string };
  before(async () => {
    sb = await startTestSandbox();
    handler = await serveHandler({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, resolveLink: resolveHandlerLink, secret: 'a-test-server-secret', webhookSecret: 'whsec_test_demo' });
    const created = await send(handler.url, 'POST', '/v1/checkout/links/camiseta-m/orders', JSON.stringify(pushOrderBody), { 'Idempotency-Key': 'first' });
    assert.equal(created.status, 201, created.text);
    order = { id: created.body.data.id_order, token: created.body.data.order_token, status: created.body.data.status };
  });
  after(async () => {
    await handler.close();
    await sb.close();
  });

  for (const [name, body] of Object.entries(hostileBodies)) {
    test(`${name}: create, code and cancel refuse it (the webhook intake too); the order is untouched`, async () => {
      const ordersBefore = sb.orderCount();
      const routes: [string, Record<string, string>][] = [
        ['/v1/checkout/links/camiseta-m/orders', { 'Idempotency-Key': 'hostile' }],
        ['/v1/checkout/links/aporte/orders', { 'Idempotency-Key': 'hostile' }],
        [`/v1/checkout/orders/${order.id}/otp`, { 'X-Order-Token': order.token }],
        [`/v1/checkout/orders/${order.id}/cancel`, { 'X-Order-Token': order.token }],
      ];
      for (const [path, headers] of routes) {
        const reply = await send(handler.url, 'POST', path, body, headers);
        assertError(reply, 400, 'VALIDATION_FAILED', 2000);
      }
      // The webhook intake measures the nesting of the raw text before it parses or believes anything: 400.
      const intake = await send(handler.url, 'POST', '/v1/webhooks', body, { 'X-Service-Signature': '0'.repeat(64) });
      assert.equal(intake.status, 400, intake.text);
      assert.equal(intake.body?.error, true);
      assert.equal(sb.orderCount(), ordersBefore);
      const response = await fetch(`${handler.url}/v1/checkout/orders/${order.id}`, { headers: { 'X-Order-Token': order.token } });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { data: { status: string } }).data.status, order.status);
    });
  }
});
