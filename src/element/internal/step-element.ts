import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import type { Messages } from '../../i18n/messages.js';
import { es } from '../../i18n/es.js';
import type { FlowEvent } from '../../flow/types.js';
import { payStepEvent } from '../events/pay-step.js';
import { payAnnounceEvent } from '../events/pay-announce.js';

/**
 * Internal base of the step elements: each gets its slice of the flow state and
 * the messages as properties, and reports up with one `pay-step` event.
 */
export abstract class StepElement<S> extends LitElement {
  /** The flow state this step renders. */
  @property({ attribute: false }) state!: S;
  /** The catalog of the current locale. */
  @property({ attribute: false }) messages: Messages = es;

  /** Sends a flow event up to `<pay-checkout>`. */
  protected send(event: FlowEvent): void {
    this.dispatchEvent(payStepEvent(event));
  }

  /** Asks the host's one live region to say something. */
  protected announce(message: string): void {
    this.dispatchEvent(payAnnounceEvent(message));
  }

  /** Moves focus to this screen's heading (each step renders one `h2[tabindex=-1]`). */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }
}
