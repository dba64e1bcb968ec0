// A method tapped the moment the server-drawn first screen comes alive: the element takes over once the
// details step's chunk and the whole catalog are in, so the tap answers with the details screen at once. First in its
// own page (each test file runs in one), so that chunk has not been fetched before; the dev server holds it back
// until the test lets it go (test/harness/slow-chunk-middleware.mjs), as a phone's line does.
import { expect, waitUntil } from '@open-wc/testing';
import { click, heading, waitForStep } from './support/checkout.js';
import { flowStep, heldModuleHooks, holdModule, releaseHeld, serverDrawn } from './support/server-drawn.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('<pay-checkout> a method tapped right at pay-ready', () => {
  heldModuleHooks();

  it('on a server-drawn screen: the element takes over with the details step here, and the tap opens it at once', async () => {
    expect(customElements.get('pay-step-details') === undefined, 'a fresh page: the details step not yet fetched').to.equal(true);
    holdModule('/src/element/steps/details-steps.ts');
    PayCheckout.detailsWaitMs = 30_000;
    const heard: string[] = [];
    const { host, drawn, container } = await serverDrawn();
    const ready = new Promise<void>((resolve) =>
      host.addEventListener('pay-ready', () => {
        heard.push(`pay-ready on ${host.step}, details step ${customElements.get('pay-step-details') ? 'defined' : 'missing'}`);
        resolve();
      }),
    );
    // The link's answer is read; the details step's chunk is not here: the drawn screen stays, and the page hears nothing.
    await waitUntil(() => host instanceof PayCheckout && flowStep(host) === 'method', 'the link read', { timeout: 15_000 });
    await host.updateComplete;
    expect(host.shadowRoot!.querySelector('[data-step]') === drawn, 'the drawn screen still on show').to.equal(true);
    expect(heard).to.deep.equal([]);
    expect(performance.getEntriesByName('pay-checkout:interactive')).to.have.length(0);
    await releaseHeld();

    await ready;
    expect(heard).to.deep.equal(['pay-ready on method, details step defined']);
    expect(performance.getEntriesByName('pay-checkout:interactive'), 'the interactive mark with it').to.have.length(1);
    await waitForStep(host, 'method');
    // The tap, right away: the very next render is the details screen, in the whole catalog's words.
    await click(host, 'Nequi');
    expect(host.step, 'no loading screen between').to.equal('details');
    await waitForStep(host, 'details');
    expect(heading(host)).to.equal('Tus datos');
    container.remove();
  });

  it('an English page shows its first screen with the English catalog, never a Spanish one first', async () => {
    // The English first screens come with the English catalog, held here.
    holdModule('/src/i18n/en.ts');
    const el = document.createElement('pay-checkout');
    for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'en' })) el.setAttribute(name, value);
    document.body.append(el);
    await waitUntil(() => flowStep(el) === 'method', 'the link loaded', { timeout: 15_000 });
    await el.updateComplete;
    expect(el.step, 'loading, not a Spanish screen').to.equal('loading');
    await releaseHeld();
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Choose how to pay');
    await click(el, 'Nequi');
    expect(el.step).to.equal('details');
    el.remove();
  });
});
