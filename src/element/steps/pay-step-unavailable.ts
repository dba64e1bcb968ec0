import { css, html, nothing } from 'lit';
import type { UnavailableState } from '../../flow/types.js';
import { spoken, withMoney } from '../internal/spoken.js';
import { StepElement } from './step-element.js';
import { storeHref } from '../internal/store-href.js';
import { sharedStyles } from './shared.styles.js';
import { stepStatusStyles } from './pay-step-status.styles.js';

/**
 * @internal A link that cannot be paid (not found, already paid, expired): the store and amount when the service
 * said them, and the way back to the store. Rare, so it arrives with the later steps, not in the first script.
 */
export class PayStepUnavailable extends StepElement<UnavailableState> {
  static override styles = [sharedStyles, stepStatusStyles, css`
    .link {
      display: grid;
      gap: 0.25rem;
      margin: 0;
    }
  `];

  static override properties = { storeUrl: { attribute: false } };

  /** The page's `store-url`, if any. */
  storeUrl: string | undefined;

  override render() {
    const m = this.messages;
    const s = this.state;
    const [title, body] =
      s.reason === 'paid'
        ? [m.link.paidTitle, m.link.paidBody]
        : s.reason === 'expired'
          ? [m.link.expiredTitle, m.link.expiredBody]
          : [m.link.notFoundTitle, m.link.notFoundBody];
    const link = s.link;
    // `store-url`, else the link's `redirect_link` (when the service sends one).
    const back = storeHref(this.storeUrl || link?.redirect_link, location.href);
    return html`<div class="center" part="unavailable" data-reason=${s.reason}>
      <h2 tabindex="-1" part="heading">${title}</h2>
      ${link
        ? html`<p class="link">
            <strong>${link.store_name}</strong>${link.description ? html`<span>${link.description}</span>` : nothing}${typeof link.amount === 'number'
              ? html`<span>${spoken(withMoney((money) => money(link.amount as number), link.currency, m))}</span>`
              : nothing}
          </p>`
        : nothing}
      <p class="muted">${body}</p>
      ${back
        ? html`<div class="actions"><a class="button" part="button store-link" href=${back}>${m.link.backToStore(link?.store_name ?? null)}</a></div>`
        : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-unavailable': PayStepUnavailable;
  }
}
