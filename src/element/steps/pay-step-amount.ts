import { html, nothing } from 'lit';
import type { AmountState } from '../../flow/types.js';
import type { FirstMessages } from '../../i18n/messages.js';
import { spoken, withMoney } from '../internal/spoken.js';
import type { Said } from '../internal/spoken.js';
import { StepElement } from './step-element.js';
import { presetAmounts } from '../../flow/method-choice.js';
import { sharedStyles } from './shared.styles.js';
import { stepAmountStyles } from './pay-step-amount.styles.js';

/** @internal Dynamic links: the buyer types the amount, grouped as they type. */
export class PayStepAmount extends StepElement<AmountState, FirstMessages> {
  static override styles = [sharedStyles, stepAmountStyles];
  static override properties = { presets: { attribute: false } };

  /** `<pay-checkout amounts>`: preset amounts, whole pesos, space-separated. */
  declare presets: string | undefined;

  /** The bundled first screens' strings are enough here. */
  declare messages: FirstMessages;

  override render() {
    const m = this.messages;
    const s = this.state;
    const range = this._said((money) => m.amount.range(money(s.range.min), money(s.range.max)));
    const error = this._error();
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
          <p id="amount-range" class="hint">${spoken(range)}</p>
          ${error
            ? html`<p id="amount-error" class="error" part="error"><span class="sr-only">${m.errorPrefix} </span>${spoken(error)}</p>`
            : nothing}
        </div>
        ${this._presets()}
        <div class="actions">
          <button type="submit" part="button">${m.continue}</button>
        </div>
      </form>
    `;
  }

  private _submitted = false;

  /** Preset amounts as radios drawn as buttons (a radio group to assistive technology): one fills the field. */
  private _presets() {
    const s = this.state;
    const presets = presetAmounts(this.presets, s.link.gateways);
    return presets.length
      ? html`<fieldset class="presets" role="radiogroup" part="amount-presets">
          <legend>${this.messages.amount.presets}</legend>
          ${presets.map(
            (n) =>
              html`<label part="amount-preset"
                ><input type="radio" name="preset" class="sr-only" .checked=${s.text.replace(/\./g, '') === `${n}`} @change=${() => this.send({ type: 'amount_changed', text: `${n}` })} />${spoken(
                  this._said((money) => money(n)),
                )}</label
              >`,
          )}
        </fieldset>`
      : nothing;
  }

  override updated(): void {
    // After a submit the flow answers with an error or a new screen; on an error, back to the field, and say it aloud:
    // after Enter focus is already there, so moving it tells a screen reader nothing.
    const error = this._submitted ? this._error() : null;
    if (error) {
      this.focusField();
      this.announce(error[1]);
    }
    this._submitted = false;
  }

  /** The field's error as shown and as said; null when none. */
  private _error(): Said | null {
    const { error: key, range } = this.state;
    return key ? this._said((money) => this.messages.rules[key]({ min: money(range.min), max: money(range.max) })) : null;
  }

  private _said(text: (money: (amount: number) => string) => string): Said {
    return withMoney(text, this.state.link.currency, this.messages);
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
