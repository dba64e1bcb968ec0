import { html, nothing } from 'lit';
import type { ProcessingState, ResumingState } from '../../flow/types.js';
import { StepElement } from './step-element.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepStatusStyles } from './pay-step-status.styles.js';

/**
 * @internal The order is being processed and the buyer has nothing to do but wait (e.g. after a correct code), or a
 * saved order is being read again while the service fails for now.
 */
export class PayStepProcessing extends StepElement<ProcessingState | ResumingState> {
  static override styles = [sharedStyles, laterStyles, stepStatusStyles];

  override render() {
    const m = this.messages;
    const s = this.state;
    return html`<div class="center">
      <div class="spinner" aria-hidden="true"></div>
      <h2 tabindex="-1" part="heading">${s.step === 'resuming' ? m.resuming[s.card ? 'card' : 'order'] : m.waiting}</h2>
      ${s.step === 'processing' && s.notice ? html`<p class="notice">${m.rules[s.notice]({})}</p>` : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-processing': PayStepProcessing;
  }
}
