// A tap on the server-drawn first screen (renderHostedPage) before the element takes over is replayed on the element's
// own screen (issue 31). The element's own listener, here: no inline script runs in this page, the hosted page's
// early-tap script among them (that one: test/e2e/server-rendered.e2e.ts). In a page of its own (each file runs in
// one), so the details step's chunk is fetched here first, and held (test/harness/slow-chunk-middleware.mjs): the
// element waits for it before it takes over, and the buyer taps meanwhile.
import { expect, waitUntil } from '@open-wc/testing';
import { heading, resetSandbox, waitForStep } from './support/checkout.js';
import { PayCheckout } from '../../src/element/pay-checkout.js';

describe('a tap on the server-drawn first screen before the element takes over', () => {
  it('is replayed on the element’s own screen: the tapped method opens its details', async () => {
    await resetSandbox();
    sessionStorage.clear();
    localStorage.clear();
    expect(customElements.get('pay-step-details'), 'a fresh page').to.equal(undefined);
    document.cookie = 'pay-test-hold=/src/element/internal/details-steps.ts; path=/';
    PayCheckout.detailsWaitMs = 30_000;
    after(() => {
      document.cookie = 'pay-test-hold=; path=/; max-age=0';
      PayCheckout.detailsWaitMs = undefined;
    });
    const link: unknown = await (await fetch('/v1/checkout/links/demo-fixed')).json();
    const response = await fetch(`/ssr-hosted?hash=demo-fixed&locale=es&link=${encodeURIComponent(JSON.stringify(link))}`);
    const container = document.createElement('div');
    document.body.append(container);
    container.setHTMLUnsafe(await response.text());
    const host = container.querySelector('pay-checkout')!;
    host.setAttribute('api-base', '/v1');
    const drawn = host.shadowRoot!.querySelector('[data-step]')!;
    // The element is running, and waits for the details step: the server's screen stays.
    await waitUntil(() => host instanceof PayCheckout && host.step === 'loading', 'the element upgraded', { timeout: 10_000 });
    await host.updateComplete;
    expect(host.shadowRoot!.querySelector('[data-step]'), 'still the drawn screen').to.equal(drawn);
    const nequi = [...drawn.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.includes('Nequi'))!;
    nequi.click();
    await fetch('/test/release', { method: 'POST' });
    await waitForStep(host, 'details');
    expect(heading(host)).to.equal('Tus datos');
    container.remove();
  });
});
