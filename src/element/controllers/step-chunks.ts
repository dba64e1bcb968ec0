import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { esFirst } from '../../i18n/es-first.js';
import { firstMessages, loadMessages, resolveLocale } from '../../i18n/locale.js';
import { isWholeCatalog } from '../../i18n/messages.js';
import type { FirstMessages, Locale, Messages } from '../../i18n/messages.js';
import { loadDetailsSteps, loadLaterSteps } from '../steps/steps.js';
import type { DetailsSteps, LaterSteps } from '../steps/steps.js';
import type { OrderTracker } from '../order/order-tracker.js';

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

export interface StepChunksOptions {
  /** Makes the order tracker with the later steps' chunk, once, as it arrives. */
  track(later: LaterSteps): OrderTracker;
  /** How long a server-drawn method screen (and `pay-ready`) may wait for what its tap opens; unset, `detailsWaitMs`. */
  waitMs(): number | undefined;
}

/**
 * What arrives after the first screen, and when: the details step's chunk, the later steps' chunk (and the order tracker
 * made with it) and the whole catalog of the locale. The details step and the catalog are asked for beside the link
 * call, at the element's first update (on the server-drawn page, which preloads them, that costs nothing): on a slow
 * line they arrive about with the link's answer, so a method tapped the moment the first screen is ready opens its
 * details at once; asked for after the first paint, they came a round trip after it (npm run bench -- --only vitals).
 * Its waits end on disconnect: a reconnect starts the flow again, and asks again.
 */
export class StepChunks implements ReactiveController {
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
  private _awaited = false;
  /** The waits: for asking for the later steps, and for what the method screen's tap opens. */
  private _laterTimer: ReturnType<typeof setTimeout> | undefined;
  private _waitTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { locale: string | undefined },
    private readonly options: StepChunksOptions,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this._laterTimer);
    clearTimeout(this._waitTimer);
    this._laterTimer = undefined;
  }

  /** The whole catalog, once here. */
  get catalog(): Messages | null {
    return isWholeCatalog(this.messages) ? this.messages : null;
  }

  /** Whether the method screen's tap has what it opens (the details step's chunk and the whole catalog), or waits no more. */
  get nextAtHand(): boolean {
    return this._awaited || (this.details !== undefined && this.catalog !== null);
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
   * tap. Pay, a resumed order and an unavailable link ask for the later steps at once. `linkHere`: the link is here
   * and the flow at its first screen: a server-drawn method screen (and any method screen's `pay-ready`) waits for the
   * details step's chunk and the catalog at most `detailsWaitMs` more, or until one fails.
   */
  wantSteps(linkHere = false): void {
    afterThisUpdate(() => this.loadDetails())
      .catch(() => this._stopAwaiting())
      .then(() => {
        // The first wait stands (a later call would only put the later steps off); none once the element left the
        // page (a reconnect asks again).
        if (this._laterTimer !== undefined || !this.host.isConnected) return;
        this._laterTimer = setTimeout(() => void this.loadLater().catch(noop), laterStepsDelayMs);
      })
      .catch(noop);
    if (linkHere && !this.nextAtHand) {
      clearTimeout(this._waitTimer);
      this._waitTimer = setTimeout(() => this._stopAwaiting(), this.options.waitMs() ?? detailsWaitMs);
    }
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
    this.tracker = this.options.track(later);
    // A step past the first screens may be waiting on loading for this chunk.
    this.host.requestUpdate();
    return this.tracker;
  }

  private _stopAwaiting(): void {
    if (this._awaited) return;
    this._awaited = true;
    this.host.requestUpdate();
  }
}
