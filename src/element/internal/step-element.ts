import { LitElement } from 'lit';
import type { PropertyDeclarations } from 'lit';
import type { FirstMessages, Messages } from '../../i18n/messages.js';
import type { FlowEvent } from '../../flow/types.js';
import { payStepEvent } from '../events/pay-step.js';
import { payAnnounceEvent } from '../events/pay-announce.js';
import { dropServerShell } from './server-shell.js';

/**
 * Internal base of the step elements: each gets its slice of the flow state and
 * the messages as properties, and reports up with one `pay-step` event. The first
 * screens' steps take `FirstMessages` (bundled); the later ones the whole catalog.
 */
export abstract class StepElement<S, M extends FirstMessages = Messages> extends LitElement {
  static override properties: PropertyDeclarations = {
    state: { attribute: false },
    messages: { attribute: false },
  };

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    dropServerShell(this);
    return super.createRenderRoot();
  }

  /** The flow state this step renders. */
  declare state: S;
  /** The catalog of the current locale. */
  declare messages: M;

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
