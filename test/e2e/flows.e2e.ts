/**
 * The buyer flows on the built hosted page against the sandbox, in the engine named by $ENGINE (Chromium when unset):
 * transfer on a dynamic link with a typed amount, push approval, SMS code, and the card page and back. run.mjs runs this
 * file in Chromium, Firefox and WebKit, each through its own driver (support/driver.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { currentEngine, engineLabel } from '../harness/engines.mjs';
import { CheckoutPage } from './support/checkout-page.js';
import { openDriver, stopSharedDrivers, type Driver } from './support/driver.js';
import { completeOutside, gateways, onlyOrder, startSandboxWorld, type Gateway, type SandboxWorld } from './support/harness.js';

const driverEngine = currentEngine();

describe(`buyer flows in ${engineLabel[driverEngine]}`, () => {
  let world: SandboxWorld;
  let driver: Driver | undefined;
  let page: CheckoutPage;
  before(async () => (world = await startSandboxWorld()));
  after(async () => {
    await stopSharedDrivers();
    await world.close();
  });
  beforeEach(async () => {
    await world.reset();
    // A fresh browser per buyer: empty storage, no order left from the test before.
    driver = await openDriver(driverEngine);
    page = new CheckoutPage(driver);
  });
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  const payWith = (gateway: Gateway) => page.payWith(gateway);

  async function assertReceipt(hash: string, id: number, amount: RegExp): Promise<void> {
    await page.waitForStep('paid');
    const text = await page.text();
    assert.match(text, /¡Pago exitoso!/);
    assert.match(text, new RegExp(`Número de orden ${id}\\b`));
    assert.match(text, amount);
    assert.equal((await world.orders(hash)).length, 1, 'one order');
  }

  it('Bre-B on a dynamic link: the typed amount, the transfer key on screen, paid from the bank', async () => {
    await page.open(`${world.sandbox.checkoutUrl}/demo-dynamic`);
    await page.waitForStep('amount');
    // Repeated digits: a driver that collapses repeated keys would order $ 250.
    await page.typeInto('Valor en pesos', '25000');
    await page.clickButton('Continuar');
    await payWith(gateways.transfer);
    const order = await onlyOrder(world, 'demo-dynamic');
    assert.equal(order.total, 25000);
    assert.ok(order.transfer_key);
    await page.waitForText(order.transfer_key);
    await completeOutside(world, order);
    await assertReceipt('demo-dynamic', order.id_order, /\$\s?25\.000/);
  });

  it('Nequi: waits for the approval on the phone, then shows the receipt', async () => {
    await page.open(`${world.sandbox.checkoutUrl}/demo-fixed`);
    await payWith(gateways.push);
    const order = await onlyOrder(world, 'demo-fixed');
    await completeOutside(world, order);
    await assertReceipt('demo-fixed', order.id_order, /\$\s?50\.000/);
  });

  it('Daviplata: the SMS code typed and confirmed pays the order', async () => {
    await page.open(`${world.sandbox.checkoutUrl}/demo-fixed`);
    await payWith(gateways.otp);
    const order = await onlyOrder(world, 'demo-fixed');
    assert.ok(order.otp, 'the sandbox shows the SMS code');
    await page.typeInto('Código de 6 dígitos', order.otp);
    await page.clickButton('Confirmar pago');
    await assertReceipt('demo-fixed', order.id_order, /\$\s?50\.000/);
  });

  it('Tarjeta: pays on the card page and comes back to the receipt', async () => {
    await page.open(`${world.sandbox.checkoutUrl}/demo-fixed`);
    await payWith(gateways.card);
    const order = await onlyOrder(world, 'demo-fixed');
    await page.clickButton('Ir a pagar con tarjeta');
    await page.waitForUrl(/\/sandbox\/card\//);
    await page.typeInto('Número de tarjeta', '4242 4242 4242 4242');
    await page.clickButton('Pagar');
    await page.waitForUrl(/\/checkout\/demo-fixed/);
    await assertReceipt('demo-fixed', order.id_order, /\$\s?50\.000/);
  });
});
