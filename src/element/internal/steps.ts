import { NetworkError } from '../../client/errors.js';
import { PayStepAmount } from './pay-step-amount.js';
import { PayStepMethod } from './pay-step-method.js';
import { PayStepStatus } from './pay-step-status.js';

/** The steps of the first screen, bundled with the element. */
export const firstSteps = {
  'pay-step-status': PayStepStatus,
  'pay-step-amount': PayStepAmount,
  'pay-step-method': PayStepMethod,
} as const;

/**
 * Registers the step elements (on first connect, not on import, so importing the
 * package has no side effects); tolerates a second copy of the script.
 */
export function defineSteps(steps: Record<string, CustomElementConstructor> = firstSteps): void {
  for (const [tag, element] of Object.entries(steps)) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
}

export type LaterSteps = typeof import('./later-steps.js');
export type DetailsSteps = typeof import('./details-steps.js');

let details: Promise<DetailsSteps> | undefined;

/**
 * The details step and the flow up to submitting the order (a small chunk the later steps' chunk also imports):
 * fetched first, so a method tapped at once opens its details before the later steps are here (issue 31).
 */
export function loadDetailsSteps(): Promise<DetailsSteps> {
  details ??= import('./details-steps.js').then(
    (m) => {
      defineSteps(m.detailsSteps);
      return m;
    },
    (error: unknown) => {
      details = undefined; // like the later steps: the next need tries again
      throw new NetworkError({ cause: error });
    },
  );
  return details;
}

let later: Promise<LaterSteps> | undefined;

/**
 * The steps after the first screen (details, gateway steps, results) with the flow and the order tracker they
 * need: a lazy chunk the element fetches while the link loads, so it is there before the buyer needs it.
 */
export function loadLaterSteps(): Promise<LaterSteps> {
  later ??= import('./later-steps.js').then(
    (m) => {
      defineSteps(m.laterSteps);
      return m;
    },
    (error: unknown) => {
      // A failed fetch (offline) is not remembered: the next need tries again. Its outcome is a network error's.
      later = undefined;
      throw new NetworkError({ cause: error });
    },
  );
  return later;
}
