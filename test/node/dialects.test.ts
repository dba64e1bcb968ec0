/**
 * The clients, the webhook intake and createCheckoutHandler() against the sandbox in both dialects (`contract`, the
 * default, and `live`, the shapes the live service answers in), over real sockets: Nequi, Daviplata and Bre-B pay
 * through the handler, cancel and refund work, and a webhook as the dialect sends it (`X-Wava-*`, `data`-nested in
 * `live`) wakes a waiting status request and settles an in-doubt create.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CheckoutClient, MerchantClient, ServiceError, type DialectReport } from '../../src/client/index.js';
import { liveWebhookHeaders, sandboxHeader, type CheckoutOrderInput } from '../../src/contract/index.js';
import { memoryClaimStore, type CheckoutLinkInfo } from '../../src/server/index.js';
import { orderKeyFor, serverSecrets } from '../../src/server/secrets.js';
import type { SandboxDialect } from '../../src/sandbox/dialect.js';
import type { WebhookDelivery } from '../../src/webhooks/index.js';
import { sign, verify } from '../../src/webhooks/index.js';
import { until } from './claim-store-contract.js';
import { postOrder, serveHandler, type RunningHandler } from './handler-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';
import { startReceiver } from './sandbox-webhooks-receiver.js';

const merchantKey = 'mk_test_demo';
const webhookSecret = 'whsec_test_demo';
const contact = { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.co', phone_number: '+573001234567' };
const links: Record<string, CheckoutLinkInfo> = {
  // The store knows its buyer (the live plugin sends its customer with every link).
  'con-cliente': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo', shopper: contact },
  'sin-cliente': { amount: 30_000, description: 'Gorra', storeName: 'Tienda Demo' },
  // The store knows the name and email, not the phone: only the phone is asked.
  'sin-telefono': { amount: 40_000, description: 'Bufanda', storeName: 'Tienda Demo', shopper: { ...contact, phone_number: null } },
};
const resolveLink = (hash: string) => links[hash] ?? null;
const idOnly = { id_number: '1020304050', id_type: 1 };
const nequi: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 1 }, shopper: { ...idOnly, phone_number: '+573001234567' } };
const daviplata: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 2 }, shopper: idOnly };
const breb: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 9 }, shopper: { ...idOnly, id_type: 2 } };

for (const dialect of ['contract', 'live'] as const satisfies readonly SandboxDialect[]) {
  describe(`dialect ${dialect}`, () => {
    let sb: TestSandbox;
    let handler: RunningHandler;
    let buyer: CheckoutClient;
    let merchant: MerchantClient;
    const reports: DialectReport[] = [];
    const onDialect = (report: DialectReport) => reports.push(report);
    const deliveries: WebhookDelivery[] = [];
    let store = memoryClaimStore();
    const open: RunningHandler[] = [];

    before(async () => {
      sb = await startTestSandbox({}, { dialect });
      merchant = new MerchantClient({ baseUrl: `${sb.origin}/v1`, merchantKey, onDialect });
    });
    // A fresh handler and store per test: a sandbox reset numbers orders from 1 again, and the handler would rightly
    // take a second order 1's order_payment for a replay of the first's.
    beforeEach(async () => {
      await sb.reset();
      await sb.api('DELETE', '/sandbox/faults');
      deliveries.length = 0;
      store = memoryClaimStore();
      handler = await serveHandler({ merchantKey, baseUrl: `${sb.origin}/v1`, resolveLink, webhookSecret, store, onDialect, onWebhook: (d) => deliveries.push(d), statusPollMs: 60_000, claimTimings: { waitMs: 300 }, timeoutMs: 2_000, now: () => sb.running.sandbox.context.clock.now() });
      open.push(handler);
      buyer = new CheckoutClient({ baseUrl: `${handler.url}/v1` });
      assert.equal((await sb.api('POST', '/sandbox/forward', { url: `${handler.url}/v1/webhooks` })).status, 200);
    });
    after(async () => {
      await Promise.all(open.map((h) => h.close()));
      await sb.close();
    });

    const create = (hash: string, body: CheckoutOrderInput, key: string) => buyer.createOrder(hash, body, key);
    const control = async (id: number, action: string) => assert.equal((await sb.api('POST', `/sandbox/orders/${id}/${action}`)).status, 200);
    const sentShopper = (id: number) => sb.running.sandbox.state.orders.get(id)?.shopper;

    it('the merchant client reads discovery, document types, a link (whose URL opens the hosted page) and an order', async () => {
      const gateways = await merchant.paymentGateways();
      assert.deepEqual(gateways.map((g) => g.id_payment_gateway).sort((a, b) => a - b).slice(0, 2), [1, 2]);
      assert.equal((await merchant.documentTypes('CO'))[0]?.type, 'CC');
      const link = await merchant.createLink({ description: 'Donación' });
      assert.ok(link.payment_url.endsWith(`/checkout/${link.hash}`), link.payment_url);
      const page = await fetch(link.payment_url);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      const order = await merchant.createOrder({ amount: 20_000, description: 'x', currency: 'COP', shopper: { ...idOnly, ...contact, country: 'CO' }, payment_gateway: { id_payment_gateway: 2 } });
      const details = await merchant.getOrder(order.id_order);
      assert.equal(details.total, 20_000);
      assert.match(details.purchase_date, /^\d{4}-\d\d-\d\dT/);
      const variants = new Set(reports.map((r) => r.variant));
      if (dialect === 'contract') assert.deepEqual([...variants], []);
      else for (const v of ['result_envelope', 'gateways_object', 'link_field', 'amount_field', 'created_at_field'] as const) assert.ok(variants.has(v), v);
    });

    it('Nequi pays through the handler, with every shopper field the live service requires from the link record', async () => {
      const created = await create('con-cliente', nequi, `nequi-${dialect}`);
      assert.equal(created.next_action?.type, 'approve_push');
      assert.deepEqual(sentShopper(created.id_order), { ...idOnly, ...contact, country: 'CO' });
      await control(created.id_order, 'approve');
      assert.equal((await buyer.getOrder(created.id_order, created.order_token)).status, 'confirmed');
    });

    it('Daviplata pays with its code; the page-given contact wins over the link record', async () => {
      const mine = { ...daviplata, shopper: { ...idOnly, first_name: 'Beatriz', last_name: 'Gómez', email: 'bea@example.co', phone_number: '+573109876543' } };
      const created = await create('con-cliente', mine, `davi-${dialect}`);
      assert.equal(created.next_action?.type, 'enter_otp');
      assert.equal(sentShopper(created.id_order)?.first_name, 'Beatriz');
      assert.equal(sentShopper(created.id_order)?.email, 'bea@example.co');
      const paid = await buyer.submitOtp(created.id_order, created.order_token, '123456');
      assert.equal(paid.status, 'confirmed');
      // The merchant refunds it: full refund of a confirmed order.
      assert.match(await merchant.refund(created.id_order), /refund/i);
      assert.equal((await merchant.getOrder(created.id_order)).status, 'refunded');
    });

    it('Bre-B pays by transfer', async () => {
      const created = await create('con-cliente', breb, `breb-${dialect}`);
      assert.equal(created.next_action?.type, 'transfer');
      await control(created.id_order, 'pay');
      assert.equal((await buyer.getOrder(created.id_order, created.order_token)).status, 'confirmed');
    });

    it('the buyer cancels through the handler (the live dialect knows only PUT /orders/{id}/cancel)', async () => {
      const created = await create('con-cliente', nequi, `cancel-${dialect}`);
      const cancelled = await buyer.cancelOrder(created.id_order, created.order_token);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(reports.some((r) => r.variant === 'cancel_put_route'), dialect === 'live');
    });

    it('a link whose record lacks the contact asks the buyer for it; without it the live service refuses, naming each field', async () => {
      assert.equal((await buyer.getLink('sin-cliente')).collect_shopper_data, true);
      assert.equal((await buyer.getLink('con-cliente')).collect_shopper_data, false);
      const bare = await postOrder(handler.url, `bare-${dialect}`, nequi, 'sin-cliente');
      if (dialect === 'contract') {
        assert.equal(bare.status, 201, JSON.stringify(bare.body));
        assert.deepEqual(sentShopper(bare.body.data.id_order), { ...nequi.shopper, country: 'CO' }, 'nothing made up');
      } else {
        assert.equal(bare.status, 400, JSON.stringify(bare.body));
        assert.equal(bare.body.api_code, 'VALIDATION_FAILED');
        assert.deepEqual(bare.body.validation_errors.map((e: { field: string }) => e.field), ['shopper.first_name', 'shopper.last_name', 'shopper.email']);
      }
      const full = await postOrder(handler.url, `full-${dialect}`, { ...nequi, shopper: { ...nequi.shopper, ...contact } }, 'sin-cliente');
      assert.equal(full.status, 201, JSON.stringify(full.body));
    });

    it('the link asks only for the contact its record lacks; each order carries every field, from the record and the buyer', async () => {
      const typedByBea = { first_name: 'Beatriz', last_name: 'Gómez', email: 'bea@example.co', phone_number: '+573109876543' };
      const cases = [
        { hash: 'con-cliente', asked: undefined, typed: {}, sent: contact },
        { hash: 'sin-telefono', asked: ['phone_number'], typed: { phone_number: typedByBea.phone_number }, sent: { ...contact, phone_number: typedByBea.phone_number } },
        { hash: 'sin-cliente', asked: ['first_name', 'last_name', 'email', 'phone_number'], typed: typedByBea, sent: typedByBea },
      ];
      for (const { hash, asked, typed, sent } of cases) {
        const link = await buyer.getLink(hash);
        assert.equal(link.collect_shopper_data, asked !== undefined, hash);
        assert.deepEqual(link.collect_shopper_fields, asked, hash);
        // What the element sends: the document (Daviplata asks no phone of its own) and the fields it asked for.
        const created = await create(hash, { ...daviplata, shopper: { ...idOnly, ...typed } }, `${hash}-${dialect}`);
        assert.deepEqual(sentShopper(created.id_order), { ...idOnly, ...sent, country: 'CO' }, hash);
      }
      // The phone left out: the live service refuses naming only it; the contract takes the order, nothing made up.
      const noPhone = await postOrder(handler.url, `no-phone-${dialect}`, daviplata, 'sin-telefono');
      if (dialect === 'contract') {
        assert.equal(noPhone.status, 201, JSON.stringify(noPhone.body));
        const { phone_number: _unknown, ...named } = contact;
        assert.deepEqual(sentShopper(noPhone.body.data.id_order), { ...idOnly, ...named, country: 'CO' });
      } else {
        assert.equal(noPhone.status, 400, JSON.stringify(noPhone.body));
        assert.deepEqual(noPhone.body.validation_errors.map((e: { field: string }) => e.field), ['shopper.phone_number']);
      }
    });

    it('the webhook as the dialect sends it wakes a waiting status request', async () => {
      const created = await create('con-cliente', nequi, `wake-${dialect}`);
      const waiting = buyer.waitForOrder(created.id_order, created.order_token, 'processing', 20, { signal: AbortSignal.timeout(10_000) });
      await until(() => (sb.running.sandbox.state.orders.size > 0 ? true : undefined), 'the order');
      await new Promise((resolve) => setTimeout(resolve, 200)); // the request is waiting at the handler
      await control(created.id_order, 'approve');
      const { order } = await waiting;
      assert.equal(order.status, 'confirmed');
      const payment = deliveries.find((d) => d.event === 'order_payment');
      assert.ok(payment, 'the handler verified the order_payment delivery');
      assert.equal(payment.headerFamily, dialect === 'live' ? 'wava' : 'service');
      assert.equal(payment.layout, dialect === 'live' ? 'nested' : 'flat');
    });

    it('the webhook as the dialect sends it settles an in-doubt create', async () => {
      const slow = await serveHandler({ merchantKey, baseUrl: `${sb.origin}/v1`, resolveLink, webhookSecret, store, onDialect, timeoutMs: 400, claimTimings: { waitMs: 300 }, now: () => sb.running.sandbox.context.clock.now() });
      open.push(slow);
      assert.equal((await sb.api('POST', '/sandbox/forward', { url: `${slow.url}/v1/webhooks` })).status, 200);
      assert.equal((await sb.api('POST', '/sandbox/faults', { path: '/v1/orders', method: 'POST', count: 1, mode: 'slow_first_byte', latency_ms: 1_500 })).status, 200);
      const first = await postOrder(slow.url, `doubt-${dialect}`, nequi, 'con-cliente');
      assert.equal(first.status, 409, JSON.stringify(first.body));
      await until(() => (sb.orderCount() === 1 ? true : undefined), 'the late order');
      const claim = await orderKeyFor((await serverSecrets(merchantKey)).orderKey, 'con-cliente', `doubt-${dialect}`);
      assert.equal((await store.inspect(claim)).state, 'held');
      const [order] = sb.running.sandbox.state.orders.values();
      assert.ok(order);
      await control(order.id_order, 'approve');
      await until(async () => ((await store.inspect(claim)).state === 'done' ? true : undefined), 'the webhook to settle the claim');
      const settled = await postOrder(slow.url, `doubt-${dialect}`, nequi, 'con-cliente');
      assert.equal(settled.status, 200, JSON.stringify(settled.body));
      assert.equal(settled.body.data.id_order, order.id_order);
      assert.equal(settled.body.data.status, 'confirmed');
      assert.equal(sb.orderCount(), 1);
    });

    it('a forged or missing signature is 401 under either header family; a signed unknown event is acknowledged', async () => {
      const post = (body: string, headers: Record<string, string>) => fetch(`${handler.url}/v1/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const timestamp = new Date(sb.running.sandbox.context.clock.now()).toISOString();
      const body = JSON.stringify({ event: 'order_payment', timestamp, data: { id_order: 1, status: 'confirmed', amount: 1 } });
      for (const family of ['Service', 'Wava']) {
        assert.equal((await post(body, { [`X-${family}-Signature`]: await sign(body, 'whsec_forged') })).status, 401, family);
        assert.equal((await post(body, { [`X-${family}-Event`]: 'order_payment' })).status, 401, family);
      }
      const unknown = JSON.stringify({ event: 'order_created', timestamp, data: { id_order: 1 } });
      for (const family of ['Service', 'Wava']) {
        const reply = await post(unknown, { [`X-${family}-Signature`]: await sign(unknown, webhookSecret) });
        assert.equal(reply.status, 200, family);
        assert.deepEqual(((await reply.json()) as { data: unknown }).data, { received: true, handled: false, unknown: true });
      }
      const seen = deliveries.filter((d) => d.event === 'unknown');
      assert.equal(seen.length, 2);
      assert.deepEqual(seen[0]?.payload, JSON.parse(unknown));
    });
  });
}

describe('the live dialect on the wire', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox({}, { dialect: 'live' });
  });
  after(() => sb.close());

  // The default logs once per process: every other handler of this file passes its own onDialect, so this one is first.
  it("the handler's default onDialect logs each variant once, however many requests use it", async (t) => {
    const lines: string[] = [];
    t.mock.method(console, 'info', (line: string) => void lines.push(line));
    const handler = await serveHandler({ merchantKey, baseUrl: `${sb.origin}/v1`, resolveLink });
    try {
      const buyer = new CheckoutClient({ baseUrl: `${handler.url}/v1` });
      for (let i = 0; i < 3; i++) await buyer.getLink('con-cliente');
    } finally {
      await handler.close();
    }
    const logged = lines.filter((line) => line.startsWith('[pay-checkout] '));
    assert.equal(logged.filter((line) => line.includes('"result"')).length, 1, logged.join('\n'));
    assert.ok(logged.some((line) => line.includes('payment_gateways')));
    assert.equal(new Set(logged).size, logged.length, 'no line twice');
  });

  it("keeps the development environment's conventions: each test code confirms a Daviplata order, another is 6105, and its webhook goes signed under X-Wava-* to the forward target", async () => {
    const receiver = await startReceiver();
    try {
      await sb.reset();
      assert.equal((await sb.api('POST', '/sandbox/forward', { url: receiver.url })).status, 200);
      const headers = { 'merchant-key': merchantKey };
      const order = async () => {
        const created = await sb.api('POST', '/v1/orders', { amount: 1000, description: 'x', currency: 'COP', payment_gateway: { id_payment_gateway: 2 }, shopper: { ...idOnly, ...contact, country: 'CO' } }, headers);
        assert.equal(created.status, 200, JSON.stringify(created.body));
        assert.equal(created.body.result.daviplata_token_required, true);
        return created.body.result.id_order as number;
      };
      const wrong = await sb.api('POST', `/v1/orders/daviplata/${await order()}`, { daviplata_otp: '999999' }, headers);
      assert.equal(wrong.body.code, 6105);
      const confirmed: number[] = [];
      for (const code of ['123456', '000000', '111111']) {
        const id = await order();
        const paid = await sb.api('POST', `/v1/orders/daviplata/${id}`, { daviplata_otp: code }, headers);
        assert.equal(paid.body.result.status, 'confirmed', code);
        confirmed.push(id);
      }
      const received = await receiver.waitFor(3);
      for (const [i, delivery] of received.entries()) {
        const signature = delivery.headers[liveWebhookHeaders.signature.toLowerCase()] as string;
        assert.equal(delivery.headers[liveWebhookHeaders.event.toLowerCase()], 'order_payment');
        assert.ok(await verify(delivery.body, signature, webhookSecret), 'signed with the demo account\'s secret');
        assert.equal(JSON.parse(delivery.body).data.id_order, confirmed[i]);
      }
    } finally {
      await receiver.close();
    }
  });

  it('says it is a sandbox, and in which dialect, on every answer: an API answer, a refusal, a control answer, a path it does not have', async () => {
    const answers = await Promise.all([
      fetch(`${sb.origin}/v1/orders/paymentGateways`, { headers: { 'merchant-key': merchantKey } }),
      fetch(`${sb.origin}/v1/orders/paymentGateways`),
      fetch(`${sb.origin}/sandbox/fixtures`),
      fetch(`${sb.origin}/nowhere`),
      fetch(`${sb.origin}/sandbox/faults`, { method: 'DELETE', headers: { origin: 'https://attacker.example' } }),
    ]);
    assert.deepEqual(answers.map((a) => a.status), [200, 401, 200, 404, 403]);
    for (const answer of answers) {
      assert.equal(answer.headers.get(sandboxHeader), 'live');
      await answer.body?.cancel();
    }
  });

  it('answers in result envelopes; the documented cancel route is a framework 404; a create missing shopper fields names each', async () => {
    const headers = { 'merchant-key': merchantKey };
    const gateways = await sb.api('GET', '/v1/orders/paymentGateways', undefined, headers);
    assert.ok(Array.isArray(gateways.body.result.payment_gateways));
    const link = await sb.api('POST', '/v1/links', { description: 'x' }, headers);
    assert.deepEqual(Object.keys(link.body.result).sort(), ['hash', 'link', 'wallet_id']);
    const refused = await sb.api('POST', '/v1/orders', { amount: 1000, description: 'x', currency: 'COP', payment_gateway: { id_payment_gateway: 2 }, shopper: idOnly }, headers);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.validation_errors.map((e: { field: string }) => e.field), ['shopper.first_name', 'shopper.last_name', 'shopper.email', 'shopper.phone_number', 'shopper.country']);
    const cancel = await sb.api('POST', '/v1/orders/cancel/1', undefined, headers);
    assert.equal(cancel.status, 404);
    assert.equal(cancel.body.statusCode, 404);
    assert.equal(cancel.body.code, undefined);
    const checkoutLink = await sb.api('GET', '/v1/checkout/links/demo-fixed');
    assert.equal(checkoutLink.status, 200);
    assert.ok(checkoutLink.body.data, 'the buyer API keeps its own data wrapper');
    // A raw merchant client error keeps the service's error body.
    await assert.rejects(new MerchantClient({ baseUrl: `${sb.origin}/v1`, merchantKey: 'mk_test_nobody' }).paymentGateways(), (e: unknown) => e instanceof ServiceError && e.serviceBody && e.status === 401);
  });
});
