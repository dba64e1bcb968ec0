/**
 * Reloads at every step resume the same order (sessionStorage by link hash); closing the tab during a push
 * approval and opening the link again resumes the same order (its copy in localStorage), shows the receipt once the
 * payment is confirmed, and never charges twice.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Buyer, completeOutside, gateways, onlyOrder, startWorld, type Gateway, type World } from './support/harness.js';

describe('reload at every step', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  async function reloadAndExpect(buyer: Buyer, step: string): Promise<void> {
    await buyer.page.reload();
    await buyer.waitForStep(step);
  }

  for (const gateway of Object.values(gateways) as Gateway[]) {
    it(`${gateway.name}: reloads before paying order nothing; the gateway step resumes the same order; the paid link stays paid`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.open('demo-fixed');
        await buyer.waitForStep('method');
        await reloadAndExpect(buyer, 'method');
        await buyer.chooseMethod(gateway.name);
        // Nothing was ordered yet: a reload goes back to choosing, and orders nothing.
        await reloadAndExpect(buyer, 'method');
        assert.equal((await world.orders()).length, 0);
        await buyer.payWith(gateway);
        const order = await onlyOrder(world, 'demo-fixed');
        for (let i = 0; i < 2; i++) await reloadAndExpect(buyer, gateway.waitingStep);
        assert.equal((await world.orders()).length, 1, 'the reloads resumed, never re-ordered');
        if (gateway.kind === 'otp') {
          assert.ok(order.otp);
          await buyer.enterOtp(order.otp);
        } else if (gateway.kind === 'card') {
          await buyer.payOnCardPage();
        } else {
          await completeOutside(world, order);
        }
        await buyer.waitForStep('paid');
        assert.match(await buyer.text(), new RegExp(`Número de orden ${order.id_order}\\b`));
        // After the outcome the element forgets the order's token but keeps its receipt: a reload shows it, and orders nothing.
        await reloadAndExpect(buyer, 'paid');
        assert.match(await buyer.text(), new RegExp(`Total pagado.*Número de orden ${order.id_order}\\b`));
        assert.equal((await world.orders()).length, 1);
      } finally {
        await buyer.close();
      }
    });
  }

  it('dynamic link: the amount screen and a waiting push survive a reload, with the amount kept', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-dynamic');
      await buyer.waitForStep('amount');
      await reloadAndExpect(buyer, 'amount');
      await buyer.enterAmount('12.345');
      await buyer.payWith(gateways.push);
      await reloadAndExpect(buyer, 'push');
      assert.match(await buyer.text(), /\$\s?12\.345/);
      const order = await onlyOrder(world, 'demo-dynamic');
      assert.equal(order.total, 12345);
      await completeOutside(world, order);
      await buyer.waitForStep('paid');
    } finally {
      await buyer.close();
    }
  });
});

describe('closing the tab during a push approval', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  it('opening the link again in a new tab resumes the waiting order, then shows the receipt once approved, with no second order', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.push);
      const order = await onlyOrder(world, 'demo-fixed');
      await buyer.page.close();
      // A new tab starts with empty sessionStorage, as when a buyer taps the link again in their chat.
      await buyer.newTab();
      await buyer.open('demo-fixed');
      await buyer.waitForStep('push');
      assert.equal(await buyer.page.getByRole('button', { name: /^Pagar/ }).count(), 0, 'no way to start a second order');
      await buyer.page.close();
      await world.control('POST', `/orders/${order.id_order}/approve`);
      await buyer.newTab();
      await buyer.open('demo-fixed');
      await buyer.waitForStep('paid');
      assert.match(await buyer.text(), new RegExp(`¡Pago exitoso!.*Número de orden ${order.id_order}\\b`));
      assert.equal((await world.orders()).length, 1);
      // Once a tab has shown the receipt its token is forgotten, but the receipt stays on this device.
      await buyer.page.close();
      await buyer.newTab();
      await buyer.open('demo-fixed');
      await buyer.waitForStep('paid');
      const text = await buyer.text();
      assert.match(text, new RegExp(`Total pagado.*Número de orden ${order.id_order}\\b`));
      assert.equal(await buyer.page.getByRole('button', { name: /^Pagar/ }).count(), 0, 'no way to pay again');
      assert.equal((await world.orders()).length, 1);
    } finally {
      await buyer.close();
    }
  });

  it('restoring the closed tab (same session) resumes the order and shows the receipt', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.push);
      const order = await onlyOrder(world, 'demo-fixed');
      // What "reopen closed tab" restores: the same tab's sessionStorage. Kept here by navigating away and back.
      await buyer.page.goto(`${world.sandbox.url}/`);
      await world.control('POST', `/orders/${order.id_order}/approve`);
      await buyer.page.goBack();
      await buyer.waitForStep('paid');
      assert.match(await buyer.text(), new RegExp(`¡Pago exitoso!.*Número de orden ${order.id_order}\\b`));
    } finally {
      await buyer.close();
    }
  });
});
