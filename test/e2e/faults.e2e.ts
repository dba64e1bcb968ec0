/**
 * Faults from the sandbox (POST /sandbox/faults) against the built hosted page: a 5xx burst and dropped
 * connections while waiting recover on their own with one order and the true outcome; malformed or incomplete
 * answers show a plain error with a retry, never a blank screen, raw JSON or a stack trace.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertPlainText, Buyer, completeOutside, gateways, onlyOrder, settleMs, startWorld, type World } from './support/harness.js';

const statusPath = '/v1/checkout/orders/*';
const linkPath = '/v1/checkout/links/*';
/** Chromium repeats a request silently when a reused keep-alive connection drops; this many reach the page too. */
const dropsToReachPage = 8;

describe('faults while waiting for the payment', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  const spent = async () => (await world.control<{ remaining: number }[]>('GET', '/faults')).every((f) => f.remaining === 0);
  const waitUntil = async (what: string, done: () => Promise<boolean>, timeoutMs = settleMs) => {
    const until = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /**
   * A burst of 5xx, then dropped connections, on the status checks; the payment completes in the middle of it.
   * The faults are set before paying: the element's first status request then meets them (a waiting request that is
   * already open would only answer once the status changes).
   */
  async function burstThenPaid(buyer: Buyer, pay: () => Promise<void>, complete: () => Promise<void>): Promise<void> {
    await world.fault({ path: statusPath, method: 'GET', mode: 'error_5xx', count: 3, status: 503 });
    await world.fault({ path: statusPath, method: 'GET', mode: 'drop', count: dropsToReachPage });
    await pay();
    // The payment completes while the element can't see it yet; it must find out on its own.
    await waitUntil('the 5xx burst to reach the page', async () => (await world.control<{ remaining: number }[]>('GET', '/faults'))[0]?.remaining === 0);
    await complete();
    await waitUntil('every fault to be spent', spent);
    await buyer.waitForStep('paid', 15_000);
  }

  for (const gateway of [gateways.push, gateways.transfer]) {
    it(`${gateway.name}: a 5xx burst and dropped connections recover on their own, one order, true status`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.open('demo-fixed');
        await burstThenPaid(
          buyer,
          () => buyer.payWith(gateway),
          async () => completeOutside(world, await onlyOrder(world, 'demo-fixed')),
        );
        const order = await onlyOrder(world, 'demo-fixed');
        const text = await buyer.text();
        assert.match(text, /¡Pago exitoso!/);
        assert.match(text, new RegExp(`Número de orden ${order.id_order}\\b`));
        assert.equal((await world.orders('demo-fixed')).length, 1, 'no second order');
        assert.equal((await onlyOrder(world, 'demo-fixed')).status, 'confirmed');
        assert.equal(await buyer.page.evaluate(() => window.__e2e.payErrors), 0, 'never the error screen');
        assert.ok(buyer.serverErrors.length >= 3, `the 5xx burst reached the page: ${buyer.serverErrors.join(', ')}`);
        assert.ok(buyer.failedApiRequests.length >= 1, 'a dropped connection reached the page');
      } finally {
        await buyer.close();
      }
    });
  }

  // The return from the card page resumes the saved order through the burst: the element keeps the order unless the
  // answer is ORDER_NOT_FOUND, retrying quietly before it would show the error screen.
  it('Tarjeta: back from the card page, a 5xx burst and dropped connections recover on their own', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.card);
      await world.fault({ path: statusPath, method: 'GET', mode: 'error_5xx', count: 3, status: 502 });
      await world.fault({ path: statusPath, method: 'GET', mode: 'drop', count: dropsToReachPage });
      await buyer.payOnCardPage();
      assert.equal(await buyer.waitForStep(['paid', 'unavailable', 'amount', 'method', 'error'], 15_000), 'paid', await buyer.text());
      const order = await onlyOrder(world, 'demo-fixed');
      assert.equal(order.status, 'confirmed');
      assert.match(await buyer.text(), new RegExp(`¡Pago exitoso!.*Número de orden ${order.id_order}\\b`));
    } finally {
      await buyer.close();
    }
  });

  it('Daviplata: a 5xx and a dropped connection on the code keep the order; sending the code again pays it', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.otp);
      const order = await onlyOrder(world, 'demo-fixed');
      assert.ok(order.otp);
      // Chromium silently repeats a request when a reused keep-alive connection drops, so enough drops are queued
      // for one to reach the page on a fresh connection.
      const faults = [
        { mode: 'error_5xx', count: 1, message: 'El servicio de pagos no está disponible' },
        { mode: 'drop', count: dropsToReachPage, message: 'No pudimos conectarnos' },
      ] as const;
      for (const { mode, count, message } of faults) {
        await world.fault({ path: `${statusPath}/otp`, method: 'POST', mode, count });
        await buyer.enterOtp(order.otp);
        // A plain message on the same screen, the order kept, the code field ready again.
        await buyer.page.waitForFunction((wanted) => {
          const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]')?.shadowRoot;
          const submit = screen?.querySelector('button[type=submit]');
          const error = screen?.querySelector('[part~="error"]')?.textContent ?? '';
          return submit instanceof HTMLButtonElement && submit.getAttribute('aria-disabled') !== 'true' && error.includes(wanted);
        }, message);
        assert.equal(await buyer.step(), 'otp');
        assertPlainText(await buyer.text());
        await world.control('DELETE', '/faults');
        assert.equal((await onlyOrder(world, 'demo-fixed')).status, 'processing', 'the code never reached the gateway');
      }
      assert.ok(buyer.failedApiRequests.some((r) => r.endsWith('/otp')), 'a dropped connection reached the page');
      await buyer.enterOtp(order.otp);
      await buyer.waitForStep('paid');
      assert.equal((await world.orders('demo-fixed')).length, 1, 'no second order');
    } finally {
      await buyer.close();
    }
  });
});

describe('malformed or incomplete answers', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  const linkFaults = [
    { mode: 'malformed_json', label: 'malformed JSON' },
    { mode: 'missing_field', field: 'data.gateways', label: 'no gateways field' },
    { mode: 'missing_field', field: 'data.currency', label: 'no currency field' },
  ] as const;

  for (const fault of linkFaults) {
    it(`the link answer with ${fault.label}: a plain error with a retry, and retry recovers`, async () => {
      await world.fault({ path: linkPath, method: 'GET', count: 1, ...fault });
      const buyer = await Buyer.create(world);
      try {
        await buyer.open('demo-fixed');
        await buyer.waitForStep('error');
        const text = await buyer.text();
        assert.match(text, /Algo salió mal/);
        assertPlainText(text);
        await buyer.page.getByRole('button', { name: 'Reintentar' }).click();
        await buyer.waitForStep('method');
        assert.match(await buyer.text(), /Elige cómo pagar.*Nequi/);
        assert.deepEqual(buyer.pageErrors, []);
      } finally {
        await buyer.close();
      }
    });
  }

  const statusFaults = [
    { mode: 'malformed_json', label: 'malformed JSON' },
    { mode: 'missing_field', field: 'data.status', label: 'no status field' },
  ] as const;

  for (const fault of statusFaults) {
    it(`the status answer with ${fault.label}: a plain notice with a retry while waiting, and retry recovers`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.open('demo-fixed');
        // Enough broken answers that the notice stays up until the buyer presses retry. A broken answer to a waiting
        // request comes when the wait ends, so the faults are set before paying and the payment approved at once.
        await world.fault({ path: statusPath, method: 'GET', count: 2, ...fault });
        await buyer.payWith(gateways.push);
        // Approved at once: the waiting request answers, broken, and so does the next check.
        const order = await onlyOrder(world, 'demo-fixed');
        await world.control('POST', `/orders/${order.id_order}/approve`);
        const retry = buyer.page.getByRole('button', { name: 'Reintentar' });
        await retry.waitFor({ timeout: settleMs });
        const text = await buyer.text();
        assert.equal(await buyer.step(), 'push', 'still waiting on the same screen');
        assertPlainText(text);
        await world.control('DELETE', '/faults');
        await retry.click().catch(() => undefined); // a poll may have recovered first and removed the button
        await buyer.waitForStep('paid');
        assert.match(await buyer.text(), new RegExp(`Número de orden ${order.id_order}\\b`));
        assert.equal((await world.orders('demo-fixed')).length, 1);
      } finally {
        await buyer.close();
      }
    });
  }

  it('the order answer with malformed JSON after pressing pay: a plain error, and retry finds the same order', async () => {
    await world.fault({ path: '/v1/checkout/links/*/orders', method: 'POST', mode: 'malformed_json', count: 1 });
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.chooseMethod('Nequi');
      await buyer.fillDetails({ phone: '3001234567' });
      await buyer.payButton().click();
      await buyer.waitForStep('error');
      assertPlainText(await buyer.text());
      await buyer.page.getByRole('button', { name: 'Reintentar' }).click();
      await buyer.waitForStep('push');
      // The first answer was lost, not the order: the retry carries the same Idempotency-Key.
      assert.equal((await world.orders('demo-fixed')).length, 1, 'one order');
    } finally {
      await buyer.close();
    }
  });
});
