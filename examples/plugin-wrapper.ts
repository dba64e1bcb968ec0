/**
 * An example plugin: `<shop-pay-panel>` (a shop platform's own element) wraps `<pay-checkout>` in its shadow root,
 * forwards its attributes to it, and reacts to `pay-paid`. The checkout's events are `composed`, so the page
 * outside both shadow roots hears them too, retargeted to the panel.
 */
// In a plugin of your own: `import 'pay-checkout/define';` and `import type { … } from 'pay-checkout';`.
import '../src/define.js';
import type { PayCheckout, PayPaidEvent } from '../src/index.js';

/** The checkout's attributes a shop sets on the panel; anything else stays the panel's own. */
export const forwardedAttributes = ['link', 'api-base', 'environment', 'locale', 'return-url', 'theme'] as const;

// A constructable stylesheet: no <style> element, so a strict CSP (style-src 'self') allows it.
const panelStyles = new CSSStyleSheet();
panelStyles.replaceSync(`
  :host { display: block; max-width: 28rem; font-family: system-ui, sans-serif; }
  h2 { font-size: 1rem; margin: 0 0 0.75rem; }
  [role='status']:empty { display: none; }
  [role='status'] { margin: 0.75rem 0 0; padding: 0.75rem; border-radius: 0.5rem; background: #dcfce7; color: #14532d; }
`);

export class ShopPayPanel extends HTMLElement {
  static observedAttributes = [...forwardedAttributes, 'heading'];

  readonly checkout: PayCheckout;
  readonly #heading: HTMLHeadingElement;
  readonly #status: HTMLParagraphElement;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [panelStyles];
    this.#heading = document.createElement('h2');
    this.#heading.textContent = 'Paga tu pedido';
    this.checkout = document.createElement('pay-checkout');
    // The shop's page can still style the checkout's parts through the panel: `shop-pay-panel::part(button)`.
    this.checkout.setAttribute('exportparts', 'button, amount, base');
    this.#status = document.createElement('p');
    this.#status.setAttribute('role', 'status');
    root.append(this.#heading, this.checkout, this.#status);
    this.checkout.addEventListener('pay-paid', (event) => this.#paid(event));
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name === 'heading') {
      this.#heading.textContent = value ?? 'Paga tu pedido';
    } else if (value === null) {
      this.checkout.removeAttribute(name);
    } else {
      this.checkout.setAttribute(name, value);
    }
  }

  /** The plugin's own reaction: a thank-you line inside the panel (the shop's server confirms by webhook). */
  #paid(event: PayPaidEvent): void {
    this.#status.textContent = `Pedido #${event.detail.id_order} pagado. ¡Gracias por tu compra!`;
  }
}

if (!customElements.get('shop-pay-panel')) customElements.define('shop-pay-panel', ShopPayPanel);

declare global {
  interface HTMLElementTagNameMap {
    'shop-pay-panel': ShopPayPanel;
  }
}

/** The example page (plugin-wrapper.html): log every checkout event as the outer document receives it. */
const log = document.getElementById('event-log');
if (log) {
  for (const name of ['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-paid', 'pay-failed', 'pay-cancelled', 'pay-error']) {
    document.addEventListener(name, (event) => {
      const line = document.createElement('li');
      const target = event.target instanceof Element ? `<${event.target.localName}>` : 'document';
      line.textContent = `${name} at ${target}: ${JSON.stringify((event as CustomEvent).detail)}`.slice(0, 300);
      log.prepend(line);
    });
  }
}
