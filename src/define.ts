/** Registers `<pay-checkout>`. Safe to load twice (two bundles, a script tag and an import). */
import { PayCheckout } from './element/pay-checkout.js';

if (!customElements.get('pay-checkout')) customElements.define('pay-checkout', PayCheckout);

export { PayCheckout };

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
