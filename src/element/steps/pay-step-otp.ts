import { html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import type { OtpState } from '../../flow/types.js';
import { otpFromText, otpInput, validateOtp } from '../../flow/rules.js';
import { WaitingStep, countdownTemplate, noticeTemplate } from './waiting-parts.js';
import { newIdempotencyKey } from '../internal/idempotency-key.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepOtpStyles } from './pay-step-otp.styles.js';

/** @internal The SMS code: one 6-digit field; a pasted code fills and submits; attempts left; new code. */
export class PayStepOtp extends WaitingStep<OtpState> {
  static override styles = [sharedStyles, laterStyles, stepOtpStyles];

  static override properties = { remainingMs: { attribute: false } };

  /** Milliseconds left, from the host's countdown. */
  remainingMs: number | null = null;

  /** A code was sent (or refused here): once the answer is in, focus and the live region tell the buyer. */
  #awaiting = false;

  override render() {
    const m = this.messages;
    const s = this.state;
    const busy = s.submitting || s.cancelling;
    // The error first, before the hint (GOV.UK's order): it is what the buyer must hear now.
    const describedBy = [s.error ? 'code-error' : '', 'code-hint', 'code-attempts'].filter(Boolean).join(' ');
    const off = busy ? 'true' : 'false';
    return html`
      <h2 tabindex="-1" part="heading">${m.otp.title}</h2>
      <ol class="steps">
        ${m.otp.steps(s.order.gateway.name).map((line) => html`<li>${line}</li>`)}
      </ol>
      <form novalidate @submit=${this.#submit}>
        <div class="field">
          <label for="code">${m.otp.label}</label>
          <input
            id="code"
            name="code"
            part="input otp-input"
            type="text"
            inputmode="numeric"
            .autocomplete=${'one-time-code'}
            pattern="[0-9]*"
            maxlength="6"
            .enterKeyHint=${'done'}
            .value=${s.code}
            ?readonly=${busy}
            aria-invalid=${s.error ? 'true' : 'false'}
            aria-describedby=${describedBy}
            @input=${this.#input}
            @paste=${this.#paste}
          />
          <p id="code-hint" class="hint">${m.otp.hint(s.order.gateway.name)}</p>
          ${s.error ? html`<p id="code-error" class="error" part="error"><span class="sr-only">${m.errorPrefix} </span>${m.rules[s.error]({})}</p>` : nothing}
          <p id="code-attempts" class="hint">${m.otp.attemptsLeft(s.attemptsLeft)}</p>
        </div>
        ${countdownTemplate(m, this.remainingMs)} ${noticeTemplate(m, s.notice, () => this.send({ type: 'retry' }))}
        <div class="actions">
          <button type="submit" part="button" aria-disabled=${off}>${s.submitting ? m.otp.submitting : m.otp.submit}</button>
        </div>
      </form>
      <div class="actions">
        <button type="button" class="secondary" part="button-secondary" aria-disabled=${off} @click=${this.#newCode}>
          ${m.otp.newCode}
        </button>
        ${this.waitingActions(busy)}
      </div>
    `;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const s = this.state;
    const before = changed.get('state') as OtpState | undefined;
    // "Enviar un código nuevo" made a new order: focus is on the heading, and this says the code is on its way.
    if (before && before.order.id_order !== s.order.id_order) this.announce(this.messages.otp.newCodeSent);
    if (!this.#awaiting || s.submitting) return;
    this.#awaiting = false;
    if (!s.error) return;
    this.#codeField()?.focus();
    const m = this.messages;
    this.announce(s.error === 'otp.rejected' ? `${m.rules[s.error]({})}. ${m.otp.attemptsLeft(s.attemptsLeft)}` : m.rules[s.error]({}));
  }

  #codeField(): HTMLInputElement | null {
    return this.renderRoot.querySelector<HTMLInputElement>('#code');
  }

  /** Focus waits in the (read-only) field while the code is checked. */
  #sending(code: string): void {
    if (this.state.submitting || this.state.cancelling) return;
    this.#codeField()?.focus();
    this.#awaiting = true;
    this.send({ type: 'otp_submitted', code });
  }

  #input = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const code = otpInput(input.value);
    // Keep the field showing digits only, even before the flow answers.
    if (input.value !== code) input.value = code;
    this.send({ type: 'otp_changed', code });
  };

  #paste = (e: ClipboardEvent) => {
    // The code is read from the pasted text before `maxlength` would cut it: a whole SMS fills the field too.
    e.preventDefault();
    const pasted = otpFromText(e.clipboardData?.getData('text') ?? '');
    if (pasted === null) return;
    const code = validateOtp(pasted);
    this.send({ type: 'otp_changed', code: pasted });
    if (code.ok) this.#sending(code.value);
  };

  #submit = (e: Event) => {
    e.preventDefault();
    this.#sending(this.#codeField()?.value ?? this.state.code);
  };

  #newCode = () => {
    this.send({ type: 'new_code', idempotencyKey: newIdempotencyKey() });
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-otp': PayStepOtp;
  }
}
