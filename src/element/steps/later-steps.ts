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
import { detailsStepTemplate, laterParts as parts } from './details-steps.js';
export { transitionOnPage } from './details-steps.js';
export { OrderTracker } from '../order/order-tracker.js';
export { resumeRun, returnedFromCard } from '../order/resume-order.js';

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

/** A step after the first screens. */
export type LaterState = Exclude<FlowState, { step: 'loading' | 'error' | 'amount' | 'method' }>;

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
      return detailsStepTemplate(s, m, page);
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
