import { html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { Messages } from '../../i18n/messages.js';
import type { FlowEvent, MessageKey, WaitingState } from '../../flow/types.js';
import { formatCountdown } from '../../i18n/format.js';
import { StepElement } from './step-element.js';
import { spoken } from '../internal/spoken.js';

/**
 * @internal Base of the waiting screens (push, SMS code, transfer, card). Its passing notice ("we could not check the
 * status…") appears without focus moving, so the host's live region says it once when it appears; and every one offers
 * the same ways out (`waitingActions`).
 */
export abstract class WaitingStep<S extends WaitingState> extends StepElement<S> {
  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('state')) return;
    const previous = changed.get('state') as S | undefined;
    const notice = this.state.notice;
    if (notice && notice !== previous?.notice) this.announce(this.messages.rules[notice]({}));
  }

  /** Another method, or cancel (see `waitingActions`); `busy` defaults to a cancel under way. */
  protected waitingActions(busy: boolean = this.state.cancelling): TemplateResult {
    return waitingActions(this.messages, this.state, busy, (e) => this.send(e));
  }
}

/**
 * The visible countdown. `role="timer"` is not live, so it is never read every
 * second; the host's live region speaks the milestones instead.
 */
export function countdownTemplate(m: Messages, remainingMs: number | null): TemplateResult | typeof nothing {
  if (remainingMs === null) return nothing;
  // "14:59" would be read as a clock time: said as minutes and seconds.
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  return html`<p class="countdown" part="countdown" role="timer" aria-atomic="true">
    ${m.countdown.label}: <strong>${spoken([formatCountdown(remainingMs), m.countdown.spoken(Math.floor(total / 60), total % 60)])}</strong>
  </p>`;
}

/**
 * What every waiting screen offers: another method, or cancel. Both cancel the order on the service first; the flow
 * then shows the receipt if the service says it was already paid. `aria-disabled`, not `disabled`, while busy: focus
 * stays on the button pressed (a disabled one drops it to <body>), and the flow ignores a second press.
 */
function waitingActions(m: Messages, s: WaitingState, busy: boolean, send: (event: FlowEvent) => void): TemplateResult {
  const disabled = busy ? 'true' : 'false';
  return html`<button type="button" class="secondary" part="button-secondary change-method-button" aria-disabled=${disabled} @click=${() => send({ type: 'change_method' })}>
      ${s.cancelling && s.after?.kind === 'change_method' ? m.cancelling : m.details.changeMethod}
    </button>
    <button type="button" class="secondary" part="button-secondary cancel-button" aria-disabled=${disabled} @click=${() => send({ type: 'cancel_requested' })}>
      ${s.cancelling && s.after?.kind !== 'change_method' ? m.cancelling : m.cancel}
    </button>`;
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
