// What the first screen does not wait for (issue 31): the embed's method screen shows at the link's answer, with the
// details step's chunk still on its way, and a method tapped then shows its button busy until it arrives (a
// server-drawn screen's wait and its end: quick-tap.test.ts, ssr-early-tap.test.ts). In a page of its own (each
// file runs in one), so the chunk is fetched here first, and held (test/harness/slow-chunk-middleware.mjs).
import { expect } from '@open-wc/testing';
import { button, click, heading, resetSandbox, waitForStep } from './support/checkout.js';
import { canHoldModules, holdModule, releaseHeld } from './support/server-drawn.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('<pay-checkout> with the details step still on its way', () => {
  before(function () {
    if (!canHoldModules) this.skip();
  });
  afterEach(() => {
    PayCheckout.detailsWaitMs = undefined;
    document.cookie = 'pay-test-hold=; path=/; max-age=0';
  });

  it('the embed shows its method screen at once, and a tap then shows its button busy until the details step comes', async () => {
    await resetSandbox();
    sessionStorage.clear();
    localStorage.clear();
    expect(customElements.get('pay-step-details'), 'a fresh page').to.equal(undefined);
    holdModule('/src/element/internal/details-steps.ts');
    PayCheckout.detailsWaitMs = 30_000;
    const el = document.createElement('pay-checkout');
    for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'es' })) el.setAttribute(name, value);
    const ready = new Promise<void>((resolve) => el.addEventListener('pay-ready', () => resolve()));
    document.body.append(el);
    await ready;
    expect(customElements.get('pay-step-details'), 'the details step still on its way').to.equal(undefined);
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Elige cómo pagar');
    await click(el, 'Nequi');
    expect(el.step, 'a tap now stays on its screen').to.equal('method');
    expect(button(el, 'Nequi').getAttribute('aria-busy'), 'its button busy').to.equal('true');
    await releaseHeld();
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    el.remove();
  });
});
