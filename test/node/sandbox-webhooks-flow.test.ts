// The sandbox's webhooks end to end, over real HTTP: events reach a local receiver through
// POST /sandbox/forward, signed for the partner account, and a slow receiver never slows a buyer.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  DeliveryRecordSchema,
  IntegrationUninstalledPayloadSchema,
  LinkPaidPayloadSchema,
  OrderPaymentPayloadSchema,
  StoreOnboardedPayloadSchema,
  webhookUserAgent,
} from '../../src/contract/index.js';
import { startReceiver, type ReceivedDelivery, type Receiver, type ReceiverReply } from './sandbox-webhooks-receiver.js';

const serverFile = new URL('../../src/sandbox/server.ts', import.meta.url);
const coreReady = existsSync(fileURLToPath(serverFile));
const signingSecret = 'whsec_test_demo';
const partnerHeaders = { 'X-API-Key': 'pk_test_demo', 'X-API-Secret': 'sk_test_demo' };
const hmacHex = (body: string) => createHmac('sha256', signingSecret).update(body, 'utf8').digest('hex');

interface StartedSandbox {
  origin: string;
  close(): Promise<void> | void;
}

if (!coreReady) {
  test('sandbox webhook flow', (t) => t.skip('src/sandbox/server.ts does not exist yet'));
} else {
  describe('sandbox webhook flow', () => {
    let sandbox: StartedSandbox;
    let receiver: Receiver;
    // Per-test script for the receiver: answer 200 unless a test says otherwise.
    let reply: (index: number, request: ReceivedDelivery) => ReceiverReply = () => ({ status: 200 });
    let api: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

    before(async () => {
      const { startSandbox } = (await import(serverFile.href)) as { startSandbox: (options: object) => Promise<any> };
      // Short webhook timings so the retry and hang cases finish in well under a second.
      const started = await startSandbox({ port: 0, host: '127.0.0.1', timings: { webhookTimeoutMs: 400, webhookRetryDelayMs: 40 } });
      sandbox = { origin: new URL(started.url ?? started.origin ?? started.baseUrl).origin, close: () => (started.close ?? started.stop).call(started) };
      api = async (method, path, body, headers = {}) => {
        const response = await fetch(`${sandbox.origin}${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      };
      receiver = await startReceiver((index, request) => reply(index, request));
      const forward = await api('POST', '/sandbox/forward', { url: receiver.url });
      assert.equal(forward.status, 200, JSON.stringify(forward.body));
    });

    after(async () => {
      await api?.('POST', '/sandbox/reset').catch(() => {});
      await sandbox?.close();
      await receiver?.close();
    });

    /** Resolves with the first delivery of `event` (matching `where`) that arrives after `from`. */
    async function nextDelivery(event: string, where: (payload: any) => boolean = () => true, from = 0, timeoutMs = 3_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = receiver.received.slice(from).find((r) => r.headers['x-service-event'] === event && where(JSON.parse(r.body)));
        if (found) return found;
        if (performance.now() > deadline) assert.fail(`no ${event} delivery within ${timeoutMs} ms; got ${receiver.received.map((r) => r.headers['x-service-event']).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    function assertSigned(delivery: ReceivedDelivery) {
      assert.equal(delivery.headers['content-type'], 'application/json');
      assert.equal(delivery.headers['user-agent'], webhookUserAgent);
      assert.ok(!Number.isNaN(Date.parse(String(delivery.headers['x-service-timestamp']))));
      assert.equal(delivery.headers['x-service-signature'], hmacHex(delivery.body), 'signed with the partner secret over the exact body');
      assert.equal(delivery.body, JSON.stringify(JSON.parse(delivery.body)), 'compact JSON');
    }

    /** A buyer order on a link, paid through the control API's transfer simulator. */
    async function payLinkOrder(hash: string, amount?: number) {
      const created = await api('POST', `/v1/checkout/links/${hash}/orders`, {
        ...(amount === undefined ? {} : { amount }),
        payment_gateway: { id_payment_gateway: 9 },
        shopper: { id_number: '12345678', id_type: 1 },
      }, { 'Idempotency-Key': `flow-${hash}-${Math.random()}` });
      assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
      const id: number = created.body.data.id_order;
      const paid = await api('POST', `/sandbox/orders/${id}/pay`);
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      return id;
    }

    test('a paid link order sends a signed order_payment and link_paid', async () => {
      const from = receiver.received.length;
      const id = await payLinkOrder('demo-fixed');
      const payment = await nextDelivery('order_payment', (p) => p.id_order === id, from);
      assertSigned(payment);
      const parsed = OrderPaymentPayloadSchema.parse(JSON.parse(payment.body));
      assert.equal(parsed.status, 'confirmed');
      assert.equal(parsed.total_price, 50_000);
      assert.equal(parsed.external_store_id, 'demo-store');
      const linkPaid = await nextDelivery('link_paid', () => true, from);
      assertSigned(linkPaid);
      assert.equal(LinkPaidPayloadSchema.parse(JSON.parse(linkPaid.body)).event, 'link_paid');
    });

    test('a paid direct order sends order_payment and no link_paid', async () => {
      const from = receiver.received.length;
      const created = await api('POST', '/v1/orders', {
        amount: 20_000,
        description: 'Pedido directo',
        currency: 'COP',
        order_key: `flow-direct-${Date.now()}`,
        payment_gateway: { id_payment_gateway: 2 },
        shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com', phone_number: '3001234567', country: 'CO', id_number: '12345678', id_type: 1 },
      }, { 'merchant-key': 'mk_test_demo' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id: number = created.body.data.id_order;
      const otp = await api('POST', `/v1/orders/daviplata/${id}`, { daviplata_otp: '123456' }, { 'merchant-key': 'mk_test_demo' });
      assert.equal(otp.status, 200, JSON.stringify(otp.body));
      const payment = await nextDelivery('order_payment', (p) => p.id_order === id, from);
      assertSigned(payment);
      // A later event is the barrier: anything the direct order sent has arrived by then.
      const barrier = await payLinkOrder('demo-fixed');
      await nextDelivery('link_paid', () => true, receiver.received.indexOf(payment) + 1);
      await nextDelivery('order_payment', (p) => p.id_order === barrier, from);
      const linkPaidForDirect = receiver.received.slice(from).filter((r) => r.headers['x-service-event'] === 'link_paid');
      assert.equal(linkPaidForDirect.length, 1, 'only the link order sent link_paid');
    });

    test('completing an onboarding sends store_onboarded with the merchant key', async () => {
      const from = receiver.received.length;
      const done = await api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Tienda Flujo', external_store_id: 'flow-store' });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const delivery = await nextDelivery('store_onboarded', (p) => p.store_name === 'Tienda Flujo', from);
      assertSigned(delivery);
      const payload = StoreOnboardedPayloadSchema.parse(JSON.parse(delivery.body));
      assert.match(payload.merchant_key, /^mk_test_/);
      // The key works: the partner can act for the new store with it.
      const stores = await api('GET', '/v1/partners/stores', undefined, partnerHeaders);
      assert.ok(stores.body.data.some((s: any) => s.id_store === payload.id_store));
    });

    test('disconnecting a store sends integration_uninstalled', async () => {
      const onboarded = await api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Tienda Efímera', external_store_id: 'flow-gone' });
      assert.equal(onboarded.status, 200, JSON.stringify(onboarded.body));
      const welcome = await nextDelivery('store_onboarded', (p) => p.store_name === 'Tienda Efímera');
      const idStore: number = JSON.parse(welcome.body).id_store;
      const from = receiver.received.length;
      const removed = await api('DELETE', `/v1/partners/stores/${idStore}`, undefined, partnerHeaders);
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      const delivery = await nextDelivery('integration_uninstalled', (p) => p.id_store === idStore, from);
      assertSigned(delivery);
      const payload = IntegrationUninstalledPayloadSchema.parse(JSON.parse(delivery.body));
      assert.equal(payload.store_name, 'Tienda Efímera');
    });

    test('an order created from the dashboard sends no webhook', async () => {
      const from = receiver.received.length;
      const created = await api('POST', '/sandbox/orders', {
        hash: 'demo-fixed',
        payment_gateway: { id_payment_gateway: 9 },
        shopper: { id_number: '12345678', id_type: 1 },
      });
      assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
      const dashboardId: number = created.body.data.id_order;
      const paid = await api('POST', `/sandbox/orders/${dashboardId}/pay`);
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      const details = await api('GET', `/sandbox/orders/${dashboardId}`);
      assert.equal(details.body.data.status, 'confirmed', 'the dashboard order was paid');
      // Barrier: an API order paid afterwards; its webhooks arrive, the dashboard order's never do.
      const apiId = await payLinkOrder('demo-fixed');
      await nextDelivery('order_payment', (p) => p.id_order === apiId, from);
      await nextDelivery('link_paid', () => true, from);
      const forDashboardOrder = receiver.received.slice(from).filter((r) => JSON.parse(r.body).id_order === dashboardId);
      assert.deepEqual(forDashboardOrder, []);
    });

    test('a hanging receiver does not slow the buyer API', async () => {
      const hanging = await startReceiver(() => 'hang');
      try {
        const added = await api('POST', '/sandbox/forward', { url: hanging.url });
        assert.equal(added.status, 200, JSON.stringify(added.body));
        await payLinkOrder('demo-fixed');
        await hanging.waitFor(1); // a delivery is now hanging
        const started = performance.now();
        const link = await api('GET', '/v1/checkout/links/demo-fixed');
        const elapsed = performance.now() - started;
        assert.equal(link.status, 200);
        assert.ok(elapsed < 500, `GET /v1/checkout/links/demo-fixed took ${Math.round(elapsed)} ms`);
        const deliveries = await api('GET', '/sandbox/deliveries');
        const stuck = deliveries.body.data.find((r: any) => r.url === hanging.url);
        assert.equal(stuck?.state, 'pending', 'the hanging delivery is still in flight');
      } finally {
        await api('DELETE', '/sandbox/forward', { url: hanging.url }).catch(() => {});
        await hanging.close();
      }
    });

    test('GET /sandbox/deliveries shows every attempt', async () => {
      let failedOnce = false;
      reply = (_index, request) => {
        if (!failedOnce && request.headers['x-service-event'] === 'order_payment') {
          failedOnce = true;
          return { status: 503, body: 'busy' };
        }
        return { status: 200 };
      };
      try {
        const from = receiver.received.length;
        const id = await payLinkOrder('demo-fixed');
        await nextDelivery('order_payment', (p) => p.id_order === id, from + 1);
        const deadline = performance.now() + 2_000;
        let record: any;
        while (performance.now() < deadline) {
          const deliveries = await api('GET', '/sandbox/deliveries');
          assert.equal(deliveries.status, 200);
          record = deliveries.body.data.find((r: any) => r.url === receiver.url && r.event === 'order_payment' && r.payload.id_order === id);
          if (record?.state === 'delivered') break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(DeliveryRecordSchema.safeParse(record).success, JSON.stringify(record));
        assert.equal(record.state, 'delivered');
        assert.deepEqual(record.attempts.map((a: any) => [a.attempt, a.status, a.outcome, a.response_body]), [
          [1, 503, 'retrying', 'busy'],
          [2, 200, 'delivered', '{"received":true}'],
        ]);
        assert.equal(record.signature, hmacHex(record.body));
      } finally {
        reply = () => ({ status: 200 });
      }
    });
  });
}
