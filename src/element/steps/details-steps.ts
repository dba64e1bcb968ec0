import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { transition } from '../../flow/machine.js';
import type { DetailsState, FlowEvent, FlowState } from '../../flow/types.js';
import type { Messages } from '../../i18n/messages.js';
import type { DataConsent } from './data-consent.js';
import { PayStepDetails } from './pay-step-details.js';
import { prefillOf } from '../internal/prefill-of.js';
import type { PagePrefill } from '../internal/prefill-of.js';

/**
 * The details step and the flow up to submitting the order: a small lazy chunk of its own (no zod, no waiting
 * screens), so a method tapped the moment the first screen is ready opens its details without waiting for the later
 * steps' chunk. The later steps' chunk imports it, so nothing in it is fetched twice.
 */
export const detailsSteps = { 'pay-step-details': PayStepDetails } as const;

/** The whole flow, told what the page knows about the buyer (its prefill is checked as the details screen opens). */
export const transitionOnPage = (state: FlowState, event: FlowEvent, page: PagePrefill): FlowState => transition(state, event, prefillOf(page));

/** Parts of the later steps' elements, forwarded so `pay-checkout::part(button)` reaches into every screen. */
export const laterParts =
  'heading, button, button-secondary, pay-button, cancel-button, method, input, otp-input, error, error-summary, notice, countdown, qr, transfer-key, copy-button, card-link, result, receipt, loading, unavailable, change-method-button, store-link, print-button, consent, consent-checkbox, data-notice, privacy-link';

/** The details screen, as `<pay-checkout>` renders it. */
export function detailsStepTemplate(s: DetailsState, m: Messages, page: DataConsent): TemplateResult {
  return html`<pay-step-details data-step exportparts=${laterParts} .state=${s} .messages=${m} .page=${page}></pay-step-details>`;
}
