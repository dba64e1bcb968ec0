// <pay-checkout> server-rendered by Lit SSR (the test server renders it: test/harness/ssr-middleware.mjs), put on the page
// before the element's code, then hydrated by @lit-labs/ssr-client: one shell, no theme written, and a Nequi payment
// through to the receipt with every event reaching a listener the page added before hydration.
// Lit's hydrate support must load before Lit itself: first import.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { expect } from '@open-wc/testing';

const allEvents = ['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-paid', 'pay-failed', 'pay-cancelled', 'pay-error'];

/** The server's HTML for `markup`, parsed with its declarative shadow roots into a fresh container. */
async function serverRendered(markup: string): Promise<HTMLElement> {
  const response = await fetch(`/ssr?markup=${encodeURIComponent(markup)}`);
  expect(response.status).to.equal(200);
  const container = document.createElement('div');
  document.body.append(container);
  container.setHTMLUnsafe(await response.text());
  return container;
}

describe('<pay-checkout> server-rendered, then hydrated', () => {
  it('shows the shell before its code, hydrates into one shell, pays with Nequi and fires every event', async () => {
    await fetch('/sandbox/reset', { method: 'POST' });
    sessionStorage.clear();
    localStorage.clear();
    const errors: unknown[] = [];
    const onError = (e: ErrorEvent | PromiseRejectionEvent) => errors.push('reason' in e ? e.reason : e.error);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);

    const container = await serverRendered('<pay-checkout link="demo-fixed" api-base="/v1" locale="es"></pay-checkout>');
    const host = container.querySelector('pay-checkout')!;
    // The page's listener, added before the element's code arrives, as a server-rendered page does.
    const events: CustomEvent[] = [];
    for (const name of allEvents) host.addEventListener(name, (e) => events.push(e as CustomEvent));
    expect(customElements.get('pay-checkout') === undefined).to.equal(true);
    expect(host.shadowRoot?.querySelectorAll('section.base')).to.have.length(1);
    expect(host.shadowRoot?.querySelector('pay-step-status')?.shadowRoot?.querySelector('[part=loading]')).to.be.instanceOf(HTMLElement);
    expect(host.hasAttribute('theme')).to.equal(false);

    // The element's code arrives (the test helpers register the tag).
    const { PayCheckout } = await import('../../src/index.js');
    const { control, heading, latestOrderId, toPush, waitForStep } = await import('./support/checkout.js');
    const el = host as InstanceType<typeof PayCheckout>;
    expect(el).to.be.instanceOf(PayCheckout);
    await waitForStep(el, 'method');
    const root = el.shadowRoot!;
    expect(root.querySelectorAll('section.base'), 'one shell, not the server’s plus the client’s').to.have.length(1);
    expect(root.querySelectorAll('[part=live-region]')).to.have.length(1);
    expect(root.querySelectorAll('[data-step]')).to.have.length(1);
    expect(root.querySelector('[defer-hydration]')).to.equal(null);
    expect(el.hasAttribute('theme'), 'the default theme stays off the host').to.equal(false);

    const id = await toPush(el);
    await control(`/orders/${id}/approve`, {});
    await waitForStep(el, 'paid');
    expect(heading(el)).to.equal('¡Pago exitoso!');
    expect(await latestOrderId()).to.equal(id);
    const count = (name: string) => events.filter((e) => e.type === name).length;
    expect(count('pay-ready')).to.equal(1);
    expect(count('pay-order-created')).to.equal(1);
    expect(count('pay-paid')).to.equal(1);
    expect(count('pay-status-change')).to.equal(2);
    expect(count('pay-failed') + count('pay-cancelled') + count('pay-error')).to.equal(0);
    expect(errors).to.deep.equal([]);
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onError);
    container.remove();
  });

  it('a theme the page set survives hydration, and setting one later reflects it', async () => {
    const container = await serverRendered('<pay-checkout link="demo-fixed" api-base="/v1" theme="dark"></pay-checkout>');
    const el = container.querySelector('pay-checkout')!;
    await el.updateComplete;
    expect(el.getAttribute('theme')).to.equal('dark');
    expect(el.theme).to.equal('dark');
    el.theme = 'light';
    await el.updateComplete;
    expect(el.getAttribute('theme')).to.equal('light');
    el.removeAttribute('theme');
    await el.updateComplete;
    expect(el.theme, 'back to the default once the attribute goes').to.equal('auto');
    container.remove();
  });
});
