// The method screen waits for what its tap opens only so long (issue 31): on a line too slow for the details step's
// chunk it shows without it, and a method tapped then shows its button busy until the chunk arrives. In a page
// of its own (each file runs in one), so that chunk is fetched here first, and held (test/harness/slow-chunk-middleware.mjs).
import { expect, waitUntil } from '@open-wc/testing';
import { button, click, heading, resetSandbox, waitForStep } from './support/checkout.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

/** The flow's own step, which the screen (`step`) may not show yet. */
const flowStep = (el: PayCheckout) => (el as unknown as { _runner: { flow: { step: string } } })._runner.flow.step;

describe('<pay-checkout> on a line too slow for the details step', () => {
  it('shows the method screen after its wait, and a tap then waits for the details step', async () => {
    await resetSandbox();
    sessionStorage.clear();
    localStorage.clear();
    expect(customElements.get('pay-step-details'), 'a fresh page').to.equal(undefined);
    document.cookie = 'pay-test-hold=/src/element/internal/details-steps.ts; path=/';
    PayCheckout.detailsWaitMs = 300;
    after(() => {
      document.cookie = 'pay-test-hold=; path=/; max-age=0';
      PayCheckout.detailsWaitMs = undefined;
    });
    const el = document.createElement('pay-checkout');
    for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'es' })) el.setAttribute(name, value);
    const ready = new Promise<number>((resolve) => el.addEventListener('pay-ready', () => resolve(performance.now())));
    document.body.append(el);
    let loadedAt = 0;
    await waitUntil(() => flowStep(el) === 'method' && (loadedAt = performance.now()) > 0, 'the link loaded', { timeout: 15_000 });
    // At most the wait; the chunk is still held (it goes after 10 s otherwise).
    const readyAt = await ready;
    expect(readyAt - loadedAt, 'pay-ready within the wait').to.be.lessThan(3_000);
    expect(customElements.get('pay-step-details'), 'the details step still on its way').to.equal(undefined);
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Elige cómo pagar');
    await click(el, 'Nequi');
    expect(el.step, 'a tap now stays on its screen').to.equal('method');
    expect(button(el, 'Nequi').getAttribute('aria-busy'), 'its button busy').to.equal('true');
    await fetch('/test/release', { method: 'POST' });
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    el.remove();
  });
});
