// The partner API: connected stores, disconnect, onboarding link, webhook configuration rules and the test ping.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PartnerEventListSchema, PatchWebhookResultSchema, StoreListSchema, WebhookTestResultSchema, partnerConfigurableEvents } from '../../src/contract/index.js';
import { assertError, assertFieldError, merchant, otherPartner, partner, startTestSandbox, type TestSandbox, type Json } from './sandbox-harness.js';
import { startReceiver, type Receiver } from './sandbox-webhooks-receiver.js';

describe('sandbox partner API', () => {
  let sb: TestSandbox;
  let receiver: Receiver;
  before(async () => {
    sb = await startTestSandbox();
    receiver = await startReceiver((_i, req) => (req.path.includes('fail') ? { status: 500, body: 'down' } : { status: 200 }));
  });
  after(async () => {
    await sb.close();
    await receiver.close();
  });
  beforeEach(() => sb.reset());

  const onboard = async (name: string, external: string) => {
    const r = await sb.api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: name, external_store_id: external });
    assert.equal(r.status, 200, r.text);
    return r.body.data as { id_store: number; merchant_key: string };
  };

  test('GET /partners/stores lists only the connected stores', async () => {
    const r = await sb.api('GET', '/v1/partners/stores', undefined, partner);
    assert.ok(StoreListSchema.safeParse(r.body.data).success);
    assert.deepEqual(r.body.data.map((s: Json) => [s.id_store, s.external_store_id]), [[1, 'demo-store']]);
    assert.equal(r.body.data[0].merchant_key, undefined, 'the list never repeats merchant keys');
    const other = await sb.api('GET', '/v1/partners/stores', undefined, otherPartner);
    assert.deepEqual(other.body.data.map((s: Json) => s.id_store), [2]);
  });

  test('an onboarded store can be used with its merchant key, by the partner too', async () => {
    const store = await onboard('Tienda Nueva', 'ext-9');
    const stores = await sb.api('GET', '/v1/partners/stores', undefined, partner);
    assert.ok(stores.body.data.some((s: Json) => s.id_store === store.id_store));
    const link = await sb.api('POST', '/v1/links', { description: 'x', amount: 2_000 }, { 'merchant-key': store.merchant_key, ...partner });
    assert.equal(link.status, 200, link.text);
  });

  test('DELETE /partners/stores/{id}: disconnects, then the partner may no longer act for it', async () => {
    const store = await onboard('Tienda Breve', 'ext-1');
    const r = await sb.api('DELETE', `/v1/partners/stores/${store.id_store}`, undefined, partner);
    assert.equal(r.status, 200, r.text);
    const stores = await sb.api('GET', '/v1/partners/stores', undefined, partner);
    assert.ok(!stores.body.data.some((s: Json) => s.id_store === store.id_store));
    assertError(await sb.api('POST', '/v1/links', { description: 'x', amount: 2_000 }, { 'merchant-key': store.merchant_key, ...partner }), 401, 'UNAUTHORIZED_ACCESS');
    // The merchant's own key keeps working without the partner.
    assert.equal((await sb.api('POST', '/v1/links', { description: 'x', amount: 2_000 }, { 'merchant-key': store.merchant_key })).status, 200);
    assertError(await sb.api('DELETE', `/v1/partners/stores/${store.id_store}`, undefined, partner), 404, 'STORE_NOT_FOUND');
  });

  test("a partner cannot disconnect another partner's store; bad ids are 400", async () => {
    assertError(await sb.api('DELETE', '/v1/partners/stores/2', undefined, partner), 404, 'STORE_NOT_FOUND');
    assert.equal((await sb.api('GET', '/v1/partners/stores', undefined, otherPartner)).body.data.length, 1);
    assertFieldError(await sb.api('DELETE', '/v1/partners/stores/abc', undefined, partner), 'id_store');
  });

  test('GET /partners/onboarding-link is {onboarding_url}?platform=NAME', async () => {
    const r = await sb.api('GET', '/v1/partners/onboarding-link', undefined, partner);
    assert.equal(r.body.data.url, `${sb.origin}/onboarding?platform=demo-partner`);
  });

  test('GET /partners/events lists exactly the five events PATCH accepts', async () => {
    const r = await sb.api('GET', '/v1/partners/events', undefined, partner);
    assert.ok(PartnerEventListSchema.safeParse(r.body.data).success);
    assert.deepEqual(r.body.data.map((e: Json) => e.event), [...partnerConfigurableEvents]);
  });

  describe('PATCH /partners/webhook', () => {
    test('GET shows url, events and signing_enabled (the key itself never)', async () => {
      const r = await sb.api('GET', '/v1/partners/webhook', undefined, partner);
      assert.equal(r.body.data.url, null);
      assert.equal(r.body.data.signing_enabled, true);
      assert.ok(Array.isArray(r.body.data.events));
      assert.ok(!r.text.includes('whsec_'));
    });

    test('rule 1: an omitted field is left unchanged', async () => {
      await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/hooks', events: ['store_onboarded', 'store_updated'] }, partner);
      const onlyUrl = await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/v2' }, partner);
      assert.deepEqual(onlyUrl.body.data.webhook.events, ['store_onboarded', 'store_updated']);
      const onlyEvents = await sb.api('PATCH', '/v1/partners/webhook', { events: ['integration_uninstalled'] }, partner);
      assert.equal(onlyEvents.body.data.webhook.url, 'https://partner.example/v2');
      const empty = await sb.api('PATCH', '/v1/partners/webhook', {}, partner);
      assert.deepEqual(empty.body.data.webhook.events, ['integration_uninstalled']);
      assert.equal(empty.body.data.webhook.url, 'https://partner.example/v2');
    });

    test('rule 2: applies to the account and every integration; updated_integrations counts them', async () => {
      await onboard('A', 'a');
      await onboard('B', 'b');
      const r = await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://partner.example/all', events: ['store_deleted'] }, partner);
      assert.equal(r.status, 200, r.text);
      assert.ok(PatchWebhookResultSchema.safeParse(r.body.data).success);
      assert.equal(r.body.data.success, true);
      assert.equal(r.body.data.updated_integrations, 3);
      const { integrations } = sb.running.sandbox.state;
      for (const i of integrations.filter((x) => x.id_partner === 1)) assert.deepEqual([i.webhook.url, i.webhook.events], ['https://partner.example/all', ['store_deleted']]);
      const untouched = integrations.find((x) => x.id_partner === 2);
      assert.equal(untouched?.webhook.url, null, "another partner's integrations are not touched");
    });

    test('rule 3: a plain http URL is 400 INVALID_WEBHOOK_URL and changes nothing', async () => {
      const r = await sb.api('PATCH', '/v1/partners/webhook', { url: 'http://partner.example/hooks', events: ['store_updated'] }, partner);
      assertError(r, 400, 'INVALID_WEBHOOK_URL');
      const now = await sb.api('GET', '/v1/partners/webhook', undefined, partner);
      assert.equal(now.body.data.url, null);
      assert.ok(!now.body.data.events.includes('store_updated'));
    });

    test('an unsupported event is 400 UNSUPPORTED_EVENT and changes nothing', async () => {
      const before = (await sb.api('GET', '/v1/partners/webhook', undefined, partner)).body.data;
      for (const events of [['order_payment'], ['store_onboarded', 'nope']]) {
        const r = await sb.api('PATCH', '/v1/partners/webhook', { events }, partner);
        assertError(r, 400, 'UNSUPPORTED_EVENT');
      }
      assert.deepEqual((await sb.api('GET', '/v1/partners/webhook', undefined, partner)).body.data, before);
    });

    test('failed partner authentication is 401', async () => {
      assert.equal((await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://x.example' }, { ...partner, 'X-API-Secret': 'no' })).status, 401);
      assert.equal((await sb.api('PATCH', '/v1/partners/webhook', { url: 'https://x.example' }, merchant)).status, 401);
    });
  });

  describe('POST /partners/webhook/test', () => {
    test('with a receiver: posts a signed test.ping and reports the first attempt', async () => {
      await sb.api('POST', '/sandbox/forward', { url: receiver.url });
      const from = receiver.received.length;
      const r = await sb.api('POST', '/v1/partners/webhook/test', undefined, partner);
      assert.equal(r.status, 200, r.text);
      assert.ok(WebhookTestResultSchema.safeParse(r.body.data).success, r.text);
      assert.equal(r.body.data.success, true);
      assert.equal(r.body.data.test_sent, true);
      assert.equal(r.body.data.url, receiver.url);
      assert.equal(r.body.data.response_status, 200);
      assert.equal(r.body.data.error, null);
      const ping = receiver.received[from];
      assert.equal(ping?.headers['x-service-event'], 'test.ping');
      assert.equal(ping?.headers['x-service-signature'], createHmac('sha256', 'whsec_test_demo').update(ping?.body ?? '').digest('hex'));
    });

    test('a failing receiver: success false with the status and error', async () => {
      await sb.api('POST', '/sandbox/forward', { url: receiver.url.replace('/hooks', '/fail') });
      const r = await sb.api('POST', '/v1/partners/webhook/test', undefined, partner);
      assert.equal(r.body.data.success, false);
      assert.equal(r.body.data.response_status, 500);
      assert.equal(typeof r.body.data.error, 'string');
    });

    test('no URL configured: success false, test_sent false', async () => {
      const r = await sb.api('POST', '/v1/partners/webhook/test', undefined, partner);
      assert.equal(r.body.data.success, false);
      assert.equal(r.body.data.test_sent, false);
    });
  });
});
