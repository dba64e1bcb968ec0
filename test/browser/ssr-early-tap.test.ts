// A tap on the server-drawn first screen (renderHostedPage) before the element takes over is replayed on the element's
// own screen. The element's own listener, here: no inline script runs in this page, the hosted page's
// early-tap script among them (that one: test/e2e/server-rendered.e2e.ts). In a page of its own (each file runs in
// one), so the details step's chunk is fetched here first, and held (test/harness/slow-chunk-middleware.mjs): the
// element keeps the drawn screen while it waits for that chunk, 300 ms here, then takes over without it.
import { expect, waitUntil } from '@open-wc/testing';
import { button, heading, waitForStep } from './support/checkout.js';
import { drawnButton, flowStep, heldModuleHooks, holdModule, releaseHeld, serverDrawn } from './support/server-drawn.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('a tap on the server-drawn first screen before the element takes over', () => {
  heldModuleHooks();

  it('is replayed on the element’s own screen once its wait is over: the tapped method opens its details', async () => {
    expect(customElements.get('pay-step-details') === undefined, 'a fresh page').to.equal(true);
    holdModule('/src/element/steps/details-steps.ts');
    PayCheckout.detailsWaitMs = 300;
    const { host, drawn, container } = await serverDrawn();
    const ready = new Promise<void>((resolve) => host.addEventListener('pay-ready', () => resolve()));
    // The element runs and has read the link: it keeps the drawn screen while it waits, and the buyer taps it.
    await waitUntil(() => host instanceof PayCheckout && flowStep(host) === 'method', 'the link read', { timeout: 15_000, interval: 5 });
    expect(host.shadowRoot!.querySelector('[data-step]') === drawn, 'still the drawn screen').to.equal(true);
    drawnButton(drawn, 'Nequi').click();
    // Its wait over, it takes over without the details step (still held), and taps Nequi on its own screen.
    await ready;
    await waitForStep(host, 'method');
    expect(customElements.get('pay-step-details') === undefined, 'the details step still on its way').to.equal(true);
    await waitUntil(() => button(host, 'Nequi').getAttribute('aria-busy') === 'true', 'the tap replayed: Nequi busy', { timeout: 5_000 });
    await releaseHeld();
    await waitForStep(host, 'details');
    expect(heading(host)).to.equal('Tus datos');
    container.remove();
  });
});
