import type { FlowErrorCategory } from '../../flow/types.js';

export interface PayErrorDetail {
  /** The category: `network`, `service`, `invalid_response` or `config`. */
  kind: FlowErrorCategory;
  /** A plain-English description for logs; not shown to buyers. An unreadable answer names where it broke the contract. */
  message: string;
  /** The ErrorResponse `code`, when the service answered. */
  code?: number;
}

/** `pay-error`: A request failed in a way the buyer sees (network, service, configuration). Bubbles and crosses shadow roots. */
export type PayErrorEvent = CustomEvent<PayErrorDetail>;

export function payErrorEvent(detail: PayErrorDetail): PayErrorEvent {
  return new CustomEvent('pay-error', { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pay-error': PayErrorEvent;
  }
  /** It bubbles and is composed, so the page can listen on `document` too. */
  interface DocumentEventMap {
    'pay-error': PayErrorEvent;
  }
}
