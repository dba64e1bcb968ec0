import { html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { Messages } from '../../i18n/messages.js';
import type { MessageKey } from '../../flow/types.js';
import { formatCountdown } from '../../i18n/format.js';
import { StepElement } from './step-element.js';

/**
 * @internal A waiting screen (push, SMS code, transfer, card): its passing notice ("we could not check the status…")
 * appears without focus moving, so the host's live region says it once when it appears.
 */
export abstract class WaitingStep<S extends { notice: MessageKey | null }> extends StepElement<S> {
  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('state')) return;
    const previous = changed.get('state') as S | undefined;
    const notice = this.state.notice;
    if (notice && notice !== previous?.notice) this.announce(this.messages.rules[notice]({}));
  }
}

/**
 * The visible countdown. `role="timer"` is not live, so it is never read every
 * second; the host's live region speaks the milestones instead.
 */
export function countdownTemplate(m: Messages, remainingMs: number | null): TemplateResult | typeof nothing {
  if (remainingMs === null) return nothing;
  return html`<p class="countdown" part="countdown" role="timer" aria-atomic="true">
    ${m.countdown.label}: <strong>${formatCountdown(remainingMs)}</strong>
  </p>`;
}

/** A passing notice on a waiting screen, with "check again" when a status check failed. */
export function noticeTemplate(m: Messages, notice: MessageKey | null, retry: () => void): TemplateResult | typeof nothing {
  if (!notice) return nothing;
  return html`<div class="notice" part="notice">
    <p>${m.rules[notice]({})}</p>
    ${notice === 'notice.status_check_failed'
      ? html`<button type="button" class="secondary" part="button-secondary" @click=${retry}>${m.error.retry}</button>`
      : nothing}
  </div>`;
}
