// What the embed's first screen does not wait for, and what its `pay-ready` does: the method screen shows at
// the link's answer, with the details step's chunk still on its way; a method tapped then shows its button busy until
// it arrives, and the page hears `pay-ready` (and the `interactive` mark) only once a tap opens the details at once
// (the end of that wait: quick-tap-cap.test.ts; a server-drawn screen's: quick-tap.test.ts, ssr-early-tap.test.ts).
// In a page of its own (each file runs in one: a module can be held once per page), so the chunk is fetched here
// first, and held (test/harness/slow-chunk-middleware.mjs).
import { expect } from '@open-wc/testing';
import { button, click, heading, waitForStep } from './support/checkout.js';
import { embed, heldModuleHooks, holdModule, interactiveMarks, releaseHeld } from './support/server-drawn.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('<pay-checkout> with the details step still on its way', () => {
  heldModuleHooks();

  it('the embed shows its method screen at once; a tap then shows its button busy, and pay-ready waits for the details step', async () => {
    expect(customElements.get('pay-step-details') === undefined, 'a fresh page').to.equal(true);
    holdModule('/src/element/steps/details-steps.ts');
    PayCheckout.detailsWaitMs = 30_000;
    const { el, ready } = embed();
    let readyAt: number | undefined;
    void ready.then((at) => (readyAt = at));
    await waitForStep(el, 'method');
    expect(heading(el), 'the method screen, with the details step held').to.equal('Elige cómo pagar');
    expect(customElements.get('pay-step-details') === undefined, 'the details step still on its way').to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readyAt, 'no pay-ready while a tap could not open the details').to.equal(undefined);
    expect(interactiveMarks(), 'nor the interactive mark').to.equal(0);
    expect(performance.getEntriesByName('pay-checkout:first-screen').length, 'the first screen is marked').to.equal(1);
    await click(el, 'Nequi');
    expect(el.step, 'a tap now stays on its screen').to.equal('method');
    expect(button(el, 'Nequi').getAttribute('aria-busy'), 'its button busy').to.equal('true');
    const released = performance.now();
    await releaseHeld();
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    expect((await ready) >= released, 'pay-ready once the details step is here').to.equal(true);
    expect(interactiveMarks(), 'the interactive mark with it').to.equal(1);
    el.remove();
  });
});
