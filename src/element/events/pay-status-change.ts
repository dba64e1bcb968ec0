import type { OrderStatus } from '../../contract/orders.js';

export interface PayStatusChangeDetail {
  id_order: number;
  status: OrderStatus;
  /** The status before; null for the first one seen. */
  previous: OrderStatus | null;
}

/** `pay-status-change`: The order's status changed, as the service reported it. Bubbles and crosses shadow roots. */
export type PayStatusChangeEvent = CustomEvent<PayStatusChangeDetail>;

export function payStatusChangeEvent(detail: PayStatusChangeDetail): PayStatusChangeEvent {
  return new CustomEvent('pay-status-change', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-status-change': PayStatusChangeEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-status-change': PayStatusChangeEvent;
  }
}
