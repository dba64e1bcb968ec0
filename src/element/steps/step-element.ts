import { LitElement, isServer } from 'lit';
import type { PropertyDeclarations, PropertyValues } from 'lit';
import type { FirstMessages, Messages } from '../../i18n/messages.js';
import type { FlowEvent } from '../../flow/types.js';
import { payStepEvent } from '../events/pay-step.js';
import { payAnnounceEvent } from '../events/pay-announce.js';
import { dropServerShell } from '../internal/server-shell.js';

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

  /** The flow state this step renders. */
  declare state: S;
  /** The catalog of the current locale. */
  declare messages: M;

  /** Part of a server-rendered first screen that `<pay-checkout>` keeps until it replaces it whole. */
  private _serverCopy = false;

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // Upgraded inside the server's declarative shadow DOM with no state of its own: left as the server drew it.
    if (!isServer && this.shadowRoot && this.state === undefined) {
      this._serverCopy = true;
      return this.shadowRoot;
    }
    dropServerShell(this);
    return super.createRenderRoot();
  }

  protected override shouldUpdate(changed: PropertyValues<this>): boolean {
    return !this._serverCopy && super.shouldUpdate(changed);
  }

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
