import { html, nothing } from 'lit';
import type { ResultState } from '../../flow/types.js';
import { formatDateTime, formatMoney } from '../../i18n/format.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepResultStyles } from './pay-step-result.styles.js';

/** @internal The outcome: the paid receipt, or declined / cancelled / expired with the next action. */
export class PayStepResult extends StepElement<ResultState> {
  static override styles = [sharedStyles, laterStyles, stepResultStyles];

  override render() {
    const m = this.messages;
    const s = this.state;
    if (s.step === 'paid') return this.#receipt();
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

  #receipt() {
    const m = this.messages;
    const s = this.state;
    const date = s.order.confirmed_at ?? s.order.created_at;
    return html`<div class="paid" part="result receipt" data-result="paid">
      <div class="badge" aria-hidden="true">✓</div>
      <h2 tabindex="-1" part="heading">${m.result.paidTitle}</h2>
      <p>${m.result.paidBody}</p>
      <dl>
        <dt>${m.result.amount}</dt>
        <dd>${formatMoney(s.order.amount, s.order.currency, m.locale)}</dd>
        <dt>${m.result.method}</dt>
        <dd>${s.order.gateway.name}</dd>
        <dt>${m.result.orderId}</dt>
        <dd>${s.order.id_order}</dd>
        ${date ? html`<dt>${m.result.date}</dt><dd>${formatDateTime(date, m.locale)}</dd>` : nothing}
      </dl>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-result': PayStepResult;
  }
}
