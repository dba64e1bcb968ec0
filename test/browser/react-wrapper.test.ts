// pay-checkout/react (src/react.ts): React renders <pay-checkout> with its props, and the element's events
// arrive as React props (onPayReady…) against the sandbox's demo-fixed link.
import { expect, waitUntil } from '@open-wc/testing';
// React is CommonJS: default imports are what every loader (and web-test-runner's CommonJS bridge) provides.
import React, { type ReactNode } from 'react';
// @ts-expect-error react-dom ships no types and @types/react-dom is not installed; the shape used is typed below
import ReactDOMClient from 'react-dom/client';
// @ts-expect-error as above
import ReactDOM from 'react-dom';
import { PayCheckout } from '../../src/react.js';
import type { PayReadyEvent } from '../../src/index.js';
import { resetSandbox } from './support/checkout.js';

interface Root {
  render(node: ReactNode): void;
  unmount(): void;
}
const { createRoot } = ReactDOMClient as { createRoot: (container: Element) => Root };
const { flushSync } = ReactDOM as { flushSync: (fn: () => void) => void };
const { createElement } = React;

describe('pay-checkout/react', () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(async () => {
    await resetSandbox();
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    root.unmount();
    container.remove();
  });

  it('renders <pay-checkout> with its props and fires onPayReady with the link', async () => {
    const ready: PayReadyEvent[] = [];
    flushSync(() =>
      root.render(
        createElement(PayCheckout, {
          link: 'demo-fixed',
          apiBase: '/v1',
          locale: 'es',
          id: 'checkout',
          className: 'shop-checkout',
          onPayReady: (event: PayReadyEvent) => ready.push(event),
        }),
      ),
    );
    const element = container.querySelector('pay-checkout');
    expect(element, 'the element is in the DOM').to.be.instanceOf(HTMLElement);
    expect(element?.id).to.equal('checkout');
    expect(element?.getAttribute('class')).to.equal('shop-checkout');
    expect(element?.link).to.equal('demo-fixed');
    expect(element?.apiBase).to.equal('/v1');
    await waitUntil(() => ready.length > 0, 'onPayReady never fired', { timeout: 5000 });
    expect(ready).to.have.length(1);
    expect(ready[0]?.detail.link.hash).to.equal('demo-fixed');
    expect(ready[0]?.detail.link.amount).to.equal(50_000);
    await expect(element).to.be.accessible();
  });

  it('swaps handlers on re-render: only the current one hears the next event', async () => {
    const first: Event[] = [];
    const second: Event[] = [];
    const props = { link: 'demo-fixed', apiBase: '/v1', locale: 'es' };
    flushSync(() => root.render(createElement(PayCheckout, { ...props, onPayReady: (event: Event) => first.push(event) })));
    await waitUntil(() => first.length === 1, 'first onPayReady', { timeout: 5000 });
    flushSync(() => root.render(createElement(PayCheckout, { ...props, onPayReady: (event: Event) => second.push(event) })));
    const element = container.querySelector('pay-checkout');
    // A synthetic pay-ready through the real element: only the current handler hears it.
    element?.dispatchEvent(new CustomEvent('pay-ready', { detail: { link: { hash: 'demo-fixed' } }, bubbles: true, composed: true }));
    expect(first).to.have.length(1);
    expect(second).to.have.length(1);
  });
});
