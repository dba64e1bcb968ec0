import type { CheckoutOrder } from '../../contract/checkout.js';

export interface PayOrderCreatedDetail {
  id_order: number;
  /** The payment method the buyer chose. */
  gateway: CheckoutOrder['gateway'];
}

/** `pay-order-created`: The service created the order (once per order). Bubbles and crosses shadow roots. */
export type PayOrderCreatedEvent = CustomEvent<PayOrderCreatedDetail>;

export function payOrderCreatedEvent(detail: PayOrderCreatedDetail): PayOrderCreatedEvent {
  return new CustomEvent('pay-order-created', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-order-created': PayOrderCreatedEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-order-created': PayOrderCreatedEvent;
  }
}
