import type { CancelReason } from '../../contract/orders.js';

export interface PayFailedDetail {
  id_order: number;
  /** Why: `declined`, `expired` or `otp_attempts`. */
  reason: Extract<CancelReason, 'declined' | 'expired' | 'otp_attempts'>;
}

/** `pay-failed`: The payment did not go through: declined, expired, or too many wrong codes. Bubbles and crosses shadow roots. */
export type PayFailedEvent = CustomEvent<PayFailedDetail>;

export function payFailedEvent(detail: PayFailedDetail): PayFailedEvent {
  return new CustomEvent('pay-failed', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-failed': PayFailedEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-failed': PayFailedEvent;
  }
}
