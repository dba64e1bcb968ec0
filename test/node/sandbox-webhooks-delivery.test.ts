import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, describe, test } from 'node:test';
import {
  DeliveryRecordSchema,
  webhookAttemptTimeoutMs,
  webhookMaxAttempts,
  webhookRetryDelayMs,
  webhookUserAgent,
} from '../../src/contract/index.js';
import { createDeliverer, deliveryLogLimit, type Deliverer } from '../../src/sandbox/webhooks/delivery.js';
import { closedPortUrl, startReceiver, type Receiver } from './sandbox-webhooks-receiver.js';

const secret = 'whsec_test_demo';
// Property order deliberately not alphabetical, with non-ASCII text: the signed bytes must be exactly these.
const payload = {
  event: 'order_payment',
  timestamp: '2026-01-02T03:04:05.000Z',
  id_order: 42,
  shopper: { last_name: 'Pérez', first_name: 'Ana', email: null },
  total_price: 50000,
};
const fixedNow = Date.parse('2026-01-02T03:04:05.678Z');
// Generous timeout (a loaded machine must not turn a 200 into a timeout), short retry delay.
const fast = { timeoutMs: 2_000, retryDelayMs: 30, now: () => fixedNow };

const open: Receiver[] = [];
const deliverers: Deliverer[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  open.push(started);
  return started;
}
function deliverer(options: Parameters<typeof createDeliverer>[0] = fast) {
  const created = createDeliverer(options);
  deliverers.push(created);
  return created;
}
after(async () => {
  for (const d of deliverers) d.reset();
  await Promise.all(open.map((r) => r.close()));
});

const hmacHex = (body: string, key: string) => createHmac('sha256', key).update(body, 'utf8').digest('hex');

describe('webhook delivery', () => {
  test('a 200 is delivered in one attempt, signed over the exact compact body, with the contract headers', async () => {
    const hooks = await receiver(() => ({ status: 200, body: '{"ok":true}' }));
    const record = await deliverer().send({ url: hooks.url, secret, label: 'partner' }, 'order_payment', payload);

    assert.equal(hooks.received.length, 1);
    const [got] = hooks.received;
    assert.ok(got);
    assert.equal(got.method, 'POST');
    assert.equal(got.path, '/hooks');
    assert.equal(got.body, '{"event":"order_payment","timestamp":"2026-01-02T03:04:05.000Z","id_order":42,"shopper":{"last_name":"Pérez","first_name":"Ana","email":null},"total_price":50000}');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['x-service-event'], 'order_payment');
    assert.equal(got.headers['x-service-timestamp'], '2026-01-02T03:04:05.678Z');
    assert.equal(got.headers['user-agent'], webhookUserAgent);
    assert.equal(got.headers['x-service-signature'], hmacHex(got.body, secret));
    assert.match(String(got.headers['x-service-signature']), /^[0-9a-f]{64}$/);

    assert.equal(record.state, 'delivered');
    assert.equal(record.label, 'partner');
    assert.equal(record.body, got.body);
    assert.equal(record.signature, got.headers['x-service-signature']);
    assert.deepEqual(record.payload, payload);
    assert.equal(record.attempts.length, 1);
    assert.deepEqual({ ...record.attempts[0], duration_ms: 0 }, {
      attempt: 1,
      started_at: '2026-01-02T03:04:05.678Z',
      duration_ms: 0,
      status: 200,
      response_body: '{"ok":true}',
      error: null,
      outcome: 'delivered',
    });
    assert.ok(DeliveryRecordSchema.safeParse(record).success, 'the record matches the contract schema');
  });

  test('a 200 whose JSON body has "error": true is a failure and is not retried', async () => {
    const hooks = await receiver(() => ({ status: 200, body: '{"error":true,"message":"unknown store"}' }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'failed');
    assert.equal(record.attempts.length, 1);
    assert.equal(hooks.received.length, 1);
    assert.equal(record.attempts[0]?.status, 200);
    assert.equal(record.attempts[0]?.outcome, 'failed');
    assert.match(record.attempts[0]?.error ?? '', /"error": true/);
  });

  test('a 200 with "error": false is delivered', async () => {
    const hooks = await receiver(() => ({ status: 200, body: '{"error":false}' }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'delivered');
  });

  test('a 404 is a permanent rejection: one attempt', async () => {
    const hooks = await receiver(() => ({ status: 404, body: 'no such hook' }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'failed');
    assert.equal(hooks.received.length, 1);
    assert.deepEqual(record.attempts.map((a) => [a.status, a.outcome, a.response_body]), [[404, 'failed', 'no such hook']]);
  });

  test('a redirect is not followed and not retried', async () => {
    const hooks = await receiver((index) => (index === 0 ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'failed');
    assert.equal(hooks.received.length, 1);
    assert.equal(record.attempts[0]?.status, 302);
    assert.match(record.attempts[0]?.error ?? '', /redirect \(302\) not followed/);
  });

  test('a 500 is retried: three attempts, then failed', async () => {
    const hooks = await receiver(() => ({ status: 500, body: '{"error":"boom"}' }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'failed');
    assert.equal(hooks.received.length, 3);
    assert.deepEqual(record.attempts.map((a) => [a.attempt, a.status, a.outcome]), [
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 500, 'failed'],
    ]);
    // Every attempt carries the same body and signature.
    assert.equal(new Set(hooks.received.map((r) => `${r.body}|${r.headers['x-service-signature']}`)).size, 1);
  });

  test('a 500 then a 200 is delivered on the second attempt', async () => {
    const hooks = await receiver((index) => (index === 0 ? { status: 503 } : { status: 200 }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'link_paid', { event: 'link_paid' });
    assert.equal(record.state, 'delivered');
    assert.equal(hooks.received.length, 2);
    assert.deepEqual(record.attempts.map((a) => [a.status, a.outcome]), [
      [503, 'retrying'],
      [200, 'delivered'],
    ]);
  });

  test('a receiver that hangs is cut off after the timeout, three times', async () => {
    const hooks = await receiver(() => 'hang');
    const started = performance.now();
    const record = await deliverer({ ...fast, timeoutMs: 150 }).send({ url: hooks.url, secret }, 'order_payment', payload);
    const elapsed = performance.now() - started;
    assert.equal(record.state, 'failed');
    assert.equal(hooks.received.length, 3);
    await waitUntil(() => hooks.abandoned === 3); // each timed-out attempt really closed its socket
    for (const attempt of record.attempts) {
      assert.equal(attempt.status, null);
      assert.equal(attempt.error, 'timeout after 150 ms');
      assert.ok(attempt.duration_ms >= 140 && attempt.duration_ms < 1_000, `duration ${attempt.duration_ms} ms`);
    }
    assert.deepEqual(record.attempts.map((a) => a.outcome), ['retrying', 'retrying', 'failed']);
    assert.ok(elapsed >= 3 * 140 + 2 * 25 && elapsed < 3_000, `took ${Math.round(elapsed)} ms`);
  });

  test('a closed port is a connection failure, retried three times', async () => {
    const url = await closedPortUrl();
    const record = await deliverer().send({ url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'failed');
    assert.deepEqual(record.attempts.map((a) => [a.status, a.error, a.outcome]), [
      [null, 'connection refused', 'retrying'],
      [null, 'connection refused', 'retrying'],
      [null, 'connection refused', 'failed'],
    ]);
  });

  test('without a secret no signature header is sent', async () => {
    const hooks = await receiver();
    const record = await deliverer().send({ url: hooks.url, secret: null }, 'store_onboarded', { event: 'store_onboarded', merchant_key: 'mk' });
    assert.equal(record.state, 'delivered');
    assert.equal(record.signature, null);
    assert.equal(hooks.received[0]?.headers['x-service-signature'], undefined);
    assert.equal('X-Service-Signature' in record.headers, false);
    assert.equal(hooks.received[0]?.headers['x-service-event'], 'store_onboarded');
  });

  test('attempts are about retryDelayMs apart', async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    await deliverer({ timeoutMs: 1_000, retryDelayMs: 120 }).send({ url: hooks.url, secret }, 'order_payment', payload);
    const times = hooks.received.map((r) => r.receivedAt);
    assert.equal(times.length, 3);
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      assert.ok(gap >= 110 && gap < 1_000, `gap ${Math.round(gap)} ms`);
    }
  });

  test('defaults are the contract limits: 5 s timeout, 3 attempts, about 1 s apart', () => {
    const { settings } = createDeliverer();
    assert.deepEqual(settings, { timeoutMs: 5_000, retryDelayMs: 1_000, maxAttempts: 3, userAgent: webhookUserAgent });
    assert.equal(settings.timeoutMs, webhookAttemptTimeoutMs);
    assert.equal(settings.maxAttempts, webhookMaxAttempts);
    assert.equal(settings.retryDelayMs, webhookRetryDelayMs);
    assert.match(settings.userAgent, /\/1\.0$/);
  });

  test('a long answer is logged truncated to 4,096 characters', async () => {
    const hooks = await receiver(() => ({ status: 200, body: JSON.stringify({ padding: 'x'.repeat(10_000) }) }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'order_payment', payload);
    assert.equal(record.state, 'delivered');
    assert.equal(record.attempts[0]?.response_body?.length, 4_096);
  });

  test('sendOptions.maxAttempts overrides the retry count for one delivery', async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const record = await deliverer().send({ url: hooks.url, secret }, 'test.ping', { event: 'test.ping' }, { maxAttempts: 1 });
    assert.equal(record.attempts.length, 1);
    assert.equal(hooks.received.length, 1);
  });
});

describe('the delivery log', () => {
  test('records are kept in order, listeners hear every change, and idle() waits for deliveries in flight', async () => {
    const hooks = await receiver((index) => (index === 0 ? { status: 500 } : { status: 200 }));
    const d = deliverer();
    const heard: string[] = [];
    const unsubscribe = d.onRecord((r) => heard.push(`${r.id}:${r.state}:${r.attempts.length}`));
    void d.send({ url: hooks.url, secret }, 'order_payment', payload);
    await d.idle();
    assert.deepEqual(heard, ['dlv_1:pending:0', 'dlv_1:pending:1', 'dlv_1:delivered:2']);
    unsubscribe();
    await d.send({ url: hooks.url, secret }, 'link_paid', { event: 'link_paid' });
    assert.equal(heard.length, 3, 'no calls after unsubscribing');
    assert.deepEqual(d.records().map((r) => [r.id, r.event, r.state]), [
      ['dlv_1', 'order_payment', 'delivered'],
      ['dlv_2', 'link_paid', 'delivered'],
    ]);
  });

  test(`keeps the last ${deliveryLogLimit} deliveries`, async () => {
    const d = deliverer({ fetch: async () => new Response('{}', { status: 200 }) });
    await Promise.all(Array.from({ length: deliveryLogLimit + 5 }, (_, i) => d.send({ url: 'http://127.0.0.1:9/x', secret }, 'order_payment', { n: i })));
    const records = d.records();
    assert.equal(records.length, deliveryLogLimit);
    assert.equal(records[0]?.id, 'dlv_6');
    assert.deepEqual(records.at(-1)?.payload, { n: deliveryLogLimit + 4 });
  });

  test('never throws: a bad URL or an unserializable payload is a failed record', async () => {
    const d = deliverer();
    const badUrl = await d.send({ url: 'ftp://example.invalid/x', secret }, 'order_payment', payload);
    assert.equal(badUrl.state, 'failed');
    assert.match(badUrl.attempts[0]?.error ?? '', /invalid webhook URL/);
    const bigint = await d.send({ url: 'http://127.0.0.1:9/x', secret }, 'order_payment', { amount: 1n });
    assert.equal(bigint.state, 'failed');
    assert.match(bigint.attempts[0]?.error ?? '', /could not be serialized/);
    const emptySecret = await d.send({ url: 'http://127.0.0.1:9/x', secret: '' }, 'order_payment', payload);
    assert.equal(emptySecret.state, 'failed');
    assert.match(emptySecret.attempts[0]?.error ?? '', /could not sign/);
    assert.equal(d.records().length, 3);
  });

  test('reset() aborts a hanging delivery, closes its socket and empties the log', async () => {
    const hooks = await receiver(() => 'hang');
    const d = deliverer({ ...fast, timeoutMs: 60_000 });
    const sending = d.send({ url: hooks.url, secret }, 'order_payment', payload);
    await hooks.waitFor(1);
    assert.equal(d.records().length, 1);
    assert.equal(d.records()[0]?.state, 'pending');
    const started = performance.now();
    d.reset();
    const record = await sending;
    assert.ok(performance.now() - started < 500, 'the delivery ends at once');
    assert.equal(record.state, 'failed');
    assert.equal(record.attempts.length, 1, 'no retry after a reset');
    assert.match(record.attempts[0]?.error ?? '', /cancelled/);
    assert.equal(d.records().length, 0);
    await d.idle();
    assert.equal(hooks.received.length, 1);
    // The receiver sees its connection closed: nothing is left holding the process open.
    await waitUntil(() => hooks.abandoned === 1);
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 1_000) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
