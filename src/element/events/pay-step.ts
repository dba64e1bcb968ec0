import type { FlowEvent } from '../../flow/types.js';

export interface PayStepDetail {
  /** What the buyer did, as a flow event; the host hands it to `transition()`. */
  event: FlowEvent;
}

/** Internal: how a step element reports up to `<pay-checkout>`. Does not leave the host's shadow root. */
export type PayStepEvent = CustomEvent<PayStepDetail>;

export function payStepEvent(event: FlowEvent): PayStepEvent {
  return new CustomEvent('pay-step', { detail: { event }, bubbles: true, composed: false });
}

declare global {
  interface HTMLElementEventMap {
    'pay-step': PayStepEvent;
  }
}
