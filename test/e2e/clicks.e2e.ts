/** Double and triple clicks (and a click plus Enter) on the pay button make one order, counted in the sandbox. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Buyer, gateways, startWorld, type Gateway, type World } from './support/harness.js';

describe('impatient clicks on pay', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  /** Up to the filled details screen, with every order POST the page sends recorded. */
  async function readyToPay(gateway: Gateway): Promise<{ buyer: Buyer; posts: string[] }> {
    const buyer = await Buyer.create(world);
    const posts: string[] = [];
    buyer.page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/orders')) posts.push(r.headers()['idempotency-key'] ?? '');
    });
    await buyer.open('demo-fixed');
    await buyer.chooseMethod(gateway.name);
    await buyer.fillDetails(gateway.kind === 'push' ? { phone: '3001234567' } : {});
    return { buyer, posts };
  }

  async function assertOneOrder(buyer: Buyer, gateway: Gateway, posts: string[]): Promise<void> {
    await buyer.waitForStep(gateway.waitingStep);
    await buyer.page.waitForTimeout(300); // any late second submit would have been sent by now
    assert.equal((await world.orders('demo-fixed')).length, 1, 'one order in the sandbox');
    assert.equal(new Set(posts).size, 1, `one Idempotency-Key on the wire: ${posts.join(', ')}`);
  }

  for (const gateway of Object.values(gateways) as Gateway[]) {
    it(`${gateway.name}: a double click and a triple click make one order`, async () => {
      for (const clickCount of [2, 3]) {
        await world.reset();
        const { buyer, posts } = await readyToPay(gateway);
        try {
          await buyer.payButton().click({ clickCount, delay: 0 });
          await assertOneOrder(buyer, gateway, posts);
        } finally {
          await buyer.close();
        }
      }
    });
  }

  it('three clicks in the same task, then Enter, make one order', async () => {
    const { buyer, posts } = await readyToPay(gateways.push);
    try {
      // Before the element can re-render and disable the button: the flow itself must refuse the repeats.
      await buyer.page.evaluate(() => {
        const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]')?.shadowRoot;
        const pay = screen?.querySelector('button[type=submit]');
        if (!(pay instanceof HTMLButtonElement)) throw new Error('no pay button');
        pay.click();
        pay.click();
        pay.click();
      });
      await buyer.page.keyboard.press('Enter').catch(() => undefined);
      await assertOneOrder(buyer, gateways.push, posts);
    } finally {
      await buyer.close();
    }
  });
});
