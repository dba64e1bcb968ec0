// The end of `pay-ready`'s wait on the embed: past `detailsWaitMs` the page hears it without the details
// step's chunk, and a method tapped then shows its button busy until the chunk comes (the wait itself:
// quick-tap-embed.test.ts). In a page of its own (each file runs in one: a module can be held once per page), so the
// chunk is fetched here first, and held (test/harness/slow-chunk-middleware.mjs).
import { expect } from '@open-wc/testing';
import { button, click, heading, waitForStep } from './support/checkout.js';
import { embed, heldModuleHooks, holdModule, interactiveMarks, releaseHeld } from './support/server-drawn.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('<pay-checkout> with the details step still on its way', () => {
  heldModuleHooks();

  it('the embed: pay-ready comes without the details step once the wait runs out, and a tap then shows its button busy', async () => {
    expect(customElements.get('pay-step-details') === undefined, 'a fresh page').to.equal(true);
    holdModule('/src/element/steps/details-steps.ts');
    PayCheckout.detailsWaitMs = 400;
    const started = performance.now();
    const { el, ready } = embed();
    const readyAt = await ready;
    expect(readyAt - started >= 400, `pay-ready after the wait (${Math.round(readyAt - started)} ms)`).to.equal(true);
    expect(el.step, 'on the method screen').to.equal('method');
    expect(interactiveMarks(), 'the interactive mark').to.equal(1);
    await click(el, 'Nequi');
    expect(button(el, 'Nequi').getAttribute('aria-busy'), 'its button busy').to.equal('true');
    await releaseHeld();
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    el.remove();
  });
});
