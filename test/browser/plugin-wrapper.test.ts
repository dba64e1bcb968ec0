// The plugin-author example: <pay-checkout> inside another element's shadow root (examples/plugin-wrapper.ts)
// gets the panel's attributes, renders there, and its composed events reach the outer document.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { control, latestOrderId, resetSandbox, toPush, waitForStep } from './support/checkout.js';
import { ShopPayPanel } from '../../examples/plugin-wrapper.js';
import type { PayPaidEvent } from '../../src/index.js';

describe('plugin example: <shop-pay-panel> wrapping <pay-checkout>', () => {
  beforeEach(resetSandbox);

  it('renders the checkout inside its shadow root with the forwarded attributes', async () => {
    const panel = await fixture<ShopPayPanel>(html`<shop-pay-panel link="demo-fixed" api-base="/v1" locale="es"></shop-pay-panel>`);
    expect(panel).to.be.instanceOf(ShopPayPanel);
    const checkout = panel.shadowRoot?.querySelector('pay-checkout');
    expect(checkout, 'pay-checkout in the panel’s shadow root').to.equal(panel.checkout);
    expect(document.querySelector('pay-checkout'), 'not in the light DOM').to.equal(null);
    expect(panel.checkout.link).to.equal('demo-fixed');
    expect(panel.checkout.getAttribute('api-base')).to.equal('/v1');
    await waitForStep(panel.checkout, 'method');
    expect(panel.checkout.shadowRoot?.textContent).to.include('Tienda Demo');
    await expect(panel).to.be.accessible();

    panel.setAttribute('locale', 'en');
    expect(panel.checkout.getAttribute('locale')).to.equal('en');
    panel.removeAttribute('locale');
    expect(panel.checkout.hasAttribute('locale')).to.equal(false);
  });

  it('lets pay-paid cross the shadow boundary to the outer document, retargeted to the panel', async () => {
    const panel = await fixture<ShopPayPanel>(html`<shop-pay-panel link="demo-fixed" api-base="/v1" locale="es"></shop-pay-panel>`);
    await toPush(panel.checkout);
    const id = await latestOrderId();
    // composedPath() is only readable during dispatch: keep it from the document's own listener.
    const paidAtDocument = new Promise<{ event: PayPaidEvent; path: EventTarget[] }>((resolve) =>
      document.addEventListener('pay-paid', (event) => resolve({ event: event as PayPaidEvent, path: event.composedPath() }), { once: true }),
    );
    await control(`/orders/${id}/approve`, {});
    const { event, path } = await paidAtDocument;
    expect(event.target, 'retargeted to the host the page can see').to.equal(panel);
    expect(path[0], 'dispatched by the inner checkout').to.equal(panel.checkout);
    expect(path).to.include(panel.shadowRoot);
    expect(event.detail.id_order).to.equal(id);
    expect(event.detail.amount).to.equal(50_000);
    // The plugin reacted inside its own shadow root too.
    const status = panel.shadowRoot?.querySelector('[role="status"]');
    await waitUntil(() => (status?.textContent ?? '').includes(String(id)), 'the panel shows the paid order');
    expect(status?.textContent).to.include('pagado');
  });
});
