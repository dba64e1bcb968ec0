// pay-checkout/react server-rendered, then hydrated, as Next.js and React Router do: the server's HTML is on the page
// and the tag is defined before React hydrates. The element waits (`defer-hydration`) until the wrapper has set its
// props and listeners, so it neither starts without its link nor fires an event nobody hears; then a Nequi payment
// reaches every onPay… prop, with no hydration warning.
import { expect } from '@open-wc/testing';
// React is CommonJS: default imports are what every loader (and web-test-runner's CommonJS bridge) provides.
import React from 'react';
// @ts-expect-error react-dom ships no types and @types/react-dom is not installed; the shape used is typed below
import ReactDOMClient from 'react-dom/client';
// @ts-expect-error as above
import ReactDOMServer from 'react-dom/server.browser';
import { PayCheckout } from '../../src/react.js';
import type { PayCheckoutElement } from '../../src/react.js';
import { control, heading, resetSandbox, toPush, waitForStep } from './support/checkout.js';

const { hydrateRoot } = ReactDOMClient as { hydrateRoot: (container: Element, node: React.ReactNode) => { unmount(): void } };
const { renderToString } = ReactDOMServer as { renderToString: (node: React.ReactNode) => string };
const { createElement } = React;

describe('pay-checkout/react, server-rendered then hydrated', () => {
  beforeEach(resetSandbox);

  it('waits for hydration, then pays with every event reaching its prop and no hydration warning', async () => {
    const events: string[] = [];
    const seen = (name: string) => () => events.push(name);
    const app = () =>
      createElement(PayCheckout, {
        link: 'demo-fixed',
        apiBase: '/v1',
        locale: 'es',
        onPayReady: seen('pay-ready'),
        onPayOrderCreated: seen('pay-order-created'),
        onPayStatusChange: seen('pay-status-change'),
        onPayPaid: seen('pay-paid'),
        onPayFailed: seen('pay-failed'),
        onPayCancelled: seen('pay-cancelled'),
        onPayError: seen('pay-error'),
      });
    const html = renderToString(app());
    expect(html).to.match(/^<pay-checkout defer-hydration="">/);
    expect(html).not.to.include('theme=');

    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = html;
    const el = container.querySelector('pay-checkout') as PayCheckoutElement;
    // Defined already: upgraded, but waiting for React (no error for the missing link, no request).
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(el.step).to.equal('loading');
    expect(el.link).to.equal('');

    const complaints: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => complaints.push(args.map(String).join(' '));
    let root: { unmount(): void } | undefined;
    try {
      root = hydrateRoot(container, app());
      await waitForStep(el, 'method');
      expect(el.hasAttribute('defer-hydration')).to.equal(false);
      expect(el.hasAttribute('theme'), 'the default theme is not written onto the host').to.equal(false);
      expect(container.querySelectorAll('pay-checkout')).to.have.length(1);
      const id = await toPush(el);
      await control(`/orders/${id}/approve`, {});
      await waitForStep(el, 'paid');
      expect(heading(el)).to.equal('¡Pago exitoso!');
      expect(events).to.deep.equal(['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-status-change', 'pay-paid']);
      expect(complaints, 'React said nothing about hydration').to.deep.equal([]);
    } finally {
      console.error = consoleError;
      root?.unmount();
      container.remove();
    }
  });
});
