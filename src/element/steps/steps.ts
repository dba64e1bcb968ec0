import { NetworkError } from '../../client/errors.js';
import { chunkHooks } from '../internal/new-build.js';
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

/**
 * A lazy chunk of steps, fetched once and its elements registered. A failed fetch (offline) is not remembered: the
 * next need tries again. Its outcome is a network error's; past that, `chunkHooks.failed`.
 */
function lazySteps<M>(load: () => Promise<M>, steps: (m: M) => Record<string, CustomElementConstructor>): () => Promise<M> {
  let chunk: Promise<M> | undefined;
  return () =>
    (chunk ??= load().then(
      (m) => {
        defineSteps(steps(m));
        return m;
      },
      (error: unknown) => {
        chunk = undefined;
        chunkHooks.failed?.();
        throw new NetworkError({ cause: error });
      },
    ));
}

/**
 * The details step and the flow up to submitting the order (a small chunk the later steps' chunk also imports):
 * fetched first, so a method tapped at once opens its details before the later steps are here.
 */
export const loadDetailsSteps = lazySteps(() => import('./details-steps.js'), (m) => m.detailsSteps);

/**
 * The steps after the first screen (details, gateway steps, results) with the flow and the order tracker they
 * need: a lazy chunk the element fetches while the link loads, so it is there before the buyer needs it.
 */
export const loadLaterSteps = lazySteps(() => import('./later-steps.js'), (m) => m.laterSteps);
