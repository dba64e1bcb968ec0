import { summarizeProblems } from '../../contract/problems.js';
import type { FlowError, FlowErrorCategory } from '../../flow/types.js';

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

/** `pay-error`'s detail, with a plain-English line for listeners' logs. */
export function errorDetail(error: FlowError): PayErrorDetail {
  const detail: PayErrorDetail = { kind: error.category, message: errorText(error) };
  if (error.code !== undefined) detail.code = error.code;
  return detail;
}

function errorText(error: FlowError): string {
  switch (error.category) {
    case 'network':
      return 'The payment service could not be reached.';
    case 'invalid_response':
      // Where it broke, so a developer behind a proxy that rewrites answers sees what changed.
      return `The payment service sent a response that does not match the contract${error.problems ? `: ${summarizeProblems(error.problems)}` : ''}.`;
    case 'config':
      return 'The checkout is misconfigured (link, api-base) or hit a bug.';
    case 'service':
      return `The payment service refused the request${error.apiCode ? ` (${error.apiCode})` : ''}.`;
  }
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
