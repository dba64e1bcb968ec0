// Gateway simulators (docs/site/sandbox/index.md) and the contract's transition table, driven over HTTP with the sandbox clock.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { orderTransitions } from '../../src/contract/index.js';
import { crc16ccittFalse, hasValidCrc, parseTlv, transferQrPayload } from '../../src/sandbox/gateways/emvco.js';
import { assertError, checkoutOrder, directOrderBody, gateways, merchant, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const minutes = (m: number) => m * 60 * 1000;

describe('sandbox gateway simulators', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  /** A buyer order on the dynamic link; returns id, token and a reader of its buyer view. */
  const buyerOrder = async (gateway: number, phone?: string) => {
    const r = await checkoutOrder(sb, 'demo-dynamic', gateway, { amount: 25_000, ...(phone ? { phone } : {}) });
    assert.equal(r.status, 201, r.text);
    const { id_order: id, order_token: token } = r.body.data as { id_order: number; order_token: string };
    const read = async () => (await sb.api('GET', `/v1/checkout/orders/${id}`, undefined, { 'X-Order-Token': token })).body.data;
    return { id, token, created: r.body.data, read };
  };
  const control = (id: number, action: string) => sb.api('POST', `/sandbox/orders/${id}/${action}`);

  describe('push (mobile wallet)', () => {
    test('approve confirms; the buyer sees approve_push with a masked phone until then', async () => {
      const o = await buyerOrder(gateways.push, '+573005551234');
      assert.equal(o.created.next_action.type, 'approve_push');
      assert.equal(o.created.next_action.phone_hint, '******1234');
      assert.equal(Date.parse(o.created.next_action.expires_at) - sb.clock.now(), minutes(5));
      const r = await control(o.id, 'approve');
      assert.equal(r.status, 200, r.text);
      const view = await o.read();
      assert.deepEqual([view.status, view.next_action], ['confirmed', null]);
      assert.ok(view.confirmed_at);
    });

    test('decline cancels with reason declined', async () => {
      const o = await buyerOrder(gateways.push);
      await control(o.id, 'decline');
      const view = await o.read();
      assert.deepEqual([view.status, view.cancel_reason], ['cancelled', 'declined']);
    });

    test('a phone ending in 0002 declines by itself', async () => {
      const o = await buyerOrder(gateways.push, '3001230002');
      assert.equal((await o.read()).status, 'processing');
      await sb.advance(2_000);
      const view = await o.read();
      assert.deepEqual([view.status, view.cancel_reason], ['cancelled', 'declined']);
    });

    test('a 0002 phone declines on time even behind an order that expires later', async () => {
      const slow = await buyerOrder(gateways.transfer);
      await sb.advance(1_000);
      const quick = await buyerOrder(gateways.push, '3001230002');
      await sb.advance(2_000);
      assert.equal((await quick.read()).cancel_reason, 'declined');
      assert.equal((await slow.read()).status, 'processing');
    });

    test('a phone ending in 0003 never answers, and the order expires after 5 minutes', async () => {
      const o = await buyerOrder(gateways.push, '3001230003');
      await sb.advance(minutes(5) - 1);
      assert.equal((await o.read()).status, 'processing');
      await sb.advance(1);
      const view = await o.read();
      assert.deepEqual([view.status, view.cancel_reason], ['cancelled', 'expired']);
      assertError(await control(o.id, 'approve'), 400, 'INVALID_ORDER_STATUS');
    });

    test('other phones wait: nothing happens by itself before expiry', async () => {
      const o = await buyerOrder(gateways.push, '3001234567');
      await sb.advance(minutes(4));
      assert.equal((await o.read()).status, 'processing');
    });
  });

  describe('otp (digital wallet)', () => {
    test('the code the sandbox "sent" shows in the control API, and confirms', async () => {
      const o = await buyerOrder(gateways.otp);
      const ctl = await sb.api('GET', `/sandbox/orders/${o.id}`);
      assert.equal(ctl.body.data.otp, '123456');
      const r = await sb.api('POST', `/v1/checkout/orders/${o.id}/otp`, { daviplata_otp: ctl.body.data.otp }, { 'X-Order-Token': o.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'confirmed');
    });

    for (const code of ['000000', '111111']) {
      test(`test code ${code} confirms`, async () => {
        const o = await buyerOrder(gateways.otp);
        const r = await sb.api('POST', `/v1/checkout/orders/${o.id}/otp`, { daviplata_otp: code }, { 'X-Order-Token': o.token });
        assert.equal(r.body.data.status, 'confirmed');
      });
    }

    test('a wrong code is 6105; three wrong codes cancel (otp_attempts)', async () => {
      const o = await buyerOrder(gateways.otp);
      const submit = () => sb.api('POST', `/v1/checkout/orders/${o.id}/otp`, { daviplata_otp: '999999' }, { 'X-Order-Token': o.token });
      const first = await submit();
      assertError(first, 400, 'DAVIPLATA_OTP_ERROR', 6105);
      assert.equal(first.body.gateway_name, 'daviplata');
      assert.equal((await o.read()).next_action.attempts_left, 2);
      await submit();
      const third = await submit();
      assertError(third, 400, 'DAVIPLATA_OTP_ERROR', 6105);
      const view = await o.read();
      assert.deepEqual([view.status, view.cancel_reason], ['cancelled', 'otp_attempts']);
      // The right code after that changes nothing.
      assertError(await sb.api('POST', `/v1/checkout/orders/${o.id}/otp`, { daviplata_otp: '123456' }, { 'X-Order-Token': o.token }), 400, 'INVALID_ORDER_STATUS');
    });

    test('after 5 minutes the order is cancelled (expired) and the code no longer works', async () => {
      const o = await buyerOrder(gateways.otp);
      await sb.advance(minutes(5));
      assertError(await sb.api('POST', `/v1/checkout/orders/${o.id}/otp`, { daviplata_otp: '123456' }, { 'X-Order-Token': o.token }), 400, 'INVALID_ORDER_STATUS');
      assert.equal((await o.read()).cancel_reason, 'expired');
    });
  });

  describe('transfer (interbank)', () => {
    test('next_action carries the key, an EMVCo payload and a PNG; pay confirms', async () => {
      const o = await buyerOrder(gateways.transfer);
      const action = o.created.next_action;
      assert.equal(action.type, 'transfer');
      assert.ok(hasValidCrc(action.qr_data));
      const tags = parseTlv(action.qr_data);
      assert.equal(tags.get('54'), '25000');
      assert.equal(tags.get('53'), '170');
      assert.ok(tags.get('26')?.includes(action.key));
      assert.equal(tags.get('59'), 'Tienda Demo');
      assert.match(action.qr_png, /^iVBORw0KGgo/);
      assert.equal(Date.parse(action.expires_at) - sb.clock.now(), minutes(15));
      await control(o.id, 'pay');
      assert.equal((await o.read()).status, 'confirmed');
    });

    test('expires after 15 minutes', async () => {
      const o = await buyerOrder(gateways.transfer);
      await sb.advance(minutes(14));
      assert.equal((await o.read()).status, 'processing');
      await sb.advance(minutes(1));
      const view = await o.read();
      assert.deepEqual([view.status, view.cancel_reason], ['cancelled', 'expired']);
    });

    test('POST /sandbox/orders/{id}/expire expires at once', async () => {
      const o = await buyerOrder(gateways.transfer);
      await control(o.id, 'expire');
      assert.equal((await o.read()).cancel_reason, 'expired');
    });
  });

  describe('card (sandbox card page)', () => {
    const cardOrder = async (returnUrl?: string) => {
      const r = await checkoutOrder(sb, 'demo-fixed', gateways.card, { extra: returnUrl ? { return_url: returnUrl } : {} });
      assert.equal(r.status, 201, r.text);
      const { next_action: action, id_order: id, order_token: token } = r.body.data;
      assert.equal(action.type, 'redirect');
      assert.ok(action.url.startsWith(`${sb.origin}/sandbox/card/`));
      return { id, token, path: new URL(action.url).pathname };
    };
    const payWith = (path: string, card: string) =>
      sb.raw(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: card }).toString() });

    test('the card page is a plain form under a strict CSP', async () => {
      const { path } = await cardOrder();
      const page = await sb.raw(path, {});
      assert.equal(page.status, 200);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.doesNotMatch(page.text, /<script|style=/i);
      assert.match(page.text, /<form method="post"/);
      assert.match(page.text, /\$\s?50\.000/);
    });

    test('4242 4242 4242 4242 pays and returns to the page that started it', async () => {
      const { id, path } = await cardOrder('http://localhost:5173/gracias?x=1');
      const r = await payWith(path, '4242 4242 4242 4242');
      assert.equal(r.status, 303);
      assert.equal(r.headers.get('location'), 'http://localhost:5173/gracias?x=1');
      assert.equal(sb.running.sandbox.state.orders.get(id)?.status, 'confirmed');
    });

    test('4000 0000 0000 0002 declines; without a return_url it goes back to the hosted page', async () => {
      const { id, path } = await cardOrder();
      const r = await payWith(path, '4000000000000002');
      assert.equal(r.status, 303);
      assert.equal(r.headers.get('location'), `${sb.origin}/checkout/demo-fixed`);
      const order = sb.running.sandbox.state.orders.get(id);
      assert.deepEqual([order?.status, order?.cancel_reason], ['cancelled', 'declined']);
    });

    test('another card number is refused on the page and changes nothing', async () => {
      const { id, path } = await cardOrder();
      const r = await payWith(path, '5555 5555 5555 4444');
      assert.equal(r.status, 400);
      assert.match(r.text, /tarjeta de prueba/i);
      assert.equal(sb.running.sandbox.state.orders.get(id)?.status, 'processing');
    });

    test('an unknown card session is 404', async () => {
      assert.equal((await sb.raw('/sandbox/card/nope', {})).status, 404);
    });
  });

  describe("the contract's transition table", () => {
    test('every row is implemented, and nothing else is allowed', async () => {
      assert.deepEqual(orderTransitions.map((t) => `${t.from.join('|')} -${t.trigger}-> ${t.to}`), [
        'pending -gateway_processing-> processing',
        'processing -payment_completed-> confirmed',
        'pending|processing -cancel-> cancelled',
        'confirmed -refund-> refunded',
      ]);
      // pending → processing: every order the API creates is processing once its gateway starts.
      const order = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), merchant);
      assert.equal(order.body.data.status, 'processing');
      const id = order.body.data.id_order;
      // processing → confirmed; then confirmed refuses approve and cancel, and only refund moves it.
      assert.equal((await control(id, 'approve')).body.data.status, 'confirmed');
      assertError(await control(id, 'approve'), 400, 'INVALID_ORDER_STATUS');
      assertError(await control(id, 'decline'), 400, 'INVALID_ORDER_STATUS');
      assert.equal((await sb.api('POST', `/v1/orders/refund/${id}`, undefined, merchant)).status, 200);
      // refunded is terminal.
      for (const action of ['approve', 'pay', 'decline', 'expire']) assertError(await control(id, action), 400, 'INVALID_ORDER_STATUS');
      assertError(await sb.api('POST', `/v1/orders/cancel/${id}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS');
      assertError(await sb.api('POST', `/v1/orders/refund/${id}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS');
      // cancelled is terminal.
      const other = (await sb.api('POST', '/v1/orders', directOrderBody(gateways.transfer), merchant)).body.data.id_order;
      await sb.api('POST', `/v1/orders/cancel/${other}`, undefined, merchant);
      for (const action of ['approve', 'pay']) assertError(await control(other, action), 400, 'INVALID_ORDER_STATUS');
      assertError(await sb.api('POST', `/v1/orders/refund/${other}`, undefined, merchant), 400, 'INVALID_ORDER_STATUS');
      assert.equal((await sb.api('GET', `/v1/orders/${other}`, undefined, merchant)).body.data.status, 'cancelled');
    });
  });
});

describe('EMVCo payloads', () => {
  test('CRC-16/CCITT-FALSE check value: "123456789" → 0x29B1', () => {
    assert.equal(crc16ccittFalse('123456789'), 0x29b1);
    assert.equal(crc16ccittFalse(''), 0xffff);
  });

  test('a generated payload carries its own CRC, and a changed byte breaks it', () => {
    const payload = transferQrPayload({ transferKey: 'BREB-KEY-1', amount: 50_000, storeName: 'Café Ñandú de la Esquina Grande', orderReference: 'ORDER-7' });
    assert.ok(hasValidCrc(payload));
    assert.equal(payload.slice(-8, -4), '6304');
    assert.match(payload.slice(-4), /^[0-9A-F]{4}$/);
    const tags = parseTlv(payload);
    assert.deepEqual([tags.get('00'), tags.get('01'), tags.get('53'), tags.get('58'), tags.get('60')], ['01', '12', '170', 'CO', 'BOGOTA']);
    assert.equal(tags.get('59'), 'Cafe Nandu de la Esquina ', 'ASCII, truncated to 25');
    assert.ok(tags.get('62')?.includes('ORDER-7'));
    assert.ok(!hasValidCrc(payload.replace('50000', '50001')));
  });
});
