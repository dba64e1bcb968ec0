export interface PayAnnounceDetail {
  message: string;
}

/** Internal: a step asks the host's one live region to say something (e.g. "Copiado"). */
export type PayAnnounceEvent = CustomEvent<PayAnnounceDetail>;

export function payAnnounceEvent(message: string): PayAnnounceEvent {
  return new CustomEvent('pay-announce', { detail: { message }, bubbles: true, composed: false });
}

declare global {
  interface HTMLElementEventMap {
    'pay-announce': PayAnnounceEvent;
  }
}
