import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { InvalidRequestError, MerchantClient, PartnerClient } from '../../src/client/index.js';
import { FakeService } from './client-server.js';
import type { ReceivedRequest } from './client-server.js';

const at = '2025-06-01T12:00:00.000Z';
const orderBody = {
  amount: 50000,
  description: 'Pedido 1',
  currency: 'COP',
  shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com', phone_number: '+573001234567', country: 'CO', id_number: '12345678', id_type: 1 },
  payment_gateway: { id_payment_gateway: 1 },
  order_key: 'order-12345',
};
const created = { id_order: 42, id_external: 'order-12345', status: 'processing', payment_gateway: { nequi: { phone_number: '****567' } } };
const webhookConfig = { url: 'https://partner.example/hooks', events: ['store_onboarded'], signing_enabled: true };
const stats = {
  currency: 'COP',
  date_from: '2025-06-01',
  date_to: '2025-06-07',
  total_revenue: 100000,
  total_orders: 2,
  conversion_rate: 50,
  delta_revenue_pct: null,
  delta_orders_pct: null,
  daily_revenue: [],
  gateway_split: [],
  fees_vs_net: [],
};

const credentials = (r: ReceivedRequest | undefined) => ({
  merchantKey: r?.headers['merchant-key'],
  apiKey: r?.headers['x-api-key'],
  apiSecret: r?.headers['x-api-secret'],
});

describe('MerchantClient and PartnerClient (real HTTP server)', () => {
  const service = new FakeService();
  let merchant: MerchantClient;
  let partner: PartnerClient;

  before(async () => {
    await service.start();
    merchant = new MerchantClient({ baseUrl: service.baseUrl, merchantKey: 'mk_test_demo' });
    partner = new PartnerClient({ baseUrl: service.baseUrl, apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo' });
  });
  afterEach(() => {
    service.received.length = 0;
  });
  after(() => service.stop());

  it('merchant calls use the documented paths and only merchant-key', async () => {
    service
      .on('POST /v1/orders', { body: { data: created } })
      .on('GET /v1/orders/42', { body: { data: { id_order: 42, id_external: 'order-12345', purchase_date: at, status: 'confirmed', total: 50000, currency: 'COP' } } })
      .on('POST /v1/orders/cancel/42', { body: { data: { id_order: 42, status: 'cancelled' } } })
      .on('POST /v1/orders/daviplata/42', { body: { data: { id_order: 42, status: 'confirmed', payment_method: { gateway: 'daviplata', status: 'completed' } } } })
      .on('POST /v1/links', { body: { data: { payment_link_id: 3, payment_url: 'https://checkout.wava.co/h1', hash: 'h1', expires_at: at } } })
      .on('GET /v1/orders/paymentGateways', { body: { data: [{ id_payment_gateway: 1, name: 'Nequi', required_fields: ['phone_number'], icon: 'https://x.test/n.png' }] } })
      .on('GET /v1/national-document-types/CO', { body: { data: [{ id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' }] } })
      .on('GET /v1/merchant/5/dashboard/stats', { body: { result: stats } });

    assert.deepEqual(await merchant.createOrder(orderBody), created);
    assert.equal((await merchant.getOrder(42)).total, 50000);
    assert.equal((await merchant.cancel(42)).status, 'cancelled');
    assert.equal((await merchant.submitOtp(42, '123456')).status, 'confirmed');
    assert.equal((await merchant.createLink({ description: 'Donación' })).hash, 'h1');
    assert.equal((await merchant.paymentGateways())[0]?.name, 'Nequi');
    assert.equal((await merchant.documentTypes())[0]?.type, 'CC');
    assert.equal((await merchant.dashboardStats(5, { currency: 'COP', date_from: '2025-06-01', date_to: '2025-06-07' })).total_orders, 2);

    assert.deepEqual(service.received.map((r) => `${r.method} ${r.url}`), [
      'POST /v1/orders',
      'GET /v1/orders/42',
      'POST /v1/orders/cancel/42',
      'POST /v1/orders/daviplata/42',
      'POST /v1/links',
      'GET /v1/orders/paymentGateways',
      'GET /v1/national-document-types/CO',
      'GET /v1/merchant/5/dashboard/stats?currency=COP&date_from=2025-06-01&date_to=2025-06-07',
    ]);
    for (const r of service.received) assert.deepEqual(credentials(r), { merchantKey: 'mk_test_demo', apiKey: undefined, apiSecret: undefined });
    assert.deepEqual(JSON.parse(service.received[0]?.body ?? ''), orderBody);
    assert.deepEqual(JSON.parse(service.received[3]?.body ?? ''), { daviplata_otp: '123456' });
  });

  it("refund reads the contract's {result} and the live docs' {data: string}", async () => {
    service.on('POST /v1/orders/refund/42', { body: { result: 'Refund processed successfully' } });
    assert.equal(await merchant.refund(42, { id_external: 'order-12345' }), 'Refund processed successfully');
    assert.deepEqual(JSON.parse(service.only().body), { id_external: 'order-12345' });
    service.on('POST /v1/orders/refund/42', { body: { data: 'Refund processed' } });
    assert.equal(await merchant.refund(42), 'Refund processed');
    service.on('POST /v1/orders/refund/42', { body: { result: 5 } });
    await assert.rejects(merchant.refund(42), (e: unknown) => e instanceof Error && /result/.test(e.message));
  });

  it('partner calls use /partners/* with only the key pair', async () => {
    service
      .on('GET /v1/partners/webhook', { body: { data: webhookConfig } })
      .on('PATCH /v1/partners/webhook', { body: { data: { success: true, webhook: webhookConfig, updated_integrations: 2 } } })
      .on('POST /v1/partners/webhook/test', { body: { success: true, test_sent: true, url: webhookConfig.url, response_status: 200, response_time_ms: 35, error: null } })
      .on('GET /v1/partners/events', { body: { data: [{ event: 'store_onboarded', description: 'A merchant finished onboarding' }] } })
      .on('GET /v1/partners/stores', { body: { data: [{ id_store: 5, store_name: 'Tienda Demo', external_store_id: 'demo-store' }] } })
      .on('DELETE /v1/partners/stores/5', { body: { data: { id_store: 5 } } })
      .on('GET /v1/partners/onboarding-link', { body: { data: { url: 'http://127.0.0.1/onboarding?platform=demo-partner' } } });

    assert.deepEqual(await partner.getWebhook(), webhookConfig);
    assert.equal((await partner.updateWebhook({ url: 'https://partner.example/new', events: ['store_onboarded'] })).updated_integrations, 2);
    assert.equal((await partner.testWebhook()).response_time_ms, 35);
    assert.equal((await partner.events())[0]?.event, 'store_onboarded');
    assert.equal((await partner.stores())[0]?.id_store, 5);
    assert.deepEqual(await partner.disconnectStore(5), { id_store: 5 });
    assert.match((await partner.onboardingLink()).url, /platform=demo-partner$/);

    assert.deepEqual(service.received.map((r) => `${r.method} ${r.url}`), [
      'GET /v1/partners/webhook',
      'PATCH /v1/partners/webhook',
      'POST /v1/partners/webhook/test',
      'GET /v1/partners/events',
      'GET /v1/partners/stores',
      'DELETE /v1/partners/stores/5',
      'GET /v1/partners/onboarding-link',
    ]);
    for (const r of service.received) assert.deepEqual(credentials(r), { merchantKey: undefined, apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo' });
    assert.deepEqual(JSON.parse(service.received[1]?.body ?? ''), { url: 'https://partner.example/new', events: ['store_onboarded'] });
  });

  it('a 204 disconnect resolves to undefined; a plain http webhook URL is refused before sending', async () => {
    service.on('DELETE /v1/partners/stores/6', { status: 204 });
    assert.equal(await partner.disconnectStore(6), undefined);
    service.received.length = 0;
    await assert.rejects(partner.updateWebhook({ url: 'http://partner.example/hooks' }), (e: unknown) => e instanceof InvalidRequestError && e.problems[0]?.field === 'url');
    assert.equal(service.received.length, 0);
  });

  it('forMerchant sends all three headers on payment endpoints', async () => {
    service
      .on('POST /v1/orders', { body: { data: created } })
      .on('POST /v1/links', { body: { data: { payment_link_id: 3, payment_url: 'https://checkout.wava.co/h1', hash: 'h1', expires_at: null } } })
      .on('POST /v1/orders/refund/42', { body: { result: 'ok' } });
    const onBehalf = partner.forMerchant('mk_store_5');
    await onBehalf.createOrder(orderBody);
    await onBehalf.createLink({ description: 'Camiseta', amount: 50000 });
    await onBehalf.refund(42);
    assert.equal(service.received.length, 3);
    for (const r of service.received) assert.deepEqual(credentials(r), { merchantKey: 'mk_store_5', apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo' });
    assert.equal(onBehalf.baseUrl, service.baseUrl);
  });
});
