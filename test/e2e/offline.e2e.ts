/**
 * The buyer's phone loses its connection while the payment completes elsewhere: back online, the page
 * resumes on its own and shows the true status.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertPlainText, Buyer, completeOutside, gateways, onlyOrder, settleMs, startWorld, type World } from './support/harness.js';

describe('offline, then online', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  for (const gateway of [gateways.push, gateways.transfer]) {
    it(`${gateway.name}: paid while offline, shown as paid once back online`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.open('demo-fixed');
        await buyer.payWith(gateway);
        const order = await onlyOrder(world, 'demo-fixed');
        await buyer.context.setOffline(true);
        // Status checks fail while offline: the screen stays, with a plain notice, and never claims an outcome.
        // On screen in the notice (the live region says it too).
        await buyer.page.locator('[part="notice"]').getByText('No pudimos consultar el estado del pago').waitFor({ timeout: settleMs });
        await completeOutside(world, order);
        await buyer.page.waitForTimeout(600); // a few (failing) check intervals while offline
        assert.equal(await buyer.step(), gateway.waitingStep, 'still waiting while offline');
        assertPlainText(await buyer.text());
        await buyer.context.setOffline(false);
        await buyer.waitForStep('paid');
        assert.match(await buyer.text(), new RegExp(`¡Pago exitoso!.*Número de orden ${order.id_order}\\b`));
        assert.equal((await world.orders('demo-fixed')).length, 1);
      } finally {
        await buyer.close();
      }
    });
  }

  it('Nequi: declined while offline, shown as declined once back online', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.push);
      const order = await onlyOrder(world, 'demo-fixed');
      await buyer.context.setOffline(true);
      await world.control('POST', `/orders/${order.id_order}/decline`);
      await buyer.page.waitForTimeout(400);
      assert.equal(await buyer.step(), 'push');
      await buyer.context.setOffline(false);
      await buyer.waitForStep('declined');
      assert.match(await buyer.text(), /El pago fue rechazado/);
    } finally {
      await buyer.close();
    }
  });

  it('Daviplata: a code sent while offline is kept for a second try once online', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.otp);
      const order = await onlyOrder(world, 'demo-fixed');
      assert.ok(order.otp);
      await buyer.context.setOffline(true);
      await buyer.enterOtp(order.otp);
      // On screen under the field (the live region says it too).
      await buyer.page.locator('[part="error"]').getByText('No pudimos conectarnos').waitFor();
      assert.equal(await buyer.step(), 'otp');
      assert.equal((await onlyOrder(world, 'demo-fixed')).status, 'processing');
      await buyer.context.setOffline(false);
      await buyer.page.getByRole('button', { name: 'Confirmar pago' }).click();
      await buyer.waitForStep('paid');
      assert.equal((await world.orders('demo-fixed')).length, 1);
    } finally {
      await buyer.close();
    }
  });
});
