import { expect } from '@open-wc/testing';
import { control, heading, latestOrderId, mount, pressKey, resetSandbox, screenRoot, typeKeys, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

/** The element focused inside the current screen's shadow root. */
const focused = (el: PayCheckout) => screenRoot(el).activeElement as HTMLElement | null;

async function tabTo(el: PayCheckout, match: (e: HTMLElement) => boolean, limit = 15): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const now = focused(el);
    if (now && match(now)) return;
    await pressKey('Tab');
  }
  throw new Error(`could not Tab to the element; at ${focused(el)?.outerHTML ?? 'nothing'}`);
}

describe('<pay-checkout> by keyboard alone', () => {
  beforeEach(resetSandbox);

  it('pays a dynamic link by transfer with Tab, typing and Enter; focus lands on each new heading', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    // Tab into the checkout from the page.
    await pressKey('Tab');
    await tabTo(el, (e) => e.id === 'amount');
    await typeKeys('25000');
    await pressKey('Enter');
    await waitForStep(el, 'method');
    expect(focused(el)?.tagName).to.equal('H2');
    await tabTo(el, (e) => e.textContent?.includes('Bre-B') === true);
    await pressKey('Enter');
    await waitForStep(el, 'details');
    expect(focused(el)?.tagName).to.equal('H2');
    expect(heading(el)).to.equal('Tus datos');
    await tabTo(el, (e) => e.id === 'id_type');
    // A closed <select> changes with the arrow keys.
    await pressKey('ArrowDown');
    await tabTo(el, (e) => e.id === 'id_number');
    await typeKeys('1020304050');
    await pressKey('Enter');
    await waitForStep(el, 'transfer');
    expect(focused(el)?.tagName).to.equal('H2');
    await control(`/orders/${await latestOrderId()}/pay`, {});
    await waitForStep(el, 'paid');
    expect(focused(el)?.tagName).to.equal('H2');
    expect(heading(el)).to.equal('¡Pago exitoso!');
  });
});
