/** The handler's pure parts: gateway mapping, order translation, secrets, the in-memory claim store's limits, the router, the refusals' classifier. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { otpTimeoutMs, pushApprovalTimeoutMs, type OrderDetails, type PaymentGateway } from '../../src/contract/index.js';
import { gatewayKindOf, toCheckoutGateways } from '../../src/server/buyer/gateways.js';
import { toCheckoutLink } from '../../src/server/buyer/links.js';
import { ClaimStoreError, createCheckoutHandler, memoryClaimStore } from '../../src/server/index.js';
import { gatewayOfOrder, maskPhoneHint, nextActionOf, toCheckoutOrder } from '../../src/server/buyer/orders.js';
import { isOrderToken, legacyOrderTokenFor, orderKeyFor, orderRefOf, orderTokenFor, orderTokenKey, serverSecrets } from '../../src/server/secrets.js';
import { CheckoutHttpError } from '../../src/server/http/errors.js';
import { LimitRefusal, limitReached } from '../../src/server/limits/limits.js';
import { InDoubtError } from '../../src/server/once/exactly-once.js';
import { refusalEvent, refusalKindOf } from '../../src/server/telemetry/refusal-kinds.js';
import { checkoutRouter } from '../../src/server/routes.js';
import { WebhookDeliveryError } from '../../src/webhooks/errors.js';

const documentTypes = [
  { id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' },
  { id_national_document_type: 2, country_code: 'CO', type: 'CE', description: 'Cédula de Extranjería' },
  { id_national_document_type: 3, country_code: 'CO', type: 'TI', description: 'Tarjeta de Identidad' },
  { id_national_document_type: 4, country_code: 'CO', type: 'PP', description: 'Pasaporte' },
];
/** Items as the live documentation shows them: no kind, no id_types, no limits. */
const live: PaymentGateway[] = [
  { id_payment_gateway: 1, name: 'Nequi', required_fields: ['phone_number'], icon: 'https://x.test/nequi.png' },
  { id_payment_gateway: 2, name: 'Daviplata', required_fields: ['document_type', 'document_number'], icon: 'https://x.test/davi.png' },
  { id_payment_gateway: 31, name: 'Breb', required_fields: ['document_type', 'document_number'], icon: 'https://x.test/breb.png' },
  { id_payment_gateway: 4, name: 'Stripe', required_fields: [], icon: 'https://x.test/stripe.png' },
  { id_payment_gateway: 77, name: 'Otro', required_fields: [], icon: 'https://x.test/otro.png' },
];

describe('gateway discovery mapping', () => {
  it('takes the kind from the item, else the name, else the documented ids', () => {
    assert.equal(gatewayKindOf({ id_payment_gateway: 5, name: 'Nequi', kind: 'otp' }), 'otp');
    assert.equal(gatewayKindOf({ id_payment_gateway: 5, name: 'NEQUI Colombia' }), 'push');
    assert.equal(gatewayKindOf({ id_payment_gateway: 5, name: 'Bre-B' }), 'transfer');
    assert.equal(gatewayKindOf({ id_payment_gateway: 5, name: 'Tarjeta' }), 'card');
    assert.equal(gatewayKindOf({ id_payment_gateway: 9, name: 'Transferencia' }), 'transfer');
    assert.equal(gatewayKindOf({ id_payment_gateway: 77, name: 'Otro' }), undefined);
  });

  it('leaves out card and unknown gateways and fills id_types and limits', () => {
    const gateways = toCheckoutGateways(live, documentTypes, 'COP');
    assert.deepEqual(gateways.map((g) => [g.id_payment_gateway, g.kind]), [[1, 'push'], [2, 'otp'], [31, 'transfer']]);
    assert.deepEqual(gateways[0]?.id_types, [1, 2, 3, 4]);
    assert.deepEqual(gateways[1]?.id_types, [1, 2, 3]);
    assert.equal(gateways[2]?.min_amount, 1);
    assert.equal(gateways[2]?.max_amount, Number.MAX_SAFE_INTEGER);
  });

  it('offers the Colombian gateways only for COP unless an item lists its currencies', () => {
    assert.deepEqual(toCheckoutGateways(live, documentTypes, 'USD'), []);
    const usd = toCheckoutGateways([{ ...live[0]!, currencies: ['USD'], min_amount: 5, max_amount: 500 }], documentTypes, 'USD');
    assert.deepEqual(usd.map((g) => [g.id_payment_gateway, g.min_amount, g.max_amount]), [[1, 5, 500]]);
  });
});

describe('links as the buyer sees them', () => {
  it("carries the store's redirect link, when it has one, for the receipt's way back", () => {
    const info = { description: 'Camiseta', storeName: 'Tienda', amount: 50_000 };
    assert.equal(toCheckoutLink('h', { ...info, redirectLink: 'https://shop.example/gracias' }, [], [], 0).redirect_link, 'https://shop.example/gracias');
    assert.equal('redirect_link' in toCheckoutLink('h', info, [], [], 0), false);
  });

  it("carries the store's data policy, when the record has one, so the hosted page can link it above the pay button", () => {
    const info = { description: 'Camiseta', storeName: 'Tienda', amount: 50_000 };
    assert.equal(toCheckoutLink('h', { ...info, privacyUrl: 'https://shop.example/datos' }, [], [], 0).privacy_url, 'https://shop.example/datos');
    assert.equal('privacy_url' in toCheckoutLink('h', info, [], [], 0), false);
  });
});

describe('merchant orders as the buyer sees them', () => {
  const details: OrderDetails = {
    id_order: 12,
    id_external: 'pc_x',
    purchase_date: '2025-06-01T12:00:00.000Z',
    status: 'processing',
    total: 50_000,
    currency: 'COP',
    payment_gateway: { nequi: { phone_number: '3001234567' } },
  };

  it('masks all but the last four digits of the phone', () => {
    assert.equal(maskPhoneHint('3001234567'), '******4567');
    assert.equal(maskPhoneHint('****567'), '****567');
  });

  it('names the gateway from the order block when nothing else says it', () => {
    assert.deepEqual(gatewayOfOrder(details), { id_payment_gateway: 1, name: 'Nequi', kind: 'push' });
    assert.deepEqual(gatewayOfOrder({ ...details, payment_gateway: undefined, payment_method: { gateway: 'daviplata', status: 'pending' } }), { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp' });
  });

  it('computes expires_at from the contract limits when the order has none', () => {
    const push = nextActionOf({ details, gateway: { id_payment_gateway: 1, name: 'Nequi', kind: 'push' } });
    assert.deepEqual(push, { type: 'approve_push', phone_hint: '******4567', expires_at: new Date(Date.parse(details.purchase_date) + pushApprovalTimeoutMs).toISOString() });
    const otp = nextActionOf({ details: { ...details, payment_gateway: {} }, gateway: { id_payment_gateway: 2, name: 'Daviplata', kind: 'otp' } });
    assert.deepEqual(otp, { type: 'enter_otp', length: 6, attempts_left: 3, expires_at: new Date(Date.parse(details.purchase_date) + otpTimeoutMs).toISOString() });
  });

  it('has no next action once the order is settled, or for a transfer without its key', () => {
    const gateway = { id_payment_gateway: 9, name: 'Bre-B', kind: 'transfer' } as const;
    assert.equal(toCheckoutOrder({ details: { ...details, status: 'confirmed' }, gateway }).next_action, null);
    assert.equal(nextActionOf({ details: { ...details, payment_gateway: {} }, gateway }), null);
  });
});

describe('secrets', () => {
  it('derives a default secret that is never the merchant key', async () => {
    const { sign: secret, orderKey } = await serverSecrets('mk_live_123');
    assert.match(secret, /^[0-9a-f]{64}$/);
    assert.ok(!secret.includes('mk_live_123'));
    assert.notEqual(secret, (await serverSecrets('mk_live_124')).sign);
    assert.equal(orderKey, secret);
    await assert.rejects(serverSecrets('mk', 'short'), TypeError);
    await assert.rejects(serverSecrets('mk', ['a'.repeat(16), 'short']), TypeError);
    await assert.rejects(serverSecrets('mk', []), TypeError);
  });

  it('signs with the first secret of a list, accepts any, and keeps order keys off the rotating secret', async () => {
    const [newer, older] = ['n'.repeat(32), 'o'.repeat(32)];
    const rotated = await serverSecrets('mk_live_123', [newer, older]);
    const before = await serverSecrets('mk_live_123', older);
    assert.equal(rotated.sign, newer);
    assert.deepEqual(rotated.accept, [newer, older]);
    assert.equal(rotated.orderKey, before.orderKey);
    const oldToken = await orderTokenFor(older, 7, 'pc_a');
    assert.equal(await isOrderToken(rotated.accept, 7, oldToken), true);
    assert.equal(await isOrderToken(rotated.accept, 7, await orderTokenFor(newer, 7, 'pc_a')), true);
    assert.equal(await isOrderToken([newer], 7, oldToken), false);
  });

  it('gives the same order_key for the same link and key, and another otherwise', async () => {
    const key = await orderKeyFor('s'.repeat(32), 'camiseta', 'k-1');
    assert.match(key, /^pc_[0-9a-f]{32}$/);
    assert.equal(await orderKeyFor('s'.repeat(32), 'camiseta', 'k-1'), key);
    assert.notEqual(await orderKeyFor('s'.repeat(32), 'camiseta', 'k-2'), key);
    assert.notEqual(await orderKeyFor('t'.repeat(32), 'camiseta', 'k-1'), key);
    assert.notEqual(await orderKeyFor('s'.repeat(32), 'a:b', 'c'), await orderKeyFor('s'.repeat(32), 'a', 'b:c'));
  });

  it('accepts only the token of the same order under the same secret, and names its order key', async () => {
    const secret = 's'.repeat(32);
    const key = `pc_${'a'.repeat(32)}`;
    const token = await orderTokenFor(secret, 7, key);
    assert.match(token, /^[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/);
    assert.ok(!token.includes(key.slice(3)), 'the order key itself is not in the token');
    assert.equal(await orderTokenKey(secret, 7, token), await orderRefOf(key));
    assert.equal(await isOrderToken(secret, 8, token), false);
    assert.equal(await isOrderToken('t'.repeat(32), 7, token), false);
    assert.equal(await isOrderToken(secret, 7, token.slice(0, -1)), false);
    assert.equal(await isOrderToken(secret, 7, null), false);
    assert.equal(await isOrderToken(secret, 7, `${await orderRefOf(`pc_${'b'.repeat(32)}`)}${token.slice(24)}`), false, 'another order key under the same mac');
    assert.equal(await orderTokenKey(secret, 7, await legacyOrderTokenFor(secret, 7)), null, 'the earlier form: valid, naming no key');
  });
});

describe('memoryClaimStore limits', () => {
  it('lets a lease lapse on its clock and forgets the oldest replies beyond maxEntries, never a held claim', async () => {
    let now = 0;
    const store = memoryClaimStore({ maxEntries: 2, now: () => now });
    const a = await store.claim('a', 'x', 1_000);
    assert.equal(a.state, 'claimed');
    now = 999;
    assert.equal((await store.claim('a', 'x', 1_000)).state, 'in_flight');
    now = 1_000;
    const again = await store.claim('a', 'x', 60_000);
    assert.equal(again.state, 'claimed');
    await store.claim('b', 'x', 60_000);
    // Both records are held claims: the third is refused (the handler answers 503), neither is forgotten.
    await assert.rejects(store.claim('c', 'x', 60_000), ClaimStoreError);
    assert.equal((await store.inspect('a')).state, 'held');
    assert.equal((await store.inspect('b')).state, 'held');
    assert.equal(await store.complete('a', again.state === 'claimed' ? again.token : '', '{}', 60_000), true);
    assert.equal((await store.claim('c', 'x', 60_000)).state, 'claimed');
    assert.deepEqual(await store.inspect('a'), { state: 'free' });
    assert.equal((await store.inspect('b')).state, 'held');
    assert.equal((await store.inspect('c')).state, 'held');
    // A lapsed held claim makes room again.
    now = 62_000;
    assert.equal((await store.claim('d', 'x', 60_000)).state, 'claimed');
  });
});

describe('createCheckoutHandler options', () => {
  it('refuses a short secret, a missing resolveLink and an empty merchant key at once', () => {
    const resolveLink = () => null;
    assert.throws(() => createCheckoutHandler({ merchantKey: 'mk', resolveLink, secret: 'short' }), /at least 16/);
    assert.throws(() => createCheckoutHandler({ merchantKey: 'mk' } as never), /resolveLink/);
    assert.throws(() => createCheckoutHandler({ merchantKey: '', resolveLink }), /merchantKey/);
    assert.throws(() => createCheckoutHandler({ merchantKey: 'mk', resolveLink, secret: [] }), /empty list/);
  });
});

describe("the handler's router", () => {
  const router = checkoutRouter('api/v1/');
  it('places each path under any prefix; health and the webhook win over a buyer path ending in them', () => {
    assert.equal(router.basePath, '/api/v1');
    const create = router.match('/shop/api/v1/checkout/links/camiseta%20m/orders');
    assert.ok(create?.kind === 'buyer');
    assert.equal(create.param, 'camiseta m');
    assert.equal(create.template, '/api/v1/checkout/links/{hash}/orders');
    assert.deepEqual(router.match('/api/v1/health/ready'), { kind: 'health', ready: true, template: '/api/v1/health/ready' });
    assert.equal(router.match('/api/v1/checkout/links/x/api/v1/health')?.kind, 'health');
    assert.equal(router.match('/api/v1/checkout/links/api/v1/webhooks')?.kind, 'webhook');
  });
  it('matches no path outside the buyer routes, nor an id that is not valid percent-encoding', () => {
    for (const path of ['/v1/checkout/links/x', '/api/v1/checkout/links/x/pay', '/api/v1/checkout/orders/1/otp/again', '/api/v1/checkout/links/%E0%A4%A', '/api/v1/checkout/', '/checkout/x']) {
      assert.equal(router.match(path), undefined, path);
    }
  });
});

describe('the refusals an operator is told of', () => {
  const limit = limitReached(3_000).withCause(new LimitRefusal('ordersPerPhone'));
  const inDoubt = CheckoutHttpError.of('IDEMPOTENCY_KEY_IN_USE').withCause(new InDoubtError(new Error('socket hang up')));
  const forged = CheckoutHttpError.of('UNAUTHORIZED_ACCESS').withCause(new WebhookDeliveryError('invalid_signature', 'bad'));
  const keep = (text: string) => text;
  it('classifies each refusal once, for its event and its metric alike', () => {
    assert.deepEqual(refusalKindOf(limit, false), { kind: 'limit', reason: 'ordersPerPhone', status: 429, limit: 'ordersPerPhone', retryAfterS: 3 });
    assert.equal(refusalKindOf(inDoubt, false)?.kind, 'in_doubt');
    assert.equal(refusalKindOf(CheckoutHttpError.of('IDEMPOTENCY_KEY_IN_USE'), false)?.kind, 'in_progress');
    assert.deepEqual(refusalKindOf(forged, true), { kind: 'webhook', reason: 'invalid_signature', status: 401 });
    assert.deepEqual(refusalKindOf(CheckoutHttpError.of('PAYLOAD_TOO_LARGE'), true), { kind: 'webhook', reason: 'payload_too_large', status: 413 });
    assert.deepEqual(refusalKindOf(CheckoutHttpError.of('LINK_NOT_FOUND'), false), { kind: 'refused', reason: 'link_not_found', status: 404 });
    assert.equal(refusalKindOf(new Error('a bug'), false), undefined);
  });
  it('names the limit, the kept claim and the webhook reason in its event, never the merchant key', () => {
    assert.deepEqual(refusalEvent(refusalKindOf(limit, false)!, keep), { level: 'warn', name: 'limit_reached', message: 'limit ordersPerPhone reached', limit: 'ordersPerPhone', retry_after_s: 3 });
    const doubt = refusalEvent(refusalKindOf(CheckoutHttpError.of('IDEMPOTENCY_KEY_IN_USE').withCause(new InDoubtError(new Error('mk_live_x hung up'))), false)!, (t) => t.replace('mk_live_x', '[redacted]'));
    assert.equal(doubt?.name, 'claim_in_doubt');
    assert.deepEqual(doubt?.error, { name: 'Error', message: '[redacted] hung up' });
    assert.equal(refusalEvent(refusalKindOf(forged, true)!, keep)?.reason, 'invalid_signature');
    assert.equal(refusalEvent(refusalKindOf(CheckoutHttpError.of('LINK_NOT_FOUND'), false)!, keep), undefined);
  });
});
