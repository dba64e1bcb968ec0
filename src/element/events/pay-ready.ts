import type { CheckoutLink } from '../../contract/checkout.js';

export interface PayReadyDetail {
  /** The link as the buyer API returned it (store, amount, gateways). */
  link: CheckoutLink;
}

/**
 * `pay-ready`: The link loaded and its first screen is on show and answers at once (a method tapped now opens its
 * details in the next frame). Bubbles and crosses shadow roots.
 */
export type PayReadyEvent = CustomEvent<PayReadyDetail>;

export function payReadyEvent(detail: PayReadyDetail): PayReadyEvent {
  return new CustomEvent('pay-ready', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-ready': PayReadyEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-ready': PayReadyEvent;
  }
}
