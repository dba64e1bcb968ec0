import { html } from 'lit';
import type { ResultState } from '../../flow/types.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepResultStyles } from './pay-step-result.styles.js';

/** @internal The outcome without a payment: declined, cancelled or expired, with the next action (the receipt is its own step). */
export class PayStepResult extends StepElement<Exclude<ResultState, { step: 'paid' }>> {
  static override styles = [sharedStyles, laterStyles, stepResultStyles];

  override render() {
    const m = this.messages;
    const s = this.state;
    const [title, body, action] =
      s.step === 'declined'
        ? [m.result.declinedTitle, m.result.declinedBody, m.result.tryAgain]
        : s.step === 'expired'
          ? [m.result.expiredTitle, m.result.expiredBody, m.result.newAttempt]
          : [
              m.result.cancelledTitle,
              s.order.cancel_reason === 'otp_attempts' ? m.result.otpAttemptsBody : m.result.cancelledBody,
              m.result.tryAgain,
            ];
    return html`<div class=${s.step} part="result" data-result=${s.step}>
      <div class="badge" aria-hidden="true">!</div>
      <h2 tabindex="-1" part="heading">${title}</h2>
      <p>${body}</p>
      <div class="actions">
        <button type="button" part="button" @click=${() => this.send({ type: 'try_again' })}>${action}</button>
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-result': PayStepResult;
  }
}
