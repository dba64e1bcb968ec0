import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { isSafeRedirectUrl } from '../../contract/redirect-url.js';
import type { PropertyValues } from 'lit';
import type { RedirectState } from '../../flow/types.js';
import { WaitingStep, noticeTemplate } from './waiting-parts.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepCardStyles } from './pay-step-card.styles.js';
import { payHandoffEvent } from '../events/pay-handoff.js';

/** @internal Card: hand the buyer to the provider's page; once back, wait for the outcome. */
export class PayStepCard extends WaitingStep<RedirectState> {
  static override styles = [sharedStyles, laterStyles, stepCardStyles];

  override render() {
    const m = this.messages;
    const s = this.state;
    const actions = this.waitingActions();
    // No href for a URL the element will not follow, so even a new-tab click cannot run it; a plain click reports it.
    const href = isSafeRedirectUrl(s.action.url) ? s.action.url : undefined;
    if (s.returning) {
      // Back without paying must never trap the buyer: once the check is in, say so and offer every way out.
      const checking = s.request?.kind === 'check_status';
      return html`
        <h2 tabindex="-1" part="heading">${m.card.title}</h2>
        ${checking
          ? html`<div class="waiting"><div class="spinner" aria-hidden="true"></div><p>${m.card.returning}</p></div>`
          : html`<p>${m.card.notYet}</p>`}
        ${noticeTemplate(m, s.notice, () => this.send({ type: 'retry' }))}
        <div class="actions">
          <a class="button secondary" part="button-secondary" href=${ifDefined(href)} @click=${this.#go}>${m.card.goBack}</a>
          ${actions}
        </div>
      `;
    }
    return html`
      <h2 tabindex="-1" part="heading">${m.card.title}</h2>
      <p>${m.card.instructions}</p>
      <div class="actions">
        <a class="button go" part="button card-link" href=${ifDefined(href)} @click=${this.#go}>${m.card.go}</a>
      </div>
      ${s.notice ? noticeTemplate(m, s.notice, () => this.send({ type: 'retry' })) : nothing}
      <div class="actions">${actions}</div>
    `;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // Back unpaid: focus is on the heading; the news under it is said once, when the check is in.
    const checking = (s: RedirectState | undefined) => s?.returning === true && s.request?.kind === 'check_status';
    const before = changed.get('state') as RedirectState | undefined;
    if (changed.has('state') && this.state.returning && !checking(this.state) && (checking(before) || !before?.returning)) this.announce(this.messages.card.notYet);
  }

  #go = (e: MouseEvent) => {
    // A modified click (new tab) is the buyer's choice; a plain one goes through the host, which notes the hand-off.
    const url = this.state.action.url;
    if (isSafeRedirectUrl(url) && (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0)) return;
    e.preventDefault();
    this.dispatchEvent(payHandoffEvent(url));
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-card': PayStepCard;
  }
}
