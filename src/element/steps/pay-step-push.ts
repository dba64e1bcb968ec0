import { html } from 'lit';
import { spoken } from '../internal/spoken.js';
import type { PushState } from '../../flow/types.js';
import { WaitingStep, countdownTemplate, noticeTemplate } from './waiting-parts.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepPushStyles } from './pay-step-push.styles.js';

/** @internal Push approval: what to do on the phone, the masked phone, a countdown, cancel, change number. */
export class PayStepPush extends WaitingStep<PushState> {
  static override styles = [sharedStyles, laterStyles, stepPushStyles];

  static override properties = { remainingMs: { attribute: false } };

  /** Milliseconds left, from the host's countdown. */
  remainingMs: number | null = null;

  override render() {
    const m = this.messages;
    const s = this.state;
    return html`
      <h2 tabindex="-1" part="heading">${m.push.title(s.order.gateway.name)}</h2>
      <p class="phone">${spoken(this.#sentTo())}</p>
      <ol class="steps">
        ${m.push.steps(s.order.gateway.name).map((line) => html`<li>${line}</li>`)}
      </ol>
      <div class="waiting"><div class="spinner" aria-hidden="true"></div><span>${m.waiting}</span></div>
      ${countdownTemplate(m, this.remainingMs)} ${noticeTemplate(m, s.notice, () => this.send({ type: 'retry' }))}
      <div class="actions">
        <button type="button" class="secondary" part="button-secondary" aria-disabled=${s.cancelling ? 'true' : 'false'} @click=${() => this.send({ type: 'change_number' })}>
          ${m.push.changeNumber}
        </button>
        ${this.waitingActions()}
      </div>
    `;
  }

  /** "******4567" on screen, "terminado en 4567" said: a masked phone is heard by its last digits. */
  #sentTo(): readonly [string, string] {
    const m = this.messages;
    const hint = this.state.action.phone_hint;
    const ending = /^[*•xX\s-]+(\d{2,})$/.exec(hint)?.[1];
    return [m.push.sentTo(hint), m.push.sentTo(ending ? m.push.phoneEnding(ending) : hint)];
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-push': PayStepPush;
  }
}
