// <pay-checkout> server-rendered by Lit SSR (scripts/ssr-middleware.mjs) on a page WITHOUT Lit's hydrate support: the
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
