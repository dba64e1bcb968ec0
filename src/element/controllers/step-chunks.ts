import { html, isServer } from 'lit';
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import { beforeOrderSteps } from '../../flow/first-screen.js';
import type { FlowState } from '../../flow/types.js';
import { esFirst } from '../../i18n/es-first.js';
import { firstMessages, loadMessages, resolveLocale } from '../../i18n/locale.js';
import { isWholeCatalog } from '../../i18n/messages.js';
import type { FirstMessages, Locale, Messages } from '../../i18n/messages.js';
import { loadDetailsSteps, loadLaterSteps } from '../internal/steps.js';
import type { DetailsSteps, LaterSteps } from '../internal/steps.js';
import type { LaterPage } from '../internal/later-steps.js';
import type { PagePrefill } from '../internal/prefill-of.js';
import type { OrderTracker } from '../internal/order-tracker.js';

/**
 * Parts of the first screens' step elements (loading, error, amount, method), forwarded so `pay-checkout::part(button)`
 * reaches into them; the later steps forward theirs (later-steps.ts).
 */
const stepParts = 'heading, button, button-secondary, method, input, error, loading';

/** How long after the details step's chunk the later steps' is asked for (measured: npm run bench -- --only vitals). */
const laterStepsDelayMs = 600;

/**
 * How long the element keeps a server-drawn method screen, once the link is here, while the details step's chunk and
 * the catalog (preloaded by the page) arrive and run; and, on the embed, how long `pay-ready` waits for them. On a line
 * so slow that they take longer, the element goes on without them, and a method tapped then shows its button busy
 * until they arrive.
 */
const detailsWaitMs = 250;

const noop = () => undefined;
/** `load` once the update asking for it is done: the link call that update made goes out first, on a line they share. */
const afterThisUpdate = <T>(load: () => Promise<T>): Promise<T> => Promise.resolve().then(load);

/**
 * What arrives after the first screen, and when: the details step's chunk, the later steps' chunk (with the order
 * tracker made from it) and the whole catalog of the locale. The details step and the catalog are asked for beside the
 * link call, at the element's first update (on the server-drawn page, which preloads them, that costs nothing): on a
 * slow line they arrive about with the link's answer, so a method tapped the moment the first screen is ready opens
 * its details at once; asked for after the first paint, they came a round trip after it (npm run bench -- --only vitals).
 */
export class StepChunks {
  /** The bundled first screens' strings, until the whole catalog of the locale arrives. */
  messages: FirstMessages | Messages = esFirst;
  /** The locale asked for; until its lazy catalog arrives the loading screen stays, so no screen flips language. */
  wantedLocale: Locale = 'es';
  /** The details step's chunk, once here: the details screen before the later steps. */
  details: DetailsSteps | undefined;
  /** The later steps' chunk, once here, and the tracker of the buyer's order made with it. */
  later: LaterSteps | undefined;
  tracker: OrderTracker | undefined;
  /** Whether the method screen no longer waits for the details step's chunk and the catalog: one failed, or it waited long enough. */
  private _detailsAwaited = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { locale: string | undefined },
    private readonly track: (later: LaterSteps) => OrderTracker,
    /** Whether the server's drawing of the first screen is on show (the element's own screen can wait behind it). */
    private readonly drawn: () => boolean,
    /** How long a server-drawn method screen (and `pay-ready`) may wait for what its tap opens; unset, `detailsWaitMs`. */
    private readonly waitMs: () => number | undefined,
  ) {}

  /** The whole catalog, once here. */
  get catalog(): Messages | null {
    return isWholeCatalog(this.messages) ? this.messages : null;
  }

  /**
   * The state on screen: the flow's, or loading while the asked-for catalog is on its way (for the steps after
   * the first screens: the whole catalog, and their chunk).
   */
  shown(flow: FlowState): FlowState {
    const m = this.messages;
    // A link that cannot be paid is rare: its screen and strings come with the later steps. Behind a server-drawn
    // method screen, which the buyer already sees, the element's own waits for what a tap opens (the details step's
    // chunk and the whole catalog), so a tap as it takes over never waits on them; the embed's does not wait (its
    // loading screen would stay longer: a cost to every buyer for a tap few make, issue 31's decisions), only its
    // `pay-ready` does (`answersAtOnce`).
    const waits = flow.step === 'method' && !isServer && this.drawn() && !this._nextAtHand;
    const first = beforeOrderSteps.includes(flow.step) && flow.step !== 'unavailable' && !waits;
    const steps = this.later ?? (flow.step === 'details' ? this.details : undefined);
    const ready = m.locale === this.wantedLocale && (first || (isWholeCatalog(m) && steps !== undefined));
    return ready ? flow : { step: 'loading', request: null };
  }

  /**
   * Whether a tap on the screen of `s` (as shown) opens the next screen at once: past the method screen always; on it,
   * once the details step's chunk and the whole catalog are here, or no longer waited for (one failed, or the wait ran
   * out). The page hears `pay-ready` and the `interactive` mark then: on the embed, whose method screen shows at the
   * link's answer, a moment after it; on a server-drawn page, as the element takes over.
   */
  answersAtOnce(s: FlowState): boolean {
    return s.step !== 'method' || this._nextAtHand;
  }

  /** Whether the method screen's tap has what it opens (the details step's chunk and the whole catalog), or waits no more. */
  private get _nextAtHand(): boolean {
    return this._detailsAwaited || (this.details !== undefined && this.catalog !== null);
  }

  /** The screen of the state on show (`shown`), drawn by the chunk that holds its step. */
  screen(s: FlowState, page: LaterPage & PagePrefill & { amounts: string | undefined }): TemplateResult {
    const m = this.messages;
    switch (s.step) {
      case 'loading':
      case 'error':
        return html`<pay-step-status data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-status>`;
      case 'amount':
        return html`<pay-step-amount data-step exportparts=${stepParts} .state=${s} .messages=${m} .presets=${page.amounts}></pay-step-amount>`;
      case 'method':
        return html`<pay-step-method data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-method>`;
    }
    // `shown()` keeps the later steps on loading until the whole catalog and their chunk are here.
    const { later, details, tracker } = this;
    if (!later && s.step === 'details' && details && isWholeCatalog(m)) return details.detailsStepTemplate(s, m, page);
    if (!later || !tracker || !isWholeCatalog(m)) return html`<pay-step-status data-step exportparts=${stepParts} .state=${{ step: 'loading', request: null }} .messages=${m}></pay-step-status>`;
    return later.laterStepTemplate(s, m, tracker.remainingMs, page);
  }

  /** The locale of the page (`locale`, else the closest `lang`): its first screens at once, its catalog asked for. */
  useLocale(): void {
    const host = this.host;
    const locale = resolveLocale(host.locale, host);
    this.wantedLocale = locale;
    if (locale === this.messages.locale && isWholeCatalog(this.messages)) return;
    // Spanish first screens are bundled, English's come with its catalog, a lazy chunk. A failure: the screens in the
    // strings at hand rather than loading for ever (the next need tries again).
    if (locale !== this.messages.locale) this.messages = firstMessages[locale] ?? this.messages;
    afterThisUpdate(() => loadMessages(locale)).then(
      (messages) => {
        if (resolveLocale(host.locale, host) !== messages.locale) return;
        this.messages = messages;
        host.requestUpdate();
      },
      () => {
        this.wantedLocale = this.messages.locale;
        this._stopAwaiting();
      },
    );
  }

  /**
   * The steps past the first screen: the details step's small chunk first, alone on a slow line (a quick tap needs
   * it); the later steps a moment after, so running their chunk (a long task on a slow phone) does not hold up that
   * tap. Pay, a resumed order and an unavailable link ask for the later steps at once.
   */
  wantSteps(): void {
    const later = () => new Promise((go) => setTimeout(go, laterStepsDelayMs)).then(() => this.loadLater());
    afterThisUpdate(() => this.loadDetails())
      .catch(() => this._stopAwaiting())
      .then(later)
      .catch(noop);
  }

  /**
   * The link is here and the flow at its first screen: a server-drawn method screen (and any method screen's
   * `pay-ready`) waits for the details step's chunk and the catalog at most `detailsWaitMs` more, or until one fails.
   */
  linkHere(): void {
    if (!this._nextAtHand) setTimeout(() => this._stopAwaiting(), this.waitMs() ?? detailsWaitMs);
  }

  private _stopAwaiting(): void {
    if (this._detailsAwaited) return;
    this._detailsAwaited = true;
    this.host.requestUpdate();
  }

  /** The details step's chunk (memoized): what the buyer needs up to submitting the order. */
  async loadDetails(): Promise<DetailsSteps> {
    const details = await loadDetailsSteps();
    if (!this.details) {
      this.details = details;
      // A method tapped on the first screen may be waiting for it.
      this.host.requestUpdate();
    }
    return details;
  }

  /** The later steps' chunk (memoized); the first call also makes the order tracker. */
  async loadLater(): Promise<OrderTracker> {
    const later = await loadLaterSteps();
    if (this.tracker) return this.tracker;
    this.later = later;
    this.tracker = this.track(later);
    // A step past the first screens may be waiting on loading for this chunk.
    this.host.requestUpdate();
    return this.tracker;
  }
}
