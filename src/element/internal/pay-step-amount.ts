import { html, nothing } from 'lit';
import type { AmountState } from '../../flow/types.js';
import type { FirstMessages } from '../../i18n/messages.js';
import { formatMoney } from '../../i18n/format-money.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { stepAmountStyles } from './pay-step-amount.styles.js';

/** @internal Dynamic links: the buyer types the amount, grouped as they type. */
export class PayStepAmount extends StepElement<AmountState, FirstMessages> {
  static override styles = [sharedStyles, stepAmountStyles];

  /** The bundled first screens' strings are enough here. */
  declare messages: FirstMessages;

  override render() {
    const m = this.messages;
    const s = this.state;
    const money = (n: number) => formatMoney(n, s.link.currency, m.locale);
    const range = m.amount.range(money(s.range.min), money(s.range.max));
    const error = s.error ? m.rules[s.error]({ min: money(s.range.min), max: money(s.range.max) }) : null;
    return html`
      <h2 tabindex="-1" part="heading">${m.amount.title}</h2>
      <form novalidate @submit=${this._submit}>
        <div class="field">
          <label for="amount">${m.amount.label}</label>
          <div class="money">
            <span aria-hidden="true">$</span>
            <input
              id="amount"
              name="amount"
              part="input"
              type="text"
              inputmode="numeric"
              autocomplete="transaction-amount"
              .enterKeyHint=${'next'}
              .value=${s.text}
              aria-describedby=${error ? 'amount-error amount-range' : 'amount-range'}
              aria-invalid=${error ? 'true' : 'false'}
              @input=${this._input}
            />
          </div>
          <p id="amount-range" class="hint">${range}</p>
          ${error ? html`<p id="amount-error" class="error" part="error">${error}</p>` : nothing}
        </div>
        <div class="actions">
          <button type="submit" part="button">${m.continue}</button>
        </div>
      </form>
    `;
  }

  private _submitted = false;

  override updated(): void {
    // After a submit the flow answers with an error or a new screen; on an error, back to the field, and say it aloud:
    // after Enter focus is already there, so moving it tells a screen reader nothing.
    if (this._submitted && this.state.error) {
      this.focusField();
      this.announce(this.renderRoot.querySelector('#amount-error')?.textContent ?? '');
    }
    this._submitted = false;
  }

  /** Focuses the amount field (after an error on submit). */
  focusField(): void {
    this.renderRoot.querySelector<HTMLInputElement>('input')?.focus();
  }

  private _input = (e: Event) => {
    this.send({ type: 'amount_changed', text: (e.target as HTMLInputElement).value });
  };

  private _submit = (e: Event) => {
    e.preventDefault();
    this._submitted = true;
    this.send({ type: 'amount_submitted' });
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-amount': PayStepAmount;
  }
}
