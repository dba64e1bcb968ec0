// A partner's receiver that never answers must not cost buyers anything: with deliveries hanging for the
// contract's full 5 s, the buyer API keeps answering fast, over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as z from 'zod/mini';
import { CheckoutLinkSchema, CheckoutOrderCreatedSchema, DeliveryRecordSchema, dataOf, webhookAttemptTimeoutMs } from '../../src/contract/index.js';
import { checkoutOrder, gateways, startTestSandbox, type Reply, type TestSandbox } from './sandbox-harness.js';
import { startReceiver, type Receiver } from './sandbox-webhooks-receiver.js';

const paidBeforehand = 10; // each sends order_payment and link_paid: 20 deliveries hanging
const buyerRequests = 50;
const concurrency = 5;
const p95BudgetMs = 300;

describe('the sandbox keeps serving buyers while a receiver hangs', () => {
  let sb: TestSandbox;
  let hanging: Receiver;
  before(async () => {
    // The contract's 5 s per attempt (the harness shortens it otherwise): every delivery stays in flight for the whole run.
    sb = await startTestSandbox({ webhookTimeoutMs: webhookAttemptTimeoutMs });
    hanging = await startReceiver(() => 'hang');
    assert.equal((await sb.api('POST', '/sandbox/forward', { url: hanging.url })).status, 200);
  });
  after(async () => {
    await sb.close(); // aborts the hanging deliveries
    await hanging.close();
  });

  const pendingDeliveries = async () => {
    const log = dataOf(z.array(DeliveryRecordSchema)).parse((await sb.api('GET', '/sandbox/deliveries')).body).data;
    return log.filter((r) => r.url === hanging.url);
  };

  test(`${buyerRequests} buyer requests succeed with p95 under ${p95BudgetMs} ms while ${paidBeforehand * 2} deliveries hang`, async () => {
    for (let i = 0; i < paidBeforehand; i++) {
      const created = await checkoutOrder(sb, 'demo-dynamic', gateways.transfer, { amount: 10_000 + i });
      assert.equal(created.status, 201, created.text);
      assert.equal((await sb.api('POST', `/sandbox/orders/${created.body.data.id_order}/pay`)).status, 200);
    }
    await hanging.waitFor(paidBeforehand * 2);

    const buyer = (i: number): Promise<Reply> =>
      i % 2 === 0 ? sb.api('GET', '/v1/checkout/links/demo-fixed') : checkoutOrder(sb, 'demo-dynamic', gateways.otp, { amount: 20_000 + i });
    const timings: number[] = [];
    for (let wave = 0; wave < buyerRequests / concurrency; wave++) {
      await Promise.all(
        Array.from({ length: concurrency }, async (_, j) => {
          const i = wave * concurrency + j;
          const started = performance.now();
          const reply = await buyer(i);
          timings.push(performance.now() - started);
          if (i % 2 === 0) {
            assert.equal(reply.status, 200, reply.text);
            CheckoutLinkSchema.parse(reply.body.data);
          } else {
            assert.equal(reply.status, 201, reply.text);
            CheckoutOrderCreatedSchema.parse(reply.body.data);
          }
        }),
      );
    }
    const sorted = [...timings].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1]!;
    assert.equal(timings.length, buyerRequests);
    assert.ok(p95 < p95BudgetMs, `p95 ${p95.toFixed(1)} ms (max ${sorted.at(-1)!.toFixed(1)} ms)`);

    // Still in flight after the run: 3 attempts of 5 s keep each delivery pending for about 15 s, even on a busy machine.
    const pending = await pendingDeliveries();
    assert.equal(pending.length, paidBeforehand * 2);
    for (const record of pending) {
      assert.equal(record.state, 'pending', `${record.event} ${record.id}`);
      assert.ok(record.attempts.every((a) => a.outcome === 'retrying' && a.status === null), JSON.stringify(record.attempts));
    }
  });
});
