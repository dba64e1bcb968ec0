/**
 * createCheckoutHandler() over real sockets: the sandbox as the merchant API, the handler behind Node http
 * (toNodeListener), and the element's own CheckoutClient pointed at the handler.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CheckoutClient, ServiceError } from '../../src/client/index.js';
import { CheckoutLinkSchema, CheckoutOrderCreatedSchema, type CheckoutOrderInput } from '../../src/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import {
  createCheckoutHandler,
  memoryClaimStore,
  toNodeListener,
  type CheckoutHandlerOptions,
  type CheckoutLinkInfo,
} from '../../src/server/index.js';

const merchantKey = 'mk_test_demo';
const links: Record<string, CheckoutLinkInfo> = {
  'camiseta-m': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' },
  aporte: { description: 'Aporte voluntario', storeName: 'Tienda Demo' },
  contacto: { description: 'Aporte con datos', storeName: 'Tienda Demo', collectShopperData: true },
  // The merchant asks for the contact, but the record already knows it: nothing is left to ask.
  'contacto-conocido': {
    description: 'Aporte de cliente',
    storeName: 'Tienda Demo',
    collectShopperData: true,
    shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.co', phone_number: '+573001234567' },
  },
  pagado: { amount: 10_000, description: 'Ya pagado', storeName: 'Tienda Demo', status: 'paid' },
  vencido: { amount: 10_000, description: 'Vencido', storeName: 'Tienda Demo', expiresAt: '2020-01-01T00:00:00Z' },
};
const resolveLink = (hash: string) => links[hash] ?? null;

const pushBody: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '1020304050', id_type: 1, phone_number: '+573001234567' } };
const otpBody: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '1020304050', id_type: 1 } };
const transferBody: CheckoutOrderInput = { payment_gateway: { id_payment_gateway: 9 }, shopper: { id_number: '1020304050', id_type: 2 } };

/** Every response text the suite sees (body and headers), scanned for the merchant key at the end. */
const seen: string[] = [];
async function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const text = await response.clone().text();
  seen.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`);
  return response;
}

interface Running {
  url: string;
  baseUrl: string;
  client: CheckoutClient;
  close(): Promise<void>;
}

async function serve(options: CheckoutHandlerOptions): Promise<Running> {
  const server: Server = createServer(toNodeListener(createCheckoutHandler({ limits: false, ...options })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    client: new CheckoutClient({ baseUrl: `${url}/v1`, fetch: recordingFetch }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function rejects(promise: Promise<unknown>, status: number, code: number): Promise<ServiceError> {
  const error = await promise.then(
    () => assert.fail(`expected ${status} ${code}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  return error;
}

describe('createCheckoutHandler against the sandbox', () => {
  let sandbox: RunningSandbox;
  let handler: Running;
  let client: CheckoutClient;
  const raw = (path: string, init?: RequestInit) => recordingFetch(handler.baseUrl + path, init);
  const sandboxOrders = async () => ((await (await fetch(`${sandbox.controlUrl}/orders`)).json()) as { data: { id_order: number; id_external: string | null; status: string; total: number }[] }).data;
  const control = (id: number, action: string) => fetch(`${sandbox.controlUrl}/orders/${id}/${action}`, { method: 'POST' });

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    handler = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink, fetch: recordingFetch });
    client = handler.client;
  });
  beforeEach(() => sandbox.sandbox.reset());
  after(async () => {
    await handler.close();
    await sandbox.close();
  });

  describe('links', () => {
    it('resolves a standard link with the discovered gateways, without card', async () => {
      const link = await client.getLink('camiseta-m');
      assert.equal(link.amount, 50_000);
      assert.equal(link.store_name, 'Tienda Demo');
      assert.equal(link.status, 'active');
      assert.deepEqual(link.gateways.map((g) => [g.id_payment_gateway, g.kind]), [[1, 'push'], [2, 'otp'], [9, 'transfer']]);
      assert.deepEqual(link.document_types.map((d) => d.type), ['CC', 'CE', 'TI']);
    });

    it('resolves a dynamic link without an amount', async () => {
      const link = await client.getLink('aporte');
      assert.equal(link.amount, undefined);
      assert.equal(CheckoutLinkSchema.safeParse(link).success, true);
    });

    it('collectShopperData asks for the contact the record lacks: all four without a record, none with a full one', async () => {
      const asked = async (hash: string) => {
        const link = await client.getLink(hash);
        return [link.collect_shopper_data, link.collect_shopper_fields];
      };
      assert.deepEqual(await asked('contacto'), [true, ['first_name', 'last_name', 'email', 'phone_number']]);
      assert.deepEqual(await asked('contacto-conocido'), [true, []]);
      assert.deepEqual(await asked('aporte'), [true, ['first_name', 'last_name', 'email', 'phone_number']]);
      // With nothing asked, the create takes the record's contact and passes the handler's own check.
      const created = await client.createOrder('contacto-conocido', { ...otpBody, amount: 5_000 }, 'k-known');
      assert.equal(sandbox.sandbox.state.orders.get(created.id_order)?.shopper.email, 'ana@example.co');
    });

    it('answers an unknown hash with 404 LINK_NOT_FOUND', async () => {
      await rejects(client.getLink('no-existe'), 404, 3010);
    });

    it('reports paid and expired links, and refuses orders on them', async () => {
      assert.equal((await client.getLink('pagado')).status, 'paid');
      assert.equal((await client.getLink('vencido')).status, 'expired');
      await rejects(client.createOrder('pagado', otpBody, 'k-paid'), 409, 3012);
      await rejects(client.createOrder('vencido', otpBody, 'k-expired'), 410, 3011);
      assert.equal((await sandboxOrders()).length, 0);
    });
  });

  describe('push', () => {
    it('creates, shows the masked phone, and is paid after the control approve', async () => {
      const created = await client.createOrder('camiseta-m', pushBody, 'k-push');
      assert.equal(CheckoutOrderCreatedSchema.safeParse(created).success, true);
      assert.equal(created.status, 'processing');
      assert.equal(created.amount, 50_000);
      assert.deepEqual(created.gateway, { id_payment_gateway: 1, name: 'Nequi', kind: 'push' });
      assert.equal(created.next_action?.type, 'approve_push');
      assert.ok(created.next_action?.type === 'approve_push' && created.next_action.phone_hint.endsWith('4567'));
      assert.ok(created.next_action?.type === 'approve_push' && !created.next_action.phone_hint.includes('300123'));
      const [stored] = await sandboxOrders();
      assert.match(stored?.id_external ?? '', /^pc_[0-9a-f]{32}$/);

      assert.equal((await control(created.id_order, 'approve')).status, 200);
      const paid = await client.getOrder(created.id_order, created.order_token);
      assert.equal(paid.status, 'confirmed');
      assert.equal(paid.next_action, null);
      assert.ok(paid.confirmed_at);
    });
  });

  describe('otp', () => {
    it('passes a wrong code through as 6105 and confirms with a right one', async () => {
      const created = await client.createOrder('camiseta-m', otpBody, 'k-otp');
      assert.deepEqual(created.next_action && { type: created.next_action.type, attempts: 'attempts_left' in created.next_action ? created.next_action.attempts_left : -1 }, { type: 'enter_otp', attempts: 3 });
      const wrong = await rejects(client.submitOtp(created.id_order, created.order_token, '999999'), 400, 6105);
      assert.equal(wrong.gatewayName, 'daviplata');
      const after = await client.getOrder(created.id_order, created.order_token);
      assert.ok(after.next_action?.type === 'enter_otp' && after.next_action.attempts_left === 2);
      const confirmed = await client.submitOtp(created.id_order, created.order_token, '123456');
      assert.equal(confirmed.status, 'confirmed');
      assert.equal(confirmed.next_action, null);
    });
  });

  describe('transfer', () => {
    it('returns the key, the PNG and the EMVCo payload, then is paid', async () => {
      const created = await client.createOrder('aporte', { ...transferBody, amount: 25_000 }, 'k-transfer');
      assert.equal(created.amount, 25_000);
      const action = created.next_action;
      assert.ok(action?.type === 'transfer', `got ${JSON.stringify(action)}`);
      assert.match(action.key, /^BREB-/);
      assert.ok(action.qr_png && Buffer.from(action.qr_png, 'base64').subarray(1, 4).toString() === 'PNG');
      assert.match(action.qr_data ?? '', /^000201/);
      assert.ok(Date.parse(action.expires_at) > Date.now() + 14 * 60_000);
      const polled = await client.getOrder(created.id_order, created.order_token);
      assert.deepEqual(polled.next_action, action);
      await control(created.id_order, 'pay');
      assert.equal((await client.getOrder(created.id_order, created.order_token)).status, 'confirmed');
    });
  });

  describe('cancel', () => {
    it('cancels an open order, then refuses with 4011', async () => {
      const created = await client.createOrder('camiseta-m', pushBody, 'k-cancel');
      const cancelled = await client.cancelOrder(created.id_order, created.order_token);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.next_action, null);
      await rejects(client.cancelOrder(created.id_order, created.order_token), 400, 4011);
    });
  });

  describe('order tokens', () => {
    it('answers a wrong, missing or borrowed token like a missing order', async () => {
      const first = await client.createOrder('camiseta-m', pushBody, 'k-token-1');
      const second = await client.createOrder('camiseta-m', otpBody, 'k-token-2');
      await rejects(client.getOrder(first.id_order, 'x'.repeat(43)), 404, 4010);
      await rejects(client.getOrder(second.id_order, first.order_token), 404, 4010);
      await rejects(client.submitOtp(second.id_order, first.order_token, '123456'), 404, 4010);
      await rejects(client.cancelOrder(first.id_order, second.order_token), 404, 4010);
      const none = await raw(`/checkout/orders/${first.id_order}`);
      assert.equal(none.status, 404);
      assert.equal(((await none.json()) as { code: number }).code, 4010);
      // The refused OTP and cancel changed nothing.
      assert.deepEqual((await sandboxOrders()).map((o) => o.status), ['processing', 'processing']);
    });
  });

  describe('idempotency', () => {
    it('a retry never reaches the merchant API twice, and each key has its own order_key', async () => {
      const made = [
        await client.createOrder('camiseta-m', pushBody, 'k-same'),
        await client.createOrder('camiseta-m', pushBody, 'k-same'),
        await client.createOrder('camiseta-m', pushBody, 'k-other'),
      ];
      const orders = await sandboxOrders();
      assert.equal(orders.length, 2);
      const keys = made.map((m) => orders.find((o) => o.id_order === m.id_order)?.id_external);
      assert.match(keys[0] ?? '', /^pc_/);
      assert.equal(keys[1], keys[0]);
      assert.notEqual(keys[2], keys[0]);
    });

    it('with a given store, the same key returns the same order; another body is 409', async () => {
      const withStore = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink, fetch: recordingFetch, store: memoryClaimStore() });
      try {
        const body = { ...pushBody, amount: 20_000 };
        const first = await withStore.client.createOrder('aporte', body, 'k-store');
        const again = await withStore.client.createOrder('aporte', body, 'k-store');
        assert.equal(again.id_order, first.id_order);
        assert.equal(again.order_token, first.order_token);
        assert.equal((await sandboxOrders()).length, 1);
        await rejects(withStore.client.createOrder('aporte', { ...body, amount: 30_000 }, 'k-store'), 409, 3013);
        assert.equal((await sandboxOrders()).length, 1);
      } finally {
        await withStore.close();
      }
    });

    it('with a merchant API that deduplicates order_key, stateless retries return one order and another amount is 409', async () => {
      // The sandbox behind a thin layer that answers a repeated order_key with the first order.
      const firstByKey = new Map<string, string>();
      const dedupingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
        const url = String(input);
        if (init?.method !== 'POST' || !url.endsWith('/v1/orders')) return fetch(input, init);
        const key = (JSON.parse(String(init.body)) as { order_key: string }).order_key;
        const earlier = firstByKey.get(key);
        if (earlier) return new Response(earlier, { headers: { 'Content-Type': 'application/json' } });
        const response = await fetch(input, init);
        const text = await response.text();
        if (response.ok) firstByKey.set(key, text);
        return new Response(text, { status: response.status, headers: { 'Content-Type': 'application/json' } });
      };
      const stateless = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink, fetch: dedupingFetch });
      try {
        const first = await stateless.client.createOrder('aporte', { ...otpBody, amount: 15_000 }, 'k-dedupe');
        const again = await stateless.client.createOrder('aporte', { ...otpBody, amount: 15_000 }, 'k-dedupe');
        assert.equal(again.id_order, first.id_order);
        assert.equal(again.order_token, first.order_token);
        await rejects(stateless.client.createOrder('aporte', { ...otpBody, amount: 16_000 }, 'k-dedupe'), 409, 3013);
        assert.equal((await sandboxOrders()).length, 1);
      } finally {
        await stateless.close();
      }
    });
  });

  describe('bad input', () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      raw(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-bad', ...headers } });
    const errorOf = async (response: Response) => (await response.json()) as { code: number; error: boolean; validation_errors?: { field: string }[] };

    it('refuses malformed JSON with 400 2012', async () => {
      const response = await post('/checkout/links/camiseta-m/orders', '{"payment_gateway":');
      assert.equal(response.status, 400);
      assert.equal((await errorOf(response)).code, 2012);
    });

    it('refuses a shopper without id_number, naming the field', async () => {
      const response = await post('/checkout/links/camiseta-m/orders', JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_type: 1 } }));
      assert.equal(response.status, 400);
      const body = await errorOf(response);
      assert.equal(body.code, 2000);
      assert.deepEqual(body.validation_errors?.map((p) => p.field), ['shopper.id_number']);
    });

    it('refuses a missing Idempotency-Key, a body over 100 KB, and a non-JSON type', async () => {
      const noKey = await raw('/checkout/links/camiseta-m/orders', { method: 'POST', body: JSON.stringify(otpBody), headers: { 'Content-Type': 'application/json' } });
      assert.equal((await errorOf(noKey)).code, 2015);
      const huge = await post('/checkout/links/camiseta-m/orders', JSON.stringify({ ...otpBody, padding: 'x'.repeat(110 * 1024) }));
      assert.equal(huge.status, 413);
      assert.equal((await errorOf(huge)).code, 2014);
      const text = await post('/checkout/links/camiseta-m/orders', 'hola', { 'Content-Type': 'text/plain' });
      assert.equal(text.status, 415);
    });

    it('refuses an amount on a fixed link, none on a dynamic one, missing contact data, and the card gateway', async () => {
      await rejects(client.createOrder('camiseta-m', { ...otpBody, amount: 1_000 }, 'k-a'), 400, 2000);
      await rejects(client.createOrder('aporte', otpBody, 'k-b'), 400, 2000);
      const contact = await rejects(client.createOrder('contacto', { ...otpBody, amount: 5_000 }, 'k-c'), 400, 2000);
      assert.deepEqual(contact.validationErrors.map((p) => p.field), ['shopper.first_name', 'shopper.last_name', 'shopper.email', 'shopper.phone_number']);
      await rejects(client.createOrder('camiseta-m', { ...otpBody, payment_gateway: { id_payment_gateway: 4 } }, 'k-d'), 400, 4004);
      assert.equal((await sandboxOrders()).length, 0);
    });

    it('passes the merchant API refusals through (push without a mobile phone)', async () => {
      const refused = await rejects(client.createOrder('camiseta-m', { ...pushBody, shopper: { id_number: '1', id_type: 1 } }, 'k-e'), 400, 2000);
      assert.deepEqual(refused.validationErrors.map((p) => p.field), ['shopper.phone_number']);
    });

    it('refuses a bad OTP body and a non-numeric order id', async () => {
      const created = await client.createOrder('camiseta-m', otpBody, 'k-otp-bad');
      const short = await raw(`/checkout/orders/${created.id_order}/otp`, { method: 'POST', body: '{"daviplata_otp":"12"}', headers: { 'Content-Type': 'application/json', 'X-Order-Token': created.order_token } });
      assert.equal(short.status, 400);
      assert.deepEqual((await errorOf(short)).validation_errors?.map((p) => p.field), ['daviplata_otp']);
      const badId = await raw('/checkout/orders/abc', { headers: { 'X-Order-Token': created.order_token } });
      assert.equal(badId.status, 400);
    });

    it('answers unknown paths with 404 and wrong methods with 405', async () => {
      const unknown = await raw('/checkout/nada');
      assert.equal(unknown.status, 404);
      assert.equal((await errorOf(unknown)).code, 3014);
      const wrong = await raw('/checkout/links/camiseta-m', { method: 'DELETE' });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'GET, OPTIONS');
    });
  });

  describe('CORS and mounting', () => {
    it('sends no CORS headers by default, and the configured ones for allowed origins', async () => {
      const plain = await raw('/checkout/links/camiseta-m', { headers: { Origin: 'https://evil.example' } });
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('access-control-allow-origin'), null);

      const shop = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink, fetch: recordingFetch, allowedOrigins: ['https://tienda.example'], basePath: '/pagos/v1' });
      try {
        const ok = await recordingFetch(`${shop.url}/api/pagos/v1/checkout/links/aporte`, { headers: { Origin: 'https://tienda.example' } });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('access-control-allow-origin'), 'https://tienda.example');
        const preflight = await recordingFetch(`${shop.url}/pagos/v1/checkout/links/aporte/orders`, {
          method: 'OPTIONS',
          headers: { Origin: 'https://tienda.example', 'Access-Control-Request-Method': 'POST' },
        });
        assert.equal(preflight.status, 204);
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/);
        const other = await recordingFetch(`${shop.url}/pagos/v1/checkout/links/aporte`, { headers: { Origin: 'https://evil.example' } });
        assert.equal(other.headers.get('access-control-allow-origin'), null);
        assert.equal((await recordingFetch(`${shop.url}/v1/checkout/links/aporte`)).status, 404);
      } finally {
        await shop.close();
      }
    });
  });

  describe('failures of the merchant API', () => {
    it('answers 503 when the merchant API cannot be reached', async () => {
      const down = await serve({ merchantKey, baseUrl: 'http://127.0.0.1:9/v1', resolveLink, fetch: recordingFetch, timeoutMs: 2_000 });
      try {
        await rejects(down.client.getLink('camiseta-m'), 503, 5002);
      } finally {
        await down.close();
      }
    });

    it('redacts the merchant key even when the merchant API echoes it', async () => {
      const echo = async () =>
        new Response(JSON.stringify({ code: 4007, api_code: 'INVALID_MERCHANT_KEY', message: `Key ${merchantKey} is not valid`, error: true }), { status: 401, headers: { 'Content-Type': 'application/json' } });
      const leaky = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink, fetch: echo });
      try {
        const error = await rejects(leaky.client.getLink('camiseta-m'), 401, 4007);
        assert.equal(error.message, 'Key [redacted] is not valid');
      } finally {
        await leaky.close();
      }
    });

    it('answers 500 7001 when resolveLink throws, without its message', async () => {
      const errors: unknown[] = [];
      const broken = await serve({ merchantKey, baseUrl: sandbox.baseUrl, resolveLink: () => { throw new Error(`db down for ${merchantKey}`); }, onError: (e) => errors.push(e) });
      try {
        const error = await rejects(broken.client.getLink('camiseta-m'), 500, 7001);
        assert.doesNotMatch(error.message, /db down/);
        assert.equal(errors.length, 1);
      } finally {
        await broken.close();
      }
    });
  });

  it('never sends the merchant key in any response body or header of this suite', () => {
    // Runs last: node:test runs a describe's tests in order.
    assert.ok(seen.length > 40, `only ${seen.length} responses were recorded`);
    const leaks = seen.filter((text) => text.includes(merchantKey));
    assert.deepEqual(leaks, []);
  });
});
