// What each webhook receiver is delivered: the sandbox's built-in receiver and default forwarding, and link_paid only
// after order_payment at each receiver.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import * as z from 'zod/mini';
import { dataOf, DeliveryRecordSchema, SandboxReceivedWebhookListSchema } from '../../src/contract/index.js';
import { sign } from '../../src/webhooks/signature.js';
import { sandboxBanner } from '../../src/sandbox/banner.js';
import { checkoutOrder, gateways, startTestSandbox, type TestSandbox } from './sandbox-harness.js';
import { startReceiver } from './sandbox-webhooks-receiver.js';

const received = async (sb: TestSandbox) => dataOf(SandboxReceivedWebhookListSchema).parse((await sb.api('GET', '/sandbox/receiver')).body).data;
const forwardUrls = async (sb: TestSandbox): Promise<string[]> => (await sb.api('GET', '/sandbox/forward')).body.data.urls;
const deliveries = async (sb: TestSandbox) => dataOf(z.array(DeliveryRecordSchema)).parse((await sb.api('GET', '/sandbox/deliveries')).body).data;

/** A paid order on the fixed link: one order_payment and one link_paid per receiver. Returns its id. */
async function payLinkOrder(sb: TestSandbox): Promise<number> {
  const created = await checkoutOrder(sb, 'demo-fixed', gateways.transfer);
  assert.equal(created.status, 201, created.text);
  assert.equal((await sb.api('POST', `/sandbox/orders/${created.body.data.id_order}/pay`)).status, 200);
  return created.body.data.id_order;
}

describe('built-in webhook receiver', () => {
  let sb: TestSandbox;
  before(async () => {
    // A generous timeout: a busy machine must not turn a 200 into a retry.
    sb = await startTestSandbox({ webhookTimeoutMs: 3_000 }, { defaultReceiver: true });
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  test('is a forward target from the start; DELETE /sandbox/forward removes it and reset restores it', async () => {
    const own = `${sb.origin}/sandbox/receiver`;
    assert.deepEqual(await forwardUrls(sb), [own]);
    assert.deepEqual((await sb.api('DELETE', '/sandbox/forward')).body.data.urls, []);
    await sb.reset();
    assert.deepEqual(await forwardUrls(sb), [own]);
  });

  test('a paid order is delivered to it out of the box, signed, and listed by GET /sandbox/receiver', async () => {
    const id = await payLinkOrder(sb);
    await sb.running.sandbox.deliverer.idle();
    const log = await deliveries(sb);
    assert.deepEqual(log.map((d) => [d.event, d.state, d.attempts[0]?.status]), [['order_payment', 'delivered', 200], ['link_paid', 'delivered', 200]]);
    assert.equal(log[0]?.attempts[0]?.response_body, '{"received":true}');
    const got = await received(sb);
    assert.deepEqual(got.map((r) => [r.event, r.path, r.signature_valid, r.verified_with]), [
      ['order_payment', '/sandbox/receiver', true, 'partner demo-partner'],
      ['link_paid', '/sandbox/receiver', true, 'partner demo-partner'],
    ]);
    assert.equal(JSON.parse(got[0]!.body).id_order, id);
    assert.equal(got[0]!.body, log[0]!.body, 'the exact text sent');
    assert.equal(got[0]!.headers['user-agent'], log[0]!.headers['User-Agent']);
  });

  test('answers any POST below it, records unsigned and badly signed requests as not verified, and reset clears it', async () => {
    const body = '{"event":"test.ping"}';
    const good = await sign(body, 'whsec_test_other');
    const post = (path: string, headers: Record<string, string>, text = body) => sb.raw(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
    const answers = await Promise.all([
      post('/sandbox/receiver/partner-a', { 'X-Service-Event': 'test.ping', 'X-Service-Signature': good }),
      post('/sandbox/receiver', { 'X-Service-Signature': good }, body.replace('ping', 'pong')),
      post('/sandbox/receiver', {}, 'not json at all'),
    ]);
    for (const a of answers) assert.deepEqual([a.status, a.body], [200, { received: true }]);
    const got = await received(sb);
    const byPath = (path: string, text: string) => got.find((r) => r.path === path && r.body === text);
    assert.deepEqual([byPath('/sandbox/receiver/partner-a', body)?.verified_with, byPath('/sandbox/receiver/partner-a', body)?.event], ['partner other-partner', 'test.ping']);
    assert.deepEqual([byPath('/sandbox/receiver', body.replace('ping', 'pong'))?.signature_valid, byPath('/sandbox/receiver', 'not json at all')?.signature], [false, null]);
    await sb.reset();
    assert.deepEqual(await received(sb), []);
  });

  test('a body over 100 KB is 413, and nothing is recorded', async () => {
    const r = await sb.raw('/sandbox/receiver', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(101 * 1024) });
    assert.equal(r.status, 413);
    assert.deepEqual(await received(sb), []);
  });

  test('the start banner names the receiver', () => {
    assert.match(sandboxBanner(sb.running.sandbox, sb.origin), new RegExp(`^webhook receiver: ${sb.origin}/sandbox/receiver .*forwarded`, 'm'));
  });

  test('defaultReceiver: false starts with no forward target', async () => {
    const bare = await startTestSandbox();
    try {
      assert.deepEqual(await forwardUrls(bare), []);
      await bare.reset();
      assert.deepEqual(await forwardUrls(bare), []);
    } finally {
      await bare.close();
    }
  });
});

describe('link_paid follows order_payment at each receiver', () => {
  test('link_paid is sent only once order_payment was answered, its retry included', async () => {
    // The first attempt (order_payment) is refused with 503, so order_payment is retried before link_paid may go.
    const hooks = await startReceiver((index) => ({ status: index === 0 ? 503 : 200 }));
    const sb = await startTestSandbox({ webhookTimeoutMs: 3_000, webhookRetryDelayMs: 30, linkPaidWaitMs: 5_000 });
    try {
      await sb.api('POST', '/sandbox/forward', { url: hooks.url });
      await payLinkOrder(sb);
      const arrived = await hooks.waitFor(3);
      assert.deepEqual(arrived.map((r) => r.headers['x-service-event']), ['order_payment', 'order_payment', 'link_paid']);
      await sb.running.sandbox.deliverer.idle();
      assert.deepEqual((await deliveries(sb)).map((d) => [d.event, d.state, d.attempts.length]), [['order_payment', 'delivered', 2], ['link_paid', 'delivered', 1]]);
    } finally {
      await sb.close();
      await hooks.close();
    }
  });

  test('a receiver that never answers order_payment still gets link_paid, after linkPaidWaitMs', async () => {
    const hooks = await startReceiver((index) => (index === 0 ? 'hang' : { status: 200 }));
    const sb = await startTestSandbox({ webhookTimeoutMs: 5_000, linkPaidWaitMs: 50 });
    try {
      await sb.api('POST', '/sandbox/forward', { url: hooks.url });
      await payLinkOrder(sb);
      const arrived = await hooks.waitFor(2);
      assert.deepEqual(arrived.map((r) => r.headers['x-service-event']), ['order_payment', 'link_paid']);
      const [payment] = await deliveries(sb);
      assert.deepEqual([payment?.event, payment?.state, payment?.attempts.length], ['order_payment', 'pending', 0], 'order_payment still hangs');
    } finally {
      await sb.close(); // aborts the hanging attempt
      await hooks.close();
    }
  });

  test('a reset while link_paid waits cancels it: nothing is sent afterwards', async () => {
    const hooks = await startReceiver((index) => (index === 0 ? 'hang' : { status: 200 }));
    const sb = await startTestSandbox({ webhookTimeoutMs: 5_000, linkPaidWaitMs: 5_000 });
    try {
      await sb.api('POST', '/sandbox/forward', { url: hooks.url });
      await payLinkOrder(sb);
      await hooks.waitFor(1);
      await sb.reset();
      await sb.running.sandbox.deliverer.idle();
      assert.deepEqual(hooks.received.map((r) => r.headers['x-service-event']), ['order_payment']);
      assert.deepEqual(await deliveries(sb), []);
    } finally {
      await sb.close();
      await hooks.close();
    }
  });
});
