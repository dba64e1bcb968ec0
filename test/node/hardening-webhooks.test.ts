// Webhooks as a partner meets them, over real HTTP: verified with node:crypto alone, altered in flight by a
// man-in-the-middle, and delivered twice; the sandbox sends, independent receivers judge.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import * as z from 'zod/mini';
import { DeliveryRecordSchema, dataOf } from '../../src/contract/index.js';
import { parseDelivery, verify, WebhookDeliveryError } from '../../src/webhooks/index.js';
import { checkoutOrder, gateways, partner, startTestSandbox, type TestSandbox } from './sandbox-harness.js';
import { dedupeKey, startPartnerReceiver, startTamperingProxy, type InFlight, type PartnerAnswer, type PartnerDelivery, type PartnerReceiver, type TamperingProxy } from './hardening-partner-receiver.js';

const signingSecret = 'whsec_test_demo'; // the demo partner's; the demo store is connected to it
const eventOf = (d: PartnerDelivery) => String(d.headers['x-service-event']);

describe('webhooks verified independently', () => {
  let sb: TestSandbox;
  let receiver: PartnerReceiver | undefined;
  const proxies: TamperingProxy[] = [];

  before(async () => {
    // A generous 2 s per attempt, so a busy machine never turns an answer into a retry; 20 ms between attempts.
    sb = await startTestSandbox({ webhookTimeoutMs: 2_000 });
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());
  afterEach(async () => {
    await sb.api('DELETE', '/sandbox/forward');
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await receiver?.close();
    receiver = undefined;
  });

  async function listen(answer?: (index: number, d: PartnerDelivery) => PartnerAnswer): Promise<PartnerReceiver> {
    receiver = await startPartnerReceiver(signingSecret, answer);
    return receiver;
  }
  async function forwardTo(url: string) {
    const r = await sb.api('POST', '/sandbox/forward', { url });
    assert.equal(r.status, 200, r.text);
  }
  /** A buyer pays demo-fixed by transfer: order_payment and link_paid follow. Returns the order id. */
  async function payFixedLink(): Promise<number> {
    const created = await checkoutOrder(sb, 'demo-fixed', gateways.transfer);
    assert.equal(created.status, 201, created.text);
    const id: number = created.body.data.id_order;
    const paid = await sb.api('POST', `/sandbox/orders/${id}/pay`);
    assert.equal(paid.status, 200, paid.text);
    return id;
  }
  async function onboard(storeName: string): Promise<number> {
    const r = await sb.api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: storeName, external_store_id: storeName.toLowerCase().replace(/\s+/g, '-') });
    assert.equal(r.status, 200, r.text);
    return r.body.data.id_store;
  }
  async function deliveryLog() {
    const r = await sb.api('GET', '/sandbox/deliveries');
    return dataOf(z.array(DeliveryRecordSchema)).parse(r.body).data;
  }
  /** The log once no delivery to `url` is pending any more (it is updated just after the receiver answers). */
  async function settledLog(url: string) {
    for (let tries = 0; ; tries++) {
      const log = (await deliveryLog()).filter((r) => r.url === url);
      if (log.every((r) => r.state !== 'pending') || tries > 200) return log;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  test('a receiver using only node:crypto accepts every real delivery of a full scenario', async () => {
    const hooks = await listen();
    await forwardTo(hooks.url);

    const idOrder = await payFixedLink();
    const idStore = await onboard('Tienda Verificada');
    const disconnected = await sb.api('DELETE', `/v1/partners/stores/${idStore}`, undefined, partner);
    assert.equal(disconnected.status, 200, disconnected.text);
    // PATCH /partners/webhook only takes https, so the ping reaches the local receiver through the forwarder.
    const ping = await sb.api('POST', '/v1/partners/webhook/test', undefined, partner);
    assert.equal(ping.status, 200, ping.text);
    assert.equal(ping.body.data.success, true, ping.text);
    assert.equal(ping.body.data.response_status, 200);

    const expected: [string, (p: Record<string, unknown>) => boolean][] = [
      ['order_payment', (p) => p.id_order === idOrder && p.status === 'confirmed'],
      ['link_paid', (p) => p.id_order === idOrder],
      ['store_onboarded', (p) => p.id_store === idStore && typeof p.merchant_key === 'string'],
      ['integration_uninstalled', (p) => p.id_store === idStore],
      ['test.ping', () => true],
    ];
    for (const [event, matches] of expected) {
      const d = await hooks.waitFor((x) => eventOf(x) === event);
      assert.equal(d.signatureValid, true, `${event} failed independent verification`);
      assert.ok(d.payload && matches(d.payload), `${event} payload: ${d.raw.toString()}`);
    }
    assert.deepEqual(hooks.deliveries.map(eventOf).sort(), expected.map(([e]) => e).sort(), 'each event exactly once');
    assert.ok(hooks.deliveries.every((d) => d.signatureValid), 'no real delivery was refused');
    // The sandbox saw each one accepted on the first attempt.
    const log = await settledLog(hooks.url);
    assert.deepEqual(log.map((r) => [r.event, r.state, r.attempts.map((a) => a.status)]).sort(), expected.map(([e]) => [e, 'delivered', [200]]).sort());
  });

  describe('deliveries altered in flight fail verification', () => {
    const lastDigit = /\d(?=\D*$)/;
    const alterations: Record<string, (m: InFlight) => InFlight> = {
      unaltered: (m) => m,
      // A digit keeps the JSON valid (9 becomes 8, so an id never becomes 0): only the signature can tell.
      'one body byte': (m) => ({ ...m, body: Buffer.from(m.body.toString('utf8').replace(lastDigit, (d) => String(d === '9' ? 8 : Number(d) + 1))) }),
      'properties reordered': (m) => ({ ...m, body: Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(m.body.toString('utf8')) as object).reverse()))) }),
      'whitespace added': (m) => ({ ...m, body: Buffer.from(JSON.stringify(JSON.parse(m.body.toString('utf8')), null, 2)) }),
      'signature in upper case': (m) => ({ ...m, headers: { ...m.headers, 'x-service-signature': String(m.headers['x-service-signature']).toUpperCase() } }),
      'sha256= prefix': (m) => ({ ...m, headers: { ...m.headers, 'x-service-signature': `sha256=${String(m.headers['x-service-signature'])}` } }),
    };
    const names = Object.keys(alterations);

    test('each alteration is refused by the independent receiver and by src/webhooks; the unaltered copy passes', async () => {
      const hooks = await listen();
      const proxyOf = new Map<string, string>();
      for (const name of names) {
        // Each proxy sends its copy to its own path, so the receiver knows which alteration it got.
        const proxy = await startTamperingProxy(`${hooks.url}/${encodeURIComponent(name)}`, alterations[name]!);
        proxies.push(proxy);
        proxyOf.set(name, proxy.url);
        await forwardTo(proxy.url);
      }
      const idOrder = await payFixedLink();
      await onboard('Tienda Interceptada');
      const events = ['order_payment', 'link_paid', 'store_onboarded'];
      const copyOf = (name: string, event: string) => hooks.waitFor((d) => d.path === `/hooks/${encodeURIComponent(name)}` && eventOf(d) === event);

      for (const event of events) {
        const original = await copyOf('unaltered', event);
        assert.equal(original.signatureValid, true, `the unaltered ${event} passes`);
        const now = () => sb.clock.now(); // the signed timestamps come from the sandbox's frozen clock
        const parsedOriginal = await parseDelivery({ headers: original.headers, body: original.raw, secret: signingSecret, now });
        assert.equal(parsedOriginal.secretIndex, 0);
        if (event !== 'store_onboarded') assert.equal(original.payload?.id_order, idOrder);

        for (const name of names.filter((n) => n !== 'unaltered')) {
          const copy = await copyOf(name, event);
          const label = `${name} on ${event}`;
          assert.ok(!copy.raw.equals(original.raw) || copy.headers['x-service-signature'] !== original.headers['x-service-signature'], `${label}: the proxy changed something`);
          assert.equal(copy.signatureValid, false, `${label}: the independent receiver must refuse it`);
          const header = copy.headers['x-service-signature'] as string;
          assert.equal(await verify(copy.raw.toString('utf8'), header, signingSecret), false, `${label}: verify() over the received text must refuse it`);
          const parsed = parseDelivery({ headers: copy.headers, body: copy.raw, secret: signingSecret, now });
          if (name === 'whitespace added') {
            // The contract tells verifiers to re-serialize the parsed payload compactly, so whitespace between
            // tokens changes nothing that is signed: parseDelivery accepts it, and the data is exactly the original's.
            assert.deepEqual((await parsed).payload, parsedOriginal.payload, label);
          } else {
            await assert.rejects(parsed, (error: unknown) => error instanceof WebhookDeliveryError && error.httpStatus === 401, `${label}: parseDelivery must refuse it`);
          }
        }
      }
      // The receiver's 401 is a permanent rejection: each altered copy was tried once, never retried.
      for (const name of names) {
        const log = await settledLog(proxyOf.get(name)!);
        assert.equal(log.length, events.length, `${name}: ${JSON.stringify(log.map((r) => r.event))}`);
        const expected = name === 'unaltered' ? ['delivered', [200]] : ['failed', [401]];
        for (const record of log) assert.deepEqual([record.state, record.attempts.map((a) => a.status)], expected, `${name} ${record.event}`);
      }
    });
  });

  describe('duplicate deliveries are recognisable by id_order and id_store', () => {
    /** Every key's effect happened once, although every key was delivered twice with the same bytes. */
    function assertOneEffectEach(hooks: PartnerReceiver, keys: string[]) {
      assert.deepEqual([...hooks.effects].sort(), [...keys].sort(), 'one effect per dedupe key');
      for (const key of keys) {
        const copies = hooks.deliveries.filter((d) => d.signatureValid && d.payload !== null && dedupeKey(d.payload) === key);
        assert.equal(copies.length, 2, `${key} was delivered twice`);
        assert.ok(copies[0]!.raw.equals(copies[1]!.raw), `${key}: the retry carries the same event`);
        assert.deepEqual(copies.map((d) => d.duplicate), [false, true], `${key}: the second copy is recognised`);
      }
    }

    test('a 500 after processing: the retry is recognised and has no second effect', async () => {
      // The first copy of each event is processed, then answered 500 (say the database commit reply was lost).
      const hooks = await listen((_index, d) => (d.duplicate ? 200 : 500));
      await forwardTo(hooks.url);
      const idOrder = await payFixedLink();
      const idStore = await onboard('Tienda Repetida');
      const keys = [`order_payment:order:${idOrder}`, `link_paid:order:${idOrder}`, `store_onboarded:store:${idStore}`];
      for (const key of keys) await hooks.waitFor((d) => d.duplicate && d.payload !== null && dedupeKey(d.payload) === key);
      assertOneEffectEach(hooks, keys);
      const log = await settledLog(hooks.url);
      for (const record of log) assert.deepEqual(record.attempts.map((a) => [a.status, a.outcome]), [[500, 'retrying'], [200, 'delivered']], record.event);
    });

    test('a reply slower than the timeout: the retry is recognised and has no second effect', async () => {
      // The first copy is processed but never answered in time; this sandbox's sender gives up after 400 ms and retries.
      const main = sb;
      sb = await startTestSandbox({ webhookTimeoutMs: 400 });
      try {
        const hooks = await listen((_index, d) => (d.duplicate ? 200 : 'hang'));
        await forwardTo(hooks.url);
        const idOrder = await payFixedLink();
        const idStore = await onboard('Tienda Lenta');
        const keys = [`order_payment:order:${idOrder}`, `link_paid:order:${idOrder}`, `store_onboarded:store:${idStore}`];
        for (const key of keys) await hooks.waitFor((d) => d.duplicate && d.payload !== null && dedupeKey(d.payload) === key);
        assertOneEffectEach(hooks, keys);
        const log = await settledLog(hooks.url);
        for (const record of log) assert.deepEqual(record.attempts.map((a) => [a.status, a.outcome, a.error]), [[null, 'retrying', 'timeout after 400 ms'], [200, 'delivered', null]], record.event);
      } finally {
        await sb.close();
        sb = main;
      }
    });
  });
});
