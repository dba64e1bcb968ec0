// The sandbox's webhooks end to end, over real HTTP: events reach a local receiver through
// POST /sandbox/forward, signed for the partner account, and a slow receiver never slows a buyer.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import {
  CheckoutOrderCreatedSchema,
  CreatedLinkSchema,
  CreatedOrderSchema,
  dataOf,
  DeliveryRecordSchema,
  IntegrationUninstalledPayloadSchema,
  LinkPaidPayloadSchema,
  OrderPaymentPayloadSchema,
  SandboxOrderSchema,
  StoreListSchema,
  StoreOnboardedPayloadSchema,
  webhookUserAgent,
} from '../../src/contract/index.js';
import { parseDelivery } from '../../src/webhooks/index.js';
import { startReceiver, type ReceivedDelivery, type Receiver, type ReceiverReply } from './sandbox-webhooks-receiver.js';

const serverFile = new URL('../../src/sandbox/server.ts', import.meta.url);
const coreReady = existsSync(fileURLToPath(serverFile));
const signingSecret = 'whsec_test_demo';
const merchantHeaders = { 'merchant-key': 'mk_test_demo' };
const partnerHeaders = { 'X-API-Key': 'pk_test_demo', 'X-API-Secret': 'sk_test_demo' };
const hmacHex = (body: string) => createHmac('sha256', signingSecret).update(body, 'utf8').digest('hex');
const buyer = { id_number: '12345678', id_type: 1 };
const Payload = z.looseObject({ event: z.string(), id_order: z.optional(z.number()), id_store: z.optional(z.number()), store_name: z.optional(z.string()) });
type Payload = z.infer<typeof Payload>;
const payloadOf = (delivery: ReceivedDelivery): Payload => Payload.parse(JSON.parse(delivery.body));

interface StartedSandbox {
  url: string;
  close(): Promise<void>;
}
type StartSandbox = (options: { port: number; host: string; timings: Record<string, number>; guard: { allowedForwards: 'loopback' } }) => Promise<StartedSandbox>;

if (!coreReady) {
  test('sandbox webhook flow', (t) => t.skip('src/sandbox/server.ts does not exist yet'));
} else {
  describe('sandbox webhook flow', () => {
    let sandbox: StartedSandbox;
    let receiver: Receiver;
    // Per-test script for the receiver: answer 200 unless a test says otherwise.
    let reply: (index: number, request: ReceivedDelivery) => ReceiverReply = () => ({ status: 200 });

    async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as unknown };
    }
    /** Asserts a 200 and parses `{ data }` with the contract's schema. */
    function ok<S extends z.ZodMiniType>(schema: S, response: { status: number; body: unknown }): z.infer<S> {
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return (dataOf(schema).parse(response.body) as { data: z.infer<S> }).data;
    }

    before(async () => {
      const { startSandbox } = (await import(serverFile.href)) as { startSandbox: StartSandbox };
      // A short retry delay keeps the retry case fast; the timeout stays generous so a busy machine never turns a 200 into a retry.
      // Two receivers of its own (a normal one and a hanging one): any loopback forward target.
      sandbox = await startSandbox({ port: 0, host: '127.0.0.1', timings: { webhookTimeoutMs: 1_500, webhookRetryDelayMs: 40 }, guard: { allowedForwards: 'loopback' } });
      receiver = await startReceiver((index, request) => reply(index, request));
      ok(z.unknown(), await api('POST', '/sandbox/forward', { url: receiver.url }));
    });

    after(async () => {
      if (!sandbox) return;
      await api('POST', '/sandbox/reset').catch(() => {});
      await sandbox.close();
      await receiver?.close();
    });

    /** The first delivery of `event` after index `from` whose payload matches, waiting up to `timeoutMs`. */
    async function nextDelivery(event: string, where: (payload: Payload) => boolean = () => true, from = 0, timeoutMs = 3_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = receiver.received.slice(from).find((r) => r.headers['x-service-event'] === event && where(payloadOf(r)));
        if (found) return found;
        if (performance.now() > deadline) assert.fail(`no ${event} delivery within ${timeoutMs} ms; got ${receiver.received.map((r) => r.headers['x-service-event']).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    async function assertSigned(delivery: ReceivedDelivery) {
      assert.equal(delivery.method, 'POST');
      assert.equal(delivery.headers['content-type'], 'application/json');
      assert.equal(delivery.headers['user-agent'], webhookUserAgent);
      assert.ok(!Number.isNaN(Date.parse(String(delivery.headers['x-service-timestamp']))), 'X-Service-Timestamp is a date');
      assert.equal(delivery.headers['x-service-signature'], hmacHex(delivery.body), 'signed with the partner secret over the exact body');
      assert.equal(delivery.body, JSON.stringify(JSON.parse(delivery.body)), 'compact JSON');
      // The package's own receiver side accepts what the sandbox sends.
      const parsed = await parseDelivery({ headers: delivery.headers, body: delivery.body, secret: signingSecret });
      assert.equal(parsed.secretIndex, 0);
      assert.equal(parsed.event, delivery.headers['x-service-event']);
    }

    /** A standard link created through the API (so its payment sends link_paid). */
    async function newLink(amount = 30_000) {
      return ok(CreatedLinkSchema, await api('POST', '/v1/links', { description: 'Pedido de prueba', amount }, merchantHeaders)).hash;
    }

    /** A buyer order on a link, paid through the control API's transfer simulator. Returns its id. */
    async function payLinkOrder(hash: string) {
      const created = await api('POST', `/v1/checkout/links/${hash}/orders`, { payment_gateway: { id_payment_gateway: 9 }, shopper: buyer }, { 'Idempotency-Key': `flow-${hash}` });
      const order = dataOf(CheckoutOrderCreatedSchema).parse(created.body).data;
      assert.equal(ok(SandboxOrderSchema, await api('POST', `/sandbox/orders/${order.id_order}/pay`)).status, 'confirmed');
      return order.id_order;
    }

    test('a paid link order sends a signed order_payment and link_paid', async () => {
      const from = receiver.received.length;
      const id = await payLinkOrder('demo-fixed');
      const payment = await nextDelivery('order_payment', (p) => p.id_order === id, from);
      await assertSigned(payment);
      assert.equal(payment.headers['x-service-event'], 'order_payment');
      const parsed = OrderPaymentPayloadSchema.parse(JSON.parse(payment.body));
      assert.equal(parsed.status, 'confirmed');
      assert.equal(parsed.total_price, 50_000);
      assert.equal(parsed.external_store_id, 'demo-store');
      const linkPaid = await nextDelivery('link_paid', (p) => p.id_order === id, from);
      await assertSigned(linkPaid);
      assert.equal(LinkPaidPayloadSchema.parse(JSON.parse(linkPaid.body)).event, 'link_paid');
    });

    test('a paid direct order sends order_payment and no link_paid', async () => {
      const from = receiver.received.length;
      const created = await api('POST', '/v1/orders', {
        amount: 20_000,
        description: 'Pedido directo',
        currency: 'COP',
        order_key: 'flow-direct-1',
        payment_gateway: { id_payment_gateway: 2 },
        shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com', phone_number: '3001234567', country: 'CO', ...buyer },
      }, merchantHeaders);
      const id = ok(CreatedOrderSchema, created).id_order;
      assert.equal(ok(z.looseObject({ status: z.string() }), await api('POST', `/v1/orders/daviplata/${id}`, { daviplata_otp: '123456' }, merchantHeaders)).status, 'confirmed');
      const payment = await nextDelivery('order_payment', (p) => p.id_order === id, from);
      await assertSigned(payment);
      assert.equal(OrderPaymentPayloadSchema.parse(JSON.parse(payment.body)).id_external, 'flow-direct-1');
      // A later link payment is the barrier: whatever the direct order sent has arrived by the time its events do.
      const barrier = await payLinkOrder(await newLink());
      await nextDelivery('link_paid', (p) => p.id_order === barrier, from);
      assert.equal(receiver.received.slice(from).filter((r) => r.headers['x-service-event'] === 'link_paid' && payloadOf(r).id_order === id).length, 0);
    });

    test('completing an onboarding sends store_onboarded with the merchant key', async () => {
      const from = receiver.received.length;
      ok(z.unknown(), await api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Tienda Flujo', external_store_id: 'flow-store' }));
      const delivery = await nextDelivery('store_onboarded', (p) => p.store_name === 'Tienda Flujo', from);
      await assertSigned(delivery);
      const payload = StoreOnboardedPayloadSchema.parse(JSON.parse(delivery.body));
      assert.match(payload.merchant_key, /^mk_test_/);
      // The key is real: the partner sees the store, and the key creates links for it.
      const stores = ok(StoreListSchema, await api('GET', '/v1/partners/stores', undefined, partnerHeaders));
      assert.ok(stores.some((s) => s.id_store === payload.id_store));
      ok(CreatedLinkSchema, await api('POST', '/v1/links', { description: 'Con la llave nueva', amount: 10_000 }, { 'merchant-key': payload.merchant_key, ...partnerHeaders }));
    });

    test('disconnecting a store sends integration_uninstalled', async () => {
      ok(z.unknown(), await api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Tienda Efímera', external_store_id: 'flow-gone' }));
      const idStore = payloadOf(await nextDelivery('store_onboarded', (p) => p.store_name === 'Tienda Efímera')).id_store;
      const from = receiver.received.length;
      ok(z.unknown(), await api('DELETE', `/v1/partners/stores/${idStore}`, undefined, partnerHeaders));
      const delivery = await nextDelivery('integration_uninstalled', (p) => p.id_store === idStore, from);
      await assertSigned(delivery);
      const payload = IntegrationUninstalledPayloadSchema.parse(JSON.parse(delivery.body));
      assert.equal(payload.store_name, 'Tienda Efímera');
    });

    test('an order created from the dashboard sends no webhook', async () => {
      const from = receiver.received.length;
      const hash = await newLink();
      const dashboardOrder = ok(SandboxOrderSchema, await api('POST', '/sandbox/orders', { hash, payment_gateway: { id_payment_gateway: 9 }, shopper: buyer }));
      assert.equal(dashboardOrder.source, 'dashboard');
      assert.equal(ok(SandboxOrderSchema, await api('POST', `/sandbox/orders/${dashboardOrder.id_order}/pay`)).status, 'confirmed');
      // Barrier: an API order paid afterwards; its webhooks arrive, the dashboard order's never do.
      const apiOrder = await payLinkOrder(await newLink());
      await nextDelivery('order_payment', (p) => p.id_order === apiOrder, from);
      await nextDelivery('link_paid', (p) => p.id_order === apiOrder, from);
      assert.deepEqual(receiver.received.slice(from).filter((r) => payloadOf(r).id_order === dashboardOrder.id_order), []);
    });

    test('a hanging receiver does not slow the buyer API', async () => {
      const hanging = await startReceiver(() => 'hang');
      try {
        ok(z.unknown(), await api('POST', '/sandbox/forward', { url: hanging.url }));
        await payLinkOrder(await newLink());
        await hanging.waitFor(1); // a delivery is now hanging
        const started = performance.now();
        const link = await api('GET', '/v1/checkout/links/demo-fixed');
        const elapsed = performance.now() - started;
        assert.equal(link.status, 200);
        assert.ok(elapsed < 500, `GET /v1/checkout/links/demo-fixed took ${Math.round(elapsed)} ms`);
        const deliveries = ok(z.array(DeliveryRecordSchema), await api('GET', '/sandbox/deliveries'));
        assert.ok(deliveries.some((r) => r.url === hanging.url && r.state === 'pending'), 'the hanging delivery is still in flight');
      } finally {
        await api('DELETE', '/sandbox/forward', { url: hanging.url });
        await hanging.close();
      }
    });

    test('GET /sandbox/deliveries shows every attempt', async () => {
      let failedOnce = false;
      reply = (_index, request) => {
        if (failedOnce || request.headers['x-service-event'] !== 'order_payment') return { status: 200 };
        failedOnce = true;
        return { status: 503, body: 'busy' };
      };
      try {
        const from = receiver.received.length;
        const id = await payLinkOrder(await newLink());
        await nextDelivery('order_payment', (p) => p.id_order === id, receiver.received.findIndex((r, i) => i >= from && payloadOf(r).id_order === id) + 1);
        const mine = (records: z.infer<typeof DeliveryRecordSchema>[]) => records.find((r) => r.url === receiver.url && r.event === 'order_payment' && r.payload.id_order === id);
        let record = mine(ok(z.array(DeliveryRecordSchema), await api('GET', '/sandbox/deliveries')));
        for (let tries = 0; record?.state === 'pending' && tries < 100; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 10)); // the log is updated just after the receiver answers
          record = mine(ok(z.array(DeliveryRecordSchema), await api('GET', '/sandbox/deliveries')));
        }
        assert.ok(record, 'the delivery is in the log');
        assert.equal(record.state, 'delivered');
        assert.deepEqual(record.attempts.map((a) => [a.attempt, a.status, a.outcome, a.response_body]), [
          [1, 503, 'retrying', 'busy'],
          [2, 200, 'delivered', '{"received":true}'],
        ]);
        assert.equal(record.signature, hmacHex(record.body));
        assert.equal(record.headers['X-Service-Signature'], record.signature);
      } finally {
        reply = () => ({ status: 200 });
      }
    });
  });
}
