// A method tapped the moment the first screen is ready (issue 31): the screen shows with what its tap opens, so the
// tap answers with the details screen at once, never a loading screen. First in its own page (each test file runs in
// one), so the details step's chunk and the whole catalog have not been fetched before. The dev server holds that
// chunk back until the link's answer is in (test/harness/slow-chunk-middleware.mjs), as a phone's line does.
import { expect, waitUntil } from '@open-wc/testing';
import { click, heading, resetSandbox, waitForStep } from './support/checkout.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

/** The flow's own step, which the screen (`step`) may not show yet. */
const flowStep = (el: PayCheckout) => (el as unknown as { _runner: { flow: { step: string } } })._runner.flow.step;

describe('<pay-checkout> a method tapped right at pay-ready', () => {
  it('shows the details screen at once: the method screen waits for the details step and the whole catalog', async () => {
    await resetSandbox();
    sessionStorage.clear();
    localStorage.clear();
    expect(customElements.get('pay-step-details'), 'a fresh page: the details step not yet fetched').to.equal(undefined);
    document.cookie = 'pay-test-hold=/src/element/internal/details-steps.ts; path=/';
    PayCheckout.detailsWaitMs = 30_000;
    after(() => {
      document.cookie = 'pay-test-hold=; path=/; max-age=0';
      PayCheckout.detailsWaitMs = undefined;
    });
    const el = document.createElement('pay-checkout');
    for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'es' })) el.setAttribute(name, value);
    const heard: string[] = [];
    const ready = new Promise<void>((resolve) =>
      el.addEventListener('pay-ready', () => {
        heard.push(`pay-ready on ${el.step}, details step ${customElements.get('pay-step-details') ? 'defined' : 'missing'}`);
        resolve();
      }),
    );
    document.body.append(el);

    // The link's answer is in; the details step's chunk is not: the loading screen stays, and the page hears nothing.
    await waitUntil(() => flowStep(el) === 'method', 'the link loaded', { timeout: 15_000 });
    await el.updateComplete;
    expect(el.step, 'still loading without the details step').to.equal('loading');
    expect(heard).to.deep.equal([]);
    expect(performance.getEntriesByName('pay-checkout:interactive')).to.have.length(0);
    await fetch('/test/release', { method: 'POST' });

    await ready;
    expect(heard).to.deep.equal(['pay-ready on method, details step defined']);
    expect(performance.getEntriesByName('pay-checkout:interactive'), 'the interactive mark with it').to.have.length(1);
    await waitForStep(el, 'method');
    // The tap, right away: the very next render is the details screen, in the whole catalog's words.
    await click(el, 'Nequi');
    expect(el.step, 'no loading screen between').to.equal('details');
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    el.remove();
  });

  it('an English page shows its first screen with the English catalog, never a Spanish one first', async () => {
    // The English first screens come with the English catalog, held here.
    document.cookie = 'pay-test-hold=/src/i18n/en.ts; path=/';
    after(() => (document.cookie = 'pay-test-hold=; path=/; max-age=0'));
    const el = document.createElement('pay-checkout');
    for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'en' })) el.setAttribute(name, value);
    document.body.append(el);
    await waitUntil(() => flowStep(el) === 'method', 'the link loaded', { timeout: 15_000 });
    await el.updateComplete;
    expect(el.step, 'loading, not a Spanish screen').to.equal('loading');
    await fetch('/test/release', { method: 'POST' });
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Choose how to pay');
    await click(el, 'Nequi');
    expect(el.step).to.equal('details');
    el.remove();
  });
});
