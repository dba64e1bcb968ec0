import { firstScreen, firstScreenSteps } from '../../flow/first-screen.js';
import { onlyMethod } from '../../flow/screens.js';
import type { FlowEvent, FlowState, FlowStep } from '../../flow/types.js';
import type { PagePrefill } from '../internal/prefill-of.js';
import type { DetailsSteps, LaterSteps } from '../steps/steps.js';

/** The steps before any order, where the order tracker has nothing to do: the details step's chunk can run them. */
const beforeTracker: readonly FlowStep[] = ['amount', 'method', 'details'];

/**
 * The flow's answer to `event`, from the chunk that holds it: the later steps' whole flow once here; before that, the
 * details step's chunk up to submitting the order, and the first screen's own rules for the amount and method
 * screens. Undefined when the answer needs a chunk not here yet (the caller fetches it and asks again).
 */
export function nextState(prev: FlowState, event: FlowEvent, chunks: { readonly details: DetailsSteps | undefined; readonly later: LaterSteps | undefined }, page: PagePrefill): FlowState | undefined {
  const { later, details } = chunks;
  if (later) return later.transitionOnPage(prev, event, page);
  // What needs the order tracker waits for the later steps.
  if (details && event.type !== 'resumed' && (prev.step === 'loading' || beforeTracker.includes(prev.step))) {
    const next = details.transitionOnPage(prev, event, page);
    if (beforeTracker.includes(next.step)) return next;
  }
  if (event.type !== 'resumed' && firstScreenSteps.includes(prev.step)) {
    const next = firstScreen(prev, event) ?? prev;
    // A link whose one method takes the amount opens its details: the later steps' work (they check the prefill).
    if (!onlyMethod(next)) return next;
  }
  return undefined;
}
