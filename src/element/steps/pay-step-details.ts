import { html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { ConsentField, DetailsField, DetailsState } from '../../flow/types.js';
import { methodTakesPhone } from '../../flow/method-fields.js';
import { consentRequired, dataConsentTemplate } from './data-consent.js';
import type { DataConsent } from './data-consent.js';
import { spoken, withMoney } from '../internal/spoken.js';
import { StepElement } from './step-element.js';
import { newIdempotencyKey } from '../internal/idempotency-key.js';
import { sharedStyles, hideBrokenImage } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepDetailsStyles } from './pay-step-details.styles.js';

/** How each text field asks for its value on a phone keyboard and from autofill. */
interface InputHints {
  type: 'text' | 'tel' | 'email';
  inputmode: 'text' | 'tel' | 'email' | 'numeric';
  autocomplete: 'off' | 'tel-national' | 'given-name' | 'family-name' | 'email';
}
const inputHints: Record<Exclude<DetailsField, 'id_type'>, InputHints> = {
  id_number: { type: 'text', inputmode: 'text', autocomplete: 'off' },
  phone_number: { type: 'tel', inputmode: 'tel', autocomplete: 'tel-national' },
  first_name: { type: 'text', inputmode: 'text', autocomplete: 'given-name' },
  last_name: { type: 'text', inputmode: 'text', autocomplete: 'family-name' },
  email: { type: 'email', inputmode: 'email', autocomplete: 'email' },
};

/**
 * @internal The buyer's details for the chosen method: only the fields it needs,
 * each message beside its field, and an error summary on submit.
 */
export class PayStepDetails extends StepElement<DetailsState> {
  static override styles = [sharedStyles, laterStyles, stepDetailsStyles];
  static override properties = { page: { attribute: false } };

  /** What `<pay-checkout>` says about personal data: `privacy-url`, `consent`. */
  declare page: DataConsent | undefined;

  #submitted = false;
  #saidFormError: DetailsState['formError'] = null;

  override render() {
    const m = this.messages;
    const s = this.state;
    const wrong = this.#wrong();
    const pay = spoken(withMoney((money) => m.pay(money(s.amount)), s.link.currency, m));
    return html`
      <h2 tabindex="-1" part="heading">${m.details.title}</h2>
      <p class="chosen">
        ${s.gateway.icon ? html`<img src=${s.gateway.icon} alt="" width="24" height="24" @error=${hideBrokenImage} />` : nothing}
        <span><span class="sr-only">${m.result.method}: </span>${s.gateway.name}</span>
      </p>
      ${wrong.length > 0
        ? html`<div class="summary" part="error-summary">
            <h3 id="summary-title">${m.details.errorSummary(wrong.length)}</h3>
            <ul>
              ${wrong.map(
                (f) => html`<li><a href="#${f}" @click=${(e: Event) => this.#goTo(e, f)}>${this.#message(f)}</a></li>`,
              )}
            </ul>
          </div>`
        : nothing}
      ${s.formError ? html`<p class="error notice" part="error">${m.rules[s.formError]({})}</p>` : nothing}
      <form novalidate class="stack" @submit=${this.#submit}>
        ${s.needed.map((f) => (f === 'id_type' ? this.#idType() : this.#text(f)))}
        ${dataConsentTemplate({ consent: this.page?.consent, privacyUrl: this.page?.privacyUrl || s.link.privacy_url || undefined }, s.link.store_name, s.consented === true, this.#errorLine('consent'), this.#consentChanged, m)}
        <div class="actions">
          <button id="pay" type="submit" part="button pay-button" aria-disabled=${s.submitting ? 'true' : 'false'}>
            ${s.submitting ? m.creatingOrder : pay}
          </button>
          <button type="button" class="secondary" part="button-secondary" aria-disabled=${s.submitting ? 'true' : 'false'} @click=${this.#back}>
            ${m.details.changeMethod}
          </button>
        </div>
      </form>
    `;
  }

  override updated(changed: PropertyValues<this>): void {
    const m = this.messages;
    // `aria-disabled`, not `disabled`, while the order is created: focus stays on the button, which says what happens.
    if (this.state.submitting && !(changed.get('state') as DetailsState | undefined)?.submitting) this.announce(m.creatingOrder);
    // A refusal of the create (a limit, the service) is said once when it appears; focus stays where it was.
    const { formError } = this.state;
    if (formError && formError !== this.#saidFormError) this.announce(m.rules[formError]({}));
    this.#saidFormError = formError;
    if (!this.#submitted) return;
    this.#submitted = false;
    // Each error named, as GOV.UK's summary does; focus then goes to the first field in error.
    const wrong = this.#wrong().map((f) => this.#message(f));
    if (wrong.length > 0) this.announce(`${m.details.errorSummary(wrong.length)}: ${wrong.join('. ')}`);
    if (this.state.focus) this.focusField(this.state.focus);
  }

  /**
   * Focuses one field (the first in error, the phone after "change number"), or the pay button when everything was
   * prefilled: the consent box first if it still waits to be checked.
   */
  focusField(field: DetailsField | ConsentField | 'pay'): void {
    const consent = this.renderRoot.querySelector<HTMLInputElement>('#consent');
    const target = field === 'pay' && consent && !consent.checked ? 'consent' : field;
    this.renderRoot.querySelector<HTMLElement>(`#${target}`)?.focus();
  }

  /** The fields in error, in screen order: the consent box last. */
  #wrong(): (DetailsField | ConsentField)[] {
    return [...this.state.needed, 'consent' as const].filter((f) => this.state.errors[f]);
  }

  #message(field: DetailsField | ConsentField): string {
    const key = this.state.errors[field];
    return key ? this.messages.rules[key]({}) : '';
  }

  #describedBy(field: DetailsField, hint: boolean): string | typeof nothing {
    const ids = [this.state.errors[field] ? `${field}-error` : '', hint ? `${field}-hint` : ''].filter(Boolean);
    return ids.length ? ids.join(' ') : nothing;
  }

  #errorLine(field: DetailsField | ConsentField): TemplateResult | typeof nothing {
    return this.state.errors[field]
      ? html`<p id="${field}-error" class="error" part="error"><span class="sr-only">${this.messages.errorPrefix} </span>${this.#message(field)}</p>`
      : nothing;
  }

  #idType(): TemplateResult {
    const m = this.messages;
    const s = this.state;
    const invalid = Boolean(s.errors.id_type);
    // A prefilled type the method does not take is not among the options: "choose a type", with its error beside it.
    const chosen = s.idTypes.some((d) => String(d.id_national_document_type) === s.fields.id_type) ? s.fields.id_type : '';
    return html`<div class="field">
      <label for="id_type">${m.details.idType}</label>
      <select
        id="id_type"
        name="id_type"
        part="input"
        .value=${chosen}
        aria-invalid=${invalid ? 'true' : 'false'}
        aria-describedby=${this.#describedBy('id_type', false)}
        @change=${(e: Event) => this.#changed('id_type', e)}
      >
        <option value="" ?selected=${chosen === ''}>${m.details.idTypeChoose}</option>
        ${s.idTypes.map(
          (d) => html`<option value=${String(d.id_national_document_type)} ?selected=${chosen === String(d.id_national_document_type)}>
            ${d.description} (${d.type})
          </option>`,
        )}
      </select>
      ${this.#errorLine('id_type')}
    </div>`;
  }

  #text(field: Exclude<DetailsField, 'id_type'>): TemplateResult {
    const m = this.messages;
    const s = this.state;
    const labels: Record<typeof field, [string, string | null]> = {
      id_number: [m.details.idNumber, m.details.idNumberHint],
      // A phone the method does not pay from is the buyer's contact: "registered with Bre-B" would be untrue there.
      phone_number: [m.details.phone, methodTakesPhone(s.gateway) ? m.details.phoneHint(s.gateway.name) : m.details.contactPhoneHint],
      first_name: [m.details.firstName, null],
      last_name: [m.details.lastName, null],
      email: [m.details.email, null],
    };
    const [label, hint] = labels[field];
    const hints = inputHints[field];
    // CC and TI are digits only: a numeric keypad; CE has letters.
    const idCode = s.idTypes.find((d) => String(d.id_national_document_type) === s.fields.id_type)?.type;
    const inputmode: InputHints['inputmode'] = field === 'id_number' && idCode !== 'CE' ? 'numeric' : hints.inputmode;
    return html`<div class="field">
      <label for=${field}>${label}</label>
      <input
        id=${field}
        name=${field}
        part="input"
        type=${hints.type}
        inputmode=${inputmode}
        autocomplete=${hints.autocomplete}
        .value=${s.fields[field]}
        aria-invalid=${s.errors[field] ? 'true' : 'false'}
        aria-describedby=${this.#describedBy(field, hint !== null)}
        @input=${(e: Event) => this.#changed(field, e)}
      />
      ${hint ? html`<p id="${field}-hint" class="hint">${hint}</p>` : nothing} ${this.#errorLine(field)}
    </div>`;
  }

  #changed(field: DetailsField, e: Event): void {
    this.send({ type: 'field_changed', field, value: (e.target as HTMLInputElement | HTMLSelectElement).value });
  }

  #consentChanged = (checked: boolean) => this.send({ type: 'consent_changed', checked });

  #goTo(e: Event, field: DetailsField | ConsentField): void {
    // Fragment links do not reach into a shadow root; move focus as the link promises.
    e.preventDefault();
    this.focusField(field);
  }

  #back = () => {
    if (!this.state.submitting) this.send({ type: 'back' });
  };

  #submit = (e: Event) => {
    e.preventDefault();
    if (this.state.submitting) return;
    this.#submitted = true;
    this.send({ type: 'details_submitted', idempotencyKey: newIdempotencyKey(), consentRequired: consentRequired(this.page ?? {}) });
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-details': PayStepDetails;
  }
}
