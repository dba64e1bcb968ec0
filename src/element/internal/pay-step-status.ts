import { html, nothing } from 'lit';
import type { ErrorState, LoadingState, UnavailableState } from '../../flow/types.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { formatMoney } from '../../i18n/format-money.js';
import type { FirstMessages } from '../../i18n/messages.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { stepStatusStyles } from './pay-step-status.styles.js';

export type StatusScreenState = LoadingState | UnavailableState | ErrorState;

/**
 * @internal Loading, link unavailable (not found, already paid, expired), and the error
 * screen with "try again". "Processing" is `pay-step-processing`, with the later steps.
 */
export class PayStepStatus extends StepElement<StatusScreenState, FirstMessages> {
  static override styles = [sharedStyles, stepStatusStyles];

  static override properties = { storeUrl: { attribute: false } };

  /** The bundled first screens' strings are enough here. */
  declare messages: FirstMessages;

  /** The page's `store-url`, if any: a link that cannot be paid offers the way back to the store. */
  storeUrl: string | undefined;

  override render() {
    const m = this.messages;
    const s = this.state;
    switch (s.step) {
      case 'loading':
        return html`<div class="center" part="loading">
          <div class="spinner" aria-hidden="true"></div>
          <h2 tabindex="-1" part="heading">${m.loading}</h2>
        </div>`;
      case 'unavailable': {
        const [title, body] =
          s.reason === 'paid'
            ? [m.link.paidTitle, m.link.paidBody]
            : s.reason === 'expired'
              ? [m.link.expiredTitle, m.link.expiredBody]
              : [m.link.notFoundTitle, m.link.notFoundBody];
        const link = s.link;
        const back = storeLink(this.storeUrl, link);
        return html`<div class="center" part="unavailable" data-reason=${s.reason}>
          <h2 tabindex="-1" part="heading">${title}</h2>
          ${link
            ? html`<p class="link">
                <strong>${link.store_name}</strong>${link.description ? html`<span>${link.description}</span>` : nothing}${typeof link.amount === 'number'
                  ? html`<span>${formatMoney(link.amount, link.currency, m.locale)}</span>`
                  : nothing}
              </p>`
            : nothing}
          <p class="muted">${body}</p>
          ${back
            ? html`<div class="actions"><a class="button" part="button store-link" href=${back}>${m.link.backToStore(link?.store_name ?? null)}</a></div>`
            : nothing}
        </div>`;
      }
      case 'error':
        return html`<div class="center" part="error">
          <h2 tabindex="-1" part="heading">${m.error.title}</h2>
          <p>${m.rules[s.message]({})}</p>
          <div class="actions">
            ${s.retry
              ? html`<button type="button" part="button" @click=${() => this.send({ type: 'retry' })}>${m.error.retry}</button>`
              : nothing}
            ${s.resume.step !== 'loading'
              ? html`<button type="button" class="secondary" part="button-secondary" @click=${() => this.send({ type: 'back' })}>
                  ${m.back}
                </button>`
              : nothing}
          </div>
        </div>`;
    }
  }
}

/** `store-url`, else the link's `redirect_link` (when the service sends one); only an http(s) address is offered. */
function storeLink(storeUrl: string | undefined, link: CheckoutLink | null): string | null {
  const given = storeUrl || (link as { redirect_link?: unknown } | null)?.redirect_link;
  if (typeof given !== 'string' || given === '') return null;
  try {
    const url = new URL(given, location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-status': PayStepStatus;
  }
}
