import { beforeOrderSteps } from '../../flow/first-screen.js';
import type { FlowState } from '../../flow/types.js';
import { isWholeCatalog } from '../../i18n/messages.js';
import type { FirstMessages, Locale, Messages } from '../../i18n/messages.js';

/** What has arrived of the steps and strings (StepChunks), as the screen policy reads it. */
export interface AtHand {
  /** The strings at hand: the bundled first screens', or the whole catalog of a locale. */
  readonly messages: FirstMessages | Messages;
  /** The locale asked for; until its catalog arrives no screen flips language. */
  readonly wantedLocale: Locale;
  /** Whether the details step's chunk, and the later steps' chunk, are here. */
  readonly details: unknown;
  readonly later: unknown;
  /** Whether the method screen's tap has what it opens (the details step's chunk and the whole catalog), or waits no more. */
  readonly nextAtHand: boolean;
}

const loading: FlowState = { step: 'loading', request: null };

/**
 * The state on screen: the flow's, or loading while the asked-for catalog is on its way (for the steps after the
 * first screens: the whole catalog, and their chunk). A link that cannot be paid is rare: its screen and strings come
 * with the later steps. Behind a server-drawn method screen (`drawn`), which the buyer already sees, the element's own
 * waits for what a tap opens, so a tap as it takes over never waits on it; the embed's does not wait (its loading
 * screen would stay longer: a cost to every buyer for a tap few make), only its `pay-ready` does (`answering`).
 */
export function shownState(flow: FlowState, at: AtHand, drawn: boolean): FlowState {
  const m = at.messages;
  const waits = flow.step === 'method' && drawn && !at.nextAtHand;
  const first = beforeOrderSteps.includes(flow.step) && flow.step !== 'unavailable' && !waits;
  const steps = at.later ?? (flow.step === 'details' ? at.details : undefined);
  const ready = m.locale === at.wantedLocale && (first || (isWholeCatalog(m) && steps !== undefined));
  return ready ? flow : loading;
}

/**
 * Whether the screen of `shown` answers: it is past loading, and a tap on it opens the next screen at once (past the
 * method screen always; on it, once what it opens is at hand or no longer waited for). The one predicate both the page's
 * `pay-ready` (FlowRunner) and the `interactive` mark (ServerScreen) wait for: on the embed, whose method screen shows
 * at the link's answer, a moment after it; on a server-drawn page, as the element takes over.
 */
export function answering(shown: FlowState, at: Pick<AtHand, 'nextAtHand'>): boolean {
  return shown.step !== 'loading' && (shown.step !== 'method' || at.nextAtHand);
}
