import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { FlowState } from '../../flow/types.js';
import type { Messages } from '../../i18n/messages.js';
import { PayStepCard } from './pay-step-card.js';
import { PayStepDetails } from './pay-step-details.js';
import { PayStepOtp } from './pay-step-otp.js';
import { PayStepProcessing } from './pay-step-processing.js';
import { PayStepReceipt } from './pay-step-receipt.js';
import { PayStepPush } from './pay-step-push.js';
import { PayStepResult } from './pay-step-result.js';
import { PayStepTransfer } from './pay-step-transfer.js';
import { PayStepUnavailable } from './pay-step-unavailable.js';
import type { DataConsent } from './data-consent.js';

import { transition } from '../../flow/machine.js';
import type { FlowEvent } from '../../flow/types.js';
import { prefillOf } from './prefill-of.js';
import type { PagePrefill } from './prefill-of.js';
export { OrderTracker } from './order-tracker.js';
export { resumeSaved, returnedFromCard } from './resume-order.js';

/**
 * The steps after the first screen, the whole flow and the order tracker: one lazy chunk (see `loadLaterSteps`),
 * fetched while the link loads, so it is there before the buyer leaves the first screen.
 */
export const laterSteps = {
  'pay-step-details': PayStepDetails,
  'pay-step-push': PayStepPush,
  'pay-step-otp': PayStepOtp,
  'pay-step-transfer': PayStepTransfer,
  'pay-step-card': PayStepCard,
  'pay-step-processing': PayStepProcessing,
  'pay-step-result': PayStepResult,
  'pay-step-receipt': PayStepReceipt,
  'pay-step-unavailable': PayStepUnavailable,
} as const;

export { transition };

/** The whole flow, told what the page knows about the buyer (its prefill is checked as the details screen opens). */
export const transitionOnPage = (state: FlowState, event: FlowEvent, page: PagePrefill): FlowState => transition(state, event, prefillOf(page));

/** A step after the first screens. */
export type LaterState = Exclude<FlowState, { step: 'loading' | 'error' | 'amount' | 'method' }>;

/** Parts of the later steps' elements, forwarded so `pay-checkout::part(button)` reaches into every screen. */
const parts =
  'heading, button, button-secondary, pay-button, cancel-button, method, input, otp-input, error, error-summary, notice, countdown, qr, transfer-key, copy-button, card-link, result, receipt, loading, unavailable, change-method-button, store-link, print-button, consent, consent-checkbox, data-notice, privacy-link';

/** What the later steps read from `<pay-checkout>`: `store-url`, `privacy-url`, `consent`. */
export interface LaterPage extends DataConsent {
  storeUrl?: string | undefined;
}

/** The element of a later step, as `<pay-checkout>` renders it. */
export function laterStepTemplate(s: LaterState, m: Messages, remainingMs: number | null, page: LaterPage): TemplateResult {
  const storeUrl = page.storeUrl;
  switch (s.step) {
    case 'unavailable':
      return html`<pay-step-unavailable data-step exportparts=${parts} .state=${s} .messages=${m} .storeUrl=${storeUrl}></pay-step-unavailable>`;
    case 'details':
      return html`<pay-step-details data-step exportparts=${parts} .state=${s} .messages=${m} .page=${page}></pay-step-details>`;
    case 'processing':
    case 'resuming':
      return html`<pay-step-processing data-step exportparts=${parts} .state=${s} .messages=${m}></pay-step-processing>`;
    case 'push':
      return html`<pay-step-push data-step exportparts=${parts} .state=${s} .messages=${m} .remainingMs=${remainingMs}></pay-step-push>`;
    case 'otp':
      return html`<pay-step-otp data-step exportparts=${parts} .state=${s} .messages=${m} .remainingMs=${remainingMs}></pay-step-otp>`;
    case 'transfer':
      return html`<pay-step-transfer data-step exportparts=${parts} .state=${s} .messages=${m} .remainingMs=${remainingMs}></pay-step-transfer>`;
    case 'redirect':
      return html`<pay-step-card data-step exportparts=${parts} .state=${s} .messages=${m}></pay-step-card>`;
    case 'paid':
      return html`<pay-step-receipt data-step exportparts=${parts} .state=${s} .messages=${m} .storeUrl=${storeUrl}></pay-step-receipt>`;
    case 'declined':
    case 'cancelled':
    case 'expired':
      return html`<pay-step-result data-step exportparts=${parts} .state=${s} .messages=${m}></pay-step-result>`;
  }
}
