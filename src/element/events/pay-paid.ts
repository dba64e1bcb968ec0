import type { CheckoutOrder } from '../../contract/checkout.js';

export interface PayPaidDetail {
  id_order: number;
  amount: number;
  currency: string;
  gateway: CheckoutOrder['gateway'];
}

/** `pay-paid`: The order is confirmed: the buyer paid. Bubbles and crosses shadow roots. */
export type PayPaidEvent = CustomEvent<PayPaidDetail>;

export function payPaidEvent(detail: PayPaidDetail): PayPaidEvent {
  return new CustomEvent('pay-paid', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-paid': PayPaidEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-paid': PayPaidEvent;
  }
}
