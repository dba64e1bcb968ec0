// <pay-checkout> server-rendered by Lit SSR (test/harness/ssr-middleware.mjs) on a page WITHOUT Lit's hydrate support: the
// element and its first step start from their empty shadow roots instead of rendering beside the server's copy.
// (With the hydrate support: ssr-hydration.test.ts; each test file runs in its own page.)
import { expect } from '@open-wc/testing';

describe('<pay-checkout> server-rendered, taken over without hydrate support', () => {
  it('shows one shell and one screen, then pays with Nequi', async () => {
    await fetch('/sandbox/reset', { method: 'POST' });
    // Another file's paid order on this origin would be resumed instead.
    sessionStorage.clear();
    localStorage.clear();
    const response = await fetch(`/ssr?markup=${encodeURIComponent('<pay-checkout link="demo-fixed" api-base="/v1"></pay-checkout>')}`);
    const container = document.createElement('div');
    document.body.append(container);
    container.setHTMLUnsafe(await response.text());
    const host = container.querySelector('pay-checkout')!;
    expect(host.shadowRoot?.querySelectorAll('section.base')).to.have.length(1);

    const { control, heading, screenRoot, toPush, waitForStep } = await import('./support/checkout.js');
    await waitForStep(host, 'method');
    expect(host.shadowRoot!.querySelectorAll('section.base'), 'one shell').to.have.length(1);
    expect(host.shadowRoot!.querySelectorAll('[part=live-region]')).to.have.length(1);
    expect(screenRoot(host).querySelectorAll('h2'), 'one screen').to.have.length(1);
    const id = await toPush(host);
    await control(`/orders/${id}/approve`, {});
    await waitForStep(host, 'paid');
    expect(heading(host)).to.equal('¡Pago exitoso!');
    container.remove();
  });
});

describe('the hosted page’s server-drawn first screen (renderHostedPage), taken over', () => {
  for (const [locale, title, other] of [
    ['es', 'Elige cómo pagar', 'Choose how to pay'],
    ['en', 'Choose how to pay', 'Elige cómo pagar'],
  ] as const) {
    it(`${locale}: the same screen from the first frame to the element's own, in its language, with no link request`, async () => {
      await fetch('/sandbox/reset', { method: 'POST' });
      sessionStorage.clear();
      localStorage.clear();
      const link: unknown = await (await fetch('/v1/checkout/links/demo-fixed')).json();
      const response = await fetch(`/ssr-hosted?hash=demo-fixed&locale=${locale}&link=${encodeURIComponent(JSON.stringify(link))}`);
      const container = document.createElement('div');
      document.body.append(container);
      container.setHTMLUnsafe(await response.text());
      const host = container.querySelector('pay-checkout')!;
      host.setAttribute('api-base', '/v1');
      // Every heading on screen, frame by frame, from before the element's code runs: a re-render flash adds one.
      const seen: string[] = [];
      let watching = true;
      const look = () => {
        for (const step of host.shadowRoot?.querySelectorAll('[data-step]') ?? []) {
          const text = step.shadowRoot?.querySelector('h2')?.textContent?.trim();
          if (text && seen.at(-1) !== text) seen.push(text);
        }
        if (watching) requestAnimationFrame(look);
      };
      look();
      expect(seen, 'drawn before any script').to.deep.equal([title]);
      performance.clearResourceTimings();

      const { screenRoot, waitForStep } = await import('./support/checkout.js');
      await waitForStep(host, 'method');
      await new Promise((resolve) => requestAnimationFrame(resolve));
      watching = false;
      expect(seen).to.deep.equal([title]);
      expect(host.shadowRoot!.querySelectorAll('[data-step]'), 'one screen: the server’s copy is gone').to.have.length(1);
      expect(screenRoot(host).textContent).not.to.include(other);
      expect(host.shadowRoot!.querySelector('[part=amount]')?.textContent?.replace(/\s+/g, ' ')).to.include(locale === 'es' ? '$ 50.000' : 'COP 50,000');
      const linkRequests = performance.getEntriesByType('resource').filter((entry) => /\/v1\/checkout\/links\/demo-fixed$/.test(entry.name));
      expect(linkRequests, 'the link came with the page').to.have.length(0);
      await expect(host).to.be.accessible();
      container.remove();
    });
  }
});
