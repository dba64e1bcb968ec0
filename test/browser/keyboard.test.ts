import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { control, heading, latestOrderId, mount, resetSandbox, screenRoot, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

/** The element focused inside the current screen's shadow root. */
const focused = (el: PayCheckout) => screenRoot(el).activeElement as HTMLElement | null;

async function tabTo(el: PayCheckout, match: (e: HTMLElement) => boolean, limit = 15): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const now = focused(el);
    if (now && match(now)) return;
    await sendKeys({ press: 'Tab' });
  }
  throw new Error(`could not Tab to the element; at ${focused(el)?.outerHTML ?? 'nothing'}`);
}

describe('<pay-checkout> by keyboard alone', () => {
  beforeEach(resetSandbox);

  it('pays a dynamic link by transfer with Tab, typing and Enter; focus lands on each new heading', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    // Tab into the checkout from the page.
    await sendKeys({ press: 'Tab' });
    await tabTo(el, (e) => e.id === 'amount');
    await sendKeys({ type: '25000' });
    await sendKeys({ press: 'Enter' });
    await waitForStep(el, 'method');
    expect(focused(el)?.tagName).to.equal('H2');
    await tabTo(el, (e) => e.textContent?.includes('Bre-B') === true);
    await sendKeys({ press: 'Enter' });
    await waitForStep(el, 'details');
    expect(focused(el)?.tagName).to.equal('H2');
    expect(heading(el)).to.equal('Tus datos');
    await tabTo(el, (e) => e.id === 'id_type');
    // A closed <select> changes with the arrow keys.
    await sendKeys({ press: 'ArrowDown' });
    await tabTo(el, (e) => e.id === 'id_number');
    await sendKeys({ type: '1020304050' });
    await sendKeys({ press: 'Enter' });
    await waitForStep(el, 'transfer');
    expect(focused(el)?.tagName).to.equal('H2');
    await control(`/orders/${await latestOrderId()}/pay`, {});
    await waitForStep(el, 'paid');
    expect(focused(el)?.tagName).to.equal('H2');
    expect(heading(el)).to.equal('¡Pago exitoso!');
  });
});
