import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { FlowState } from '../../flow/types.js';
import { isWholeCatalog } from '../../i18n/messages.js';
import type { FirstMessages, Messages } from '../../i18n/messages.js';
import type { LaterPage } from './later-steps.js';
import type { PagePrefill } from '../internal/prefill-of.js';
import type { DetailsSteps, LaterSteps } from './steps.js';

/**
 * Parts of the first screens' step elements (loading, error, amount, method), forwarded so `pay-checkout::part(button)`
 * reaches into them; the later steps forward theirs (later-steps.ts).
 */
const stepParts = 'heading, button, button-secondary, method, input, error, loading';

/** What the screens are drawn with: the strings at hand and the chunks of steps here so far. */
export interface Drawing {
  readonly messages: FirstMessages | Messages;
  readonly details: DetailsSteps | undefined;
  readonly later: LaterSteps | undefined;
}

/** The page's settings the screens read: `amounts`, the buyer's prefill, `store-url`, `privacy-url`, `consent`. */
export type ScreenPage = LaterPage & PagePrefill & { amounts: string | undefined };

/**
 * The screen of the state on show (screen-policy.ts's `shownState`), drawn by the chunk that holds its step;
 * `remainingMs` is the waiting steps' countdown.
 */
export function stepTemplate(s: FlowState, d: Drawing, remainingMs: number | null, page: ScreenPage): TemplateResult {
  const m = d.messages;
  switch (s.step) {
    case 'loading':
    case 'error':
      return html`<pay-step-status data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-status>`;
    case 'amount':
      return html`<pay-step-amount data-step exportparts=${stepParts} .state=${s} .messages=${m} .presets=${page.amounts}></pay-step-amount>`;
    case 'method':
      return html`<pay-step-method data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-method>`;
  }
  // `shownState` keeps the later steps on loading until the whole catalog and their chunk are here.
  const { later, details } = d;
  if (!later && s.step === 'details' && details && isWholeCatalog(m)) return details.detailsStepTemplate(s, m, page);
  if (!later || !isWholeCatalog(m)) return stepTemplate({ step: 'loading', request: null }, d, null, page);
  return later.laterStepTemplate(s, m, remainingMs, page);
}
