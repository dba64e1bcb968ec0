import type { CancelReason } from '../../contract/orders.js';

export interface PayCancelledDetail {
  id_order: number;
  /** Who cancelled: `buyer` or `merchant`; `refunded` for a refunded order. */
  reason: Extract<CancelReason, 'buyer' | 'merchant'> | 'refunded';
}

/** `pay-cancelled`: The order was cancelled by the buyer or the merchant, or refunded. Bubbles and crosses shadow roots. */
export type PayCancelledEvent = CustomEvent<PayCancelledDetail>;

export function payCancelledEvent(detail: PayCancelledDetail): PayCancelledEvent {
  return new CustomEvent('pay-cancelled', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-cancelled': PayCancelledEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-cancelled': PayCancelledEvent;
  }
}
