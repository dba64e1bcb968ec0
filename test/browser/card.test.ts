import { expect, fixtureCleanup } from '@open-wc/testing';
import {
  button,
  chooseMethod,
  click,
  fillDetails,
  heading,
  latestOrderId,
  mount,
  navigations,
  recordEvents,
  resetSandbox,
  sandboxOrder,
  sandboxOrders,
  waitForStep,
} from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

async function toCard(el: PayCheckout): Promise<void> {
  await chooseMethod(el, 'Tarjeta');
  await fillDetails(el, {});
  await waitForStep(el, 'redirect');
}

/** The buyer on the provider's page: submits a test card, as its form would. */
async function payOnCardPage(url: string, card: string): Promise<void> {
  const response = await fetch(new URL(url, location.href).pathname, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: card }),
    redirect: 'manual',
  });
  expect(response.status === 303 || response.type === 'opaqueredirect' || response.ok).to.equal(true);
}

describe('<pay-checkout> card', () => {
  beforeEach(resetSandbox);

  it('hands off to the card page, and on return resumes the same order as paid', async () => {
    const el = await mount();
    await toCard(el);
    expect(heading(el)).to.equal('Paga con tarjeta');
    await expect(el).to.be.accessible();
    const link = button(el, 'Ir a pagar con tarjeta') as HTMLAnchorElement;
    const id = await latestOrderId();
    expect(link.href).to.equal((await sandboxOrder(id)).card_url);
    await click(el, 'Ir a pagar con tarjeta');
    expect(navigations).to.deep.equal([link.href]);
    await payOnCardPage(link.href, '4242 4242 4242 4242');
    // The card page sends the buyer back: the page loads again and a new element appears.
    fixtureCleanup();
    const back = await mount();
    const events = recordEvents(back, ['pay-paid']);
    await waitForStep(back, 'paid');
    expect(events.map((e) => e.detail.id_order)).to.deep.equal([id]);
    expect(navigations).to.have.length(1);
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('a declined card shows declined after the return', async () => {
    const el = await mount();
    await toCard(el);
    const url = (button(el, 'Ir a pagar con tarjeta') as HTMLAnchorElement).href;
    await click(el, 'Ir a pagar con tarjeta');
    await payOnCardPage(url, '4000 0000 0000 0002');
    fixtureCleanup();
    const back = await mount();
    await waitForStep(back, 'declined');
    await expect(back).to.be.accessible();
  });

  it('cancels before the hand-off', async () => {
    const el = await mount();
    await toCard(el);
    await click(el, 'Cancelar pago');
    await waitForStep(el, 'cancelled');
    expect(navigations).to.have.length(0);
  });
});

describe('<pay-checkout> card expiry', () => {
  beforeEach(resetSandbox);

  it('an order that expired while the buyer was away shows expired on return', async () => {
    const el = await mount();
    await toCard(el);
    await click(el, 'Ir a pagar con tarjeta');
    const { control } = await import('./support/checkout.js');
    await control(`/orders/${await latestOrderId()}/expire`, {});
    fixtureCleanup();
    const back = await mount();
    await waitForStep(back, 'expired');
    await expect(back).to.be.accessible();
  });
});
