import { html, nothing } from 'lit';
import type { ErrorState, LoadingState } from '../../flow/types.js';
import type { FirstMessages } from '../../i18n/messages.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { stepStatusStyles } from './pay-step-status.styles.js';

export type StatusScreenState = LoadingState | ErrorState;

/**
 * @internal Loading, and the error screen with "try again". A link that cannot be paid is `pay-step-unavailable`,
 * and "processing" `pay-step-processing`, both with the later steps.
 */
export class PayStepStatus extends StepElement<StatusScreenState, FirstMessages> {
  static override styles = [sharedStyles, stepStatusStyles];

  /** The bundled first screens' strings are enough here. */
  declare messages: FirstMessages;

  override render() {
    const m = this.messages;
    const s = this.state;
    switch (s.step) {
      case 'loading':
        return html`<div class="center" part="loading">
          <div class="spinner" aria-hidden="true"></div>
          <h2 tabindex="-1" part="heading">${m.loading}</h2>
        </div>`;
      case 'error':
        return html`<div class="center" part="error">
          <h2 tabindex="-1" part="heading">${m.error.title}</h2>
          <p>${m.rules[s.message]({})}</p>
          <div class="actions">
            ${s.retry
              ? html`<button type="button" part="button" @click=${() => this.send({ type: 'retry' })}>${m.error.retry}</button>`
              : nothing}
            ${s.resume.step !== 'loading'
              ? html`<button type="button" class="secondary" part="button-secondary" @click=${() => this.send({ type: 'back' })}>
                  ${m.back}
                </button>`
              : nothing}
          </div>
        </div>`;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-status': PayStepStatus;
  }
}
