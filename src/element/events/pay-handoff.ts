export interface PayHandoffDetail {
  /** The card provider's page. */
  url: string;
}

/** Internal: the card step asks the host to send the buyer to the provider's page. */
export type PayHandoffEvent = CustomEvent<PayHandoffDetail>;

export function payHandoffEvent(url: string): PayHandoffEvent {
  return new CustomEvent('pay-handoff', { detail: { url }, bubbles: true, composed: false });
}

declare global {
  interface HTMLElementEventMap {
    'pay-handoff': PayHandoffEvent;
  }
}
