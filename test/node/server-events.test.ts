/**
 * Structured events: one `onEvent` gets the handler's and its store's events as plain JSON objects; without it each
 * is one console line at its level; the merchant key never appears; a throwing `onEvent` never breaks a request.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { createCheckoutHandler, memoryClaimStore, type CheckoutHandlerOptions, type ServerEvent } from '../../src/server/index.js';

const merchantKey = 'mk_test_events_key';
const orderBody = JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '1020304050', id_type: 1, phone_number: '3001234567' } });
const failingHandler = (extra: Partial<CheckoutHandlerOptions>) =>
  createCheckoutHandler({
    merchantKey,
    baseUrl: 'http://127.0.0.1:9/v1',
    openTelemetry: false,
    resolveLink: () => {
      throw new Error(`the link database refused ${merchantKey}`);
    },
    ...extra,
  });
const link = () => new Request('http://shop.test/v1/checkout/links/camiseta-m');

describe('structured events', () => {
  it('onEvent gets an unexpected error as plain JSON, with the merchant key redacted', async () => {
    const events: ServerEvent[] = [];
    const answer = await failingHandler({ onEvent: (e) => events.push(e) })(link());
    assert.equal(answer.status, 500);
    assert.equal(events.length, 1);
    const [event] = events as [ServerEvent & { error: { name: string; message: string; stack: string } }];
    assert.equal(event.level, 'error');
    assert.equal(event.name, 'unexpected_error');
    assert.equal(event.error.message, 'the link database refused [redacted]');
    assert.deepEqual(JSON.parse(JSON.stringify(event)), event);
    assert.ok(!JSON.stringify(event).includes(merchantKey));
  });

  it('without onEvent: one console line at its level, as before', async (t) => {
    const error = t.mock.method(console, 'error', () => {});
    assert.equal((await failingHandler({})(link())).status, 500);
    assert.equal(error.mock.callCount(), 1);
    const line = String(error.mock.calls[0]?.arguments[0]);
    assert.match(line, /^\[pay-checkout\] unexpected_error: answered 500 INTERNAL_SERVER_ERROR\n/);
    assert.ok(line.includes('the link database refused [redacted]') && !line.includes(merchantKey), line);
  });

  it('a throwing onEvent does not break the request, and is reported once', async (t) => {
    const error = t.mock.method(console, 'error', () => {});
    const handler = failingHandler({
      onEvent: () => {
        throw new Error('the log shipper is down');
      },
    });
    for (let i = 0; i < 3; i++) assert.equal((await handler(link())).status, 500);
    assert.equal(error.mock.callCount(), 1);
    assert.match(String(error.mock.calls[0]?.arguments[0]), /onEvent threw/);
  });

  it("the store's events reach the handler's onEvent", async () => {
    const events: ServerEvent[] = [];
    const store = memoryClaimStore();
    createCheckoutHandler({ merchantKey, baseUrl: 'http://127.0.0.1:9/v1', openTelemetry: false, resolveLink: () => null, store, onEvent: (e) => events.push(e) });
    await store.subscribe('order:1', () => {
      throw new Error('a listener bug');
    });
    await store.publish('order:1', '{}');
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(
      events.map((e) => [e.level, e.name, (e.error as { message: string }).message]),
      [['error', 'store_listener_failed', 'a listener bug']],
    );
  });

  it('a limit tripped is a warn event naming the limit, never the counted phone', async () => {
    const events: ServerEvent[] = [];
    const handler = createCheckoutHandler({
      merchantKey,
      baseUrl: 'http://127.0.0.1:9/v1',
      openTelemetry: false,
      gateways: [{ id_payment_gateway: 1, name: 'Nequi', kind: 'push', required_fields: [], id_types: [1], min_amount: 1, max_amount: 1e9, icon: '/nequi.svg' }],
      limits: { ordersPerPhone: { max: 1, windowMs: 60_000 } },
      resolveLink: () => ({ amount: 50_000, description: 'x', storeName: 'Tienda' }),
      fetch: mock.fn(async () => new Response('{"error":true}', { status: 503 })) as unknown as typeof fetch,
      onEvent: (e) => events.push(e),
    });
    const create = (key: string) => handler(new Request('http://shop.test/v1/checkout/links/a/orders', { method: 'POST', headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body: orderBody }));
    await create('k1');
    assert.equal((await create('k2')).status, 429);
    const limited = events.filter((e) => e.name === 'limit_reached');
    assert.equal(limited.length, 1);
    assert.equal(limited[0]?.level, 'warn');
    assert.equal(limited[0]?.limit, 'ordersPerPhone');
    assert.ok(!JSON.stringify(events).includes('3001234567'));
  });
});
