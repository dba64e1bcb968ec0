import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { FlowState } from '../../flow/types.js';
import type { FirstMessages } from '../../i18n/messages.js';
import type { StepElement } from '../steps/step-element.js';

type FocusableStep = StepElement<unknown, FirstMessages> & { focusField?(field: string): void };

export interface StepFocusOptions {
  /** The flow's state when it is the one on screen; undefined while another (loading) shows. */
  onScreen(): FlowState | undefined;
}

/**
 * Focus follows the buyer's own progress: once a new step is on screen (not the loading screen a lazy chunk may hold
 * it on), its heading takes focus, or the details field the flow names.
 */
export class StepFocus implements ReactiveController {
  /** A new step wants focus once it shows. */
  pending = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly options: StepFocusOptions,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    const flow = this.pending ? this.options.onScreen() : undefined;
    if (!flow) return;
    this.pending = false;
    const step = this.host.renderRoot.querySelector<FocusableStep>('[data-step]');
    if (!step) return;
    const field = flow.step === 'details' && flow.focus ? flow.focus : null;
    // A lazy step may not be defined yet: wait for it, then for its render.
    void customElements
      .whenDefined(step.localName)
      .then(() => step.updateComplete)
      .then(() => (field && step.focusField ? step.focusField(field) : step.focusHeading()));
  }
}
