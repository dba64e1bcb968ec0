import { isServer } from 'lit';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ClientOptions, Environment } from '../../client/send.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { firstScreen, firstScreenSteps, initialState } from '../../flow/first-screen.js';
import { toFlowError } from '../../flow/errors.js';
import { onlyMethod } from '../../flow/screens.js';
import { isNewRequest, orderOf } from '../../flow/order-of.js';
import type { FlowEvent, FlowRequest, FlowState, FlowStep } from '../../flow/types.js';
import { errorDetail, payErrorEvent } from '../events/pay-error.js';
import { payReadyEvent } from '../events/pay-ready.js';
import type { PayHandoffEvent } from '../events/pay-handoff.js';
import type { PayStepEvent } from '../events/pay-step.js';
import { requestLink } from '../internal/link-request.js';
import { shownLink } from '../internal/page-choices.js';
import type { PagePrefill } from '../internal/prefill-of.js';
import { keepsOrderOrReceipt } from '../saved-keys.js';
import type { LiveRegion } from './live-region.js';
import type { StepChunks } from './step-chunks.js';
import type { StepFocus } from './step-focus.js';
import type { StatusTimings } from '../internal/status-timings.js';

/** The buyer API's base URL a server put beside the script it served (`pay-checkout serve`'s `/pay-checkout.js`). */
const servedApiBase = Symbol.for('pay-checkout.api-base');

/** The steps before any order, where the order tracker has nothing to do: the details step's chunk can run them. */
const beforeTracker: readonly FlowStep[] = ['amount', 'method', 'details'];

/** What the runner reads from `<pay-checkout>`: its public settings. */
export interface CheckoutPage extends ReactiveControllerHost, HTMLElement, PagePrefill {
  link: string;
  returnUrl: string | undefined;
  apiBase: string | undefined;
  environment: Environment;
  botCheck: string | undefined;
  methods: string | undefined;
  linkData: unknown;
}

/** The element's test hooks: its class's static `statusTimings` and `navigate`, read when used. */
export interface RunnerHooks {
  readonly statusTimings: StatusTimings | undefined;
  navigate(url: string): void;
}

/**
 * Runs the flow: hands each event to it, keeps its state, and performs each request it makes (the link, the saved
 * order, the order calls through the order tracker), all under one AbortController and one run counter, so a new
 * link, a move in the DOM or a removal drops every older answer. The order tracker speaks to the flow through it.
 */
export class FlowRunner implements ReactiveController {
  /** The flow's state (the one on screen once its strings and chunk are here). */
  flow: FlowState = initialState();
  /** Bumped on each (re)start, so answers to an older run are dropped. */
  private _run = 0;
  private _abort = new AbortController();
  /** Started once the page's settings first applied (not while `defer-hydration` holds it). */
  started = false;
  /** The page's link answer is offered to the first link load only; a retry asks the service. */
  private _pageLinkTaken = false;
  /** The link loaded (or an order resumed) whose screen the page has not yet heard `pay-ready` for. */
  private _readyLink: CheckoutLink | undefined;

  // Public: the order tracker reads the page, the live region, the catalog and the test hooks through the runner.
  constructor(
    readonly host: CheckoutPage,
    readonly chunks: StepChunks,
    readonly live: LiveRegion,
    private readonly focus: StepFocus,
    readonly hooks: RunnerHooks,
  ) {
    host.addController(this);
  }

  options(): ClientOptions {
    // A relative `api-base` ("/v1") means this page's own origin. Without one, the buyer API the script was served
    // beside, where its server said so (`pay-checkout serve` writes it into its copy of the script), so the embed
    // needs no `api-base` on another origin.
    const options: ClientOptions = { environment: this.host.environment };
    const served = (globalThis as { [servedApiBase]?: unknown })[servedApiBase];
    const base = this.host.apiBase || (typeof served === 'string' ? served : undefined);
    if (base) options.baseUrl = new URL(base, location.href).href;
    return options;
  }

  hostConnected(): void {
    if (!isServer) window.addEventListener('pageshow', this._onPageShow); // a server (Lit SSR) has no window
  }

  /**
   * A move in the DOM disconnects and reconnects: start again, resuming any saved order. Called by the element once
   * connected, after the order tracker's own controllers reconnected (as they did before it: they stop on restart).
   */
  reconnected(): void {
    if (!isServer && this.started) this.start();
  }

  /**
   * The first screen past loading is on show and a tap on it opens the next at once (`StepChunks.answersAtOnce`): the
   * page hears `pay-ready` (after the `interactive` mark, server-screen.ts).
   */
  hostUpdated(): void {
    const link = this._readyLink;
    const shown = this.chunks.shown(this.flow);
    if (!link || shown.step === 'loading' || !this.chunks.answersAtOnce(shown)) return;
    this._readyLink = undefined;
    this.host.dispatchEvent(payReadyEvent({ link }));
  }

  hostDisconnected(): void {
    window.removeEventListener('pageshow', this._onPageShow);
    this._abort.abort();
    this.chunks.tracker?.stopChecks();
  }

  /** Starts when the page's settings first apply, and again for a new link or service. */
  settingsChanged(restart: boolean): void {
    if (this.started && !restart) return;
    this.started = true;
    this.start();
  }

  /** (Re)starts for the current link: resume the saved order if there is one, else load the link. */
  start(): void {
    this._run += 1;
    this._abort.abort();
    this._abort = new AbortController();
    this.chunks.tracker?.restart(this.options());
    this.flow = initialState();
    this._readyLink = undefined;
    if (!this.host.link) {
      this._apply({ step: 'loading', request: null }, { type: 'link_failed', error: { category: 'service', status: 404 } });
      return;
    }
    // The later steps, the whole flow and the order tracker follow the first interactive screen (which needs none
    // of them), long before the buyer leaves it; a resumed order asks for them at once.
    this.chunks.wantSteps();
    if (this.flow.request) void this._perform(this.flow.request, this._run);
  }

  /** Hands an event to the flow and carries out what the new state asks for. */
  send(event: FlowEvent): void {
    this._apply(this.flow, event);
  }

  /** A step's event (`pay-step`) for the flow; paying takes the page's `return-url`, else this page. */
  readonly onStep = (e: PayStepEvent) => {
    e.stopPropagation();
    let event = e.detail.event;
    if (event.type === 'details_submitted' && !event.returnUrl) {
      event = { ...event, returnUrl: this.host.returnUrl || location.href.split('#')[0] };
    }
    this.send(event);
  };

  /** The card step's link was followed (`pay-handoff`; the later steps are here: the card step is one of them). */
  readonly onHandoff = (e: PayHandoffEvent) => {
    e.stopPropagation();
    this.chunks.tracker?.handOff(e.detail.url);
  };

  /** The link answer the page carries (`linkData`, else a JSON script child), offered once. */
  private _pageLink(): unknown {
    if (this._pageLinkTaken) return undefined;
    this._pageLinkTaken = true;
    if (this.host.linkData !== undefined) return this.host.linkData;
    const script = this.host.querySelector(':scope > script[type="application/json"]');
    try {
      return script ? (JSON.parse(script.textContent ?? '') as unknown) : undefined;
    } catch {
      return undefined; // not JSON: refused like any other unfit answer
    }
  }

  private _shown = (link: CheckoutLink) => shownLink(link, this.host.methods);

  /**
   * Resumes a saved order (a reload, the card page's return), or shows this device's receipt of the link again (a
   * reload after paying): the link at once, reading the saved order and the rest with the later steps.
   */
  private async _resume(run: number): Promise<void> {
    const signal = this._abort.signal;
    const current = () => run === this._run && !signal.aborted;
    const link = requestLink(this.options(), this.host.link, signal, this._pageLink()).then(this._shown);
    link.catch(() => undefined); // read by the later steps, once here
    let tracker;
    try {
      tracker = await this.chunks.loadLater();
    } catch (error) {
      // The later steps could not be fetched (offline): the error screen, whose retry resumes again.
      if (current()) this.send({ type: 'resume_failed', error: toFlowError(error) });
      return;
    }
    if (!current()) return;
    const context = { signal, current, options: this.options(), tracker, timings: this.hooks.statusTimings, shown: this._shown };
    this.chunks.later?.resumeSaved({ ...context, send: (event: FlowEvent) => this.send(event), loadLink: () => void this._perform({ kind: 'load_link' }, run) }, this.host.link, link);
  }

  /** The flow's answer; undefined when the step is past the first screens and its chunk is not here yet. */
  private _next(prev: FlowState, event: FlowEvent): FlowState | undefined {
    const { later, details } = this.chunks;
    if (later) return later.transitionOnPage(prev, event, this.host);
    // Up to submitting the order, the details step's chunk answers; what needs the order tracker waits for the later steps.
    if (details && event.type !== 'resumed' && (prev.step === 'loading' || beforeTracker.includes(prev.step))) {
      const next = details.transitionOnPage(prev, event, this.host);
      if (beforeTracker.includes(next.step)) return next;
    }
    // The amount and method screens' answers to the buyer arrive with the later steps (loaded once the first is on screen).
    if (event.type !== 'resumed' && firstScreenSteps.includes(prev.step)) {
      const next = firstScreen(prev, event) ?? prev;
      // A link whose one method takes the amount opens its details: the later steps' work (they check the prefill).
      if (!onlyMethod(next)) return next;
    }
    return undefined;
  }

  private _apply(prev: FlowState, event: FlowEvent): void {
    const { chunks, host } = this;
    const next = this._next(prev, event);
    if (!next) {
      // Answered once the details step's chunk is here, or else the later steps' (usually long before the buyer gets this far).
      const run = this._run;
      void (chunks.details ? chunks.loadLater() : chunks.loadDetails()).then(
        () => run === this._run && this.send(event),
        () => undefined,
      );
      return;
    }
    if (next === prev) return;
    this.flow = next;
    host.requestUpdate();
    const stepChanged = prev.step !== next.step || orderOf(prev)?.id_order !== orderOf(next)?.id_order;
    // Focus follows the buyer's own progress, never the first screen after loading (the page owns focus then), but
    // the outcome of a card payment met on coming back from the provider's page.
    const backFromCard = (event.type === 'resumed' && event.returnedFromCard) || event.type === 'returned_from_card';
    if ((stepChanged && prev.step !== 'loading') || backFromCard) this.focus.pending = true;
    // A new screen speaks through its focused heading: nothing said for the last one lingers or follows it.
    if (stepChanged) this.live.announce('');
    // Normally here since the first paint; if that fetch failed (offline), a new screen is the moment to try again.
    if (prev.step === 'loading' && next.step !== 'loading') {
      chunks.wantSteps();
      chunks.linkHere();
    }
    // A link that cannot be paid shows with the later steps' chunk: fetch it now, not after a first screen.
    if (next.step === 'unavailable') void chunks.loadLater().catch(() => undefined);
    // `pay-ready` once that screen is on show (hostUpdated): the method screen may wait a moment for its next screen.
    if (event.type === 'link_loaded' || event.type === 'resumed' || event.type === 'receipt_restored') this._readyLink = event.link;
    // Order events, the saved order, the countdown and the status checks.
    chunks.tracker?.after(next, event);
    if (next.step === 'error' && prev.step !== 'error') host.dispatchEvent(payErrorEvent(errorDetail(next.error)));
    if (isNewRequest(prev, next) && next.request) void this._perform(next.request, this._run);
  }

  private async _perform(request: FlowRequest, run: number): Promise<void> {
    const signal = this._abort.signal;
    const answer = (event: FlowEvent) => {
      if (run === this._run && !signal.aborted) this.send(event);
    };
    if (request.kind === 'load_link') {
      // A saved order for this link (a reload, the card page's return, a retry after a failed resume): resume it.
      if (keepsOrderOrReceipt(this.host.link)) return this._resume(run);
      return requestLink(this.options(), this.host.link, signal, this._pageLink()).then(
        (link) => answer({ type: 'link_loaded', link: this._shown(link) }),
        (e: unknown) => {
          if (!signal.aborted) answer({ type: 'link_failed', error: toFlowError(e) });
        },
      );
    }
    let tracker;
    try {
      tracker = await this.chunks.loadLater();
    } catch {
      // The order code could not be fetched (offline): the outcome is as unknown as a network error's.
      return answer({ type: 'order_failed', error: { category: 'network' } });
    }
    if (run === this._run && !signal.aborted) return tracker.perform(request, signal);
  }

  // Back from the card page through the back/forward cache: the element was never re-created (a redirect means the
  // later steps are here).
  private readonly _onPageShow = (e: PageTransitionEvent) => e.persisted && this.chunks.later?.returnedFromCard(this.flow, this.host.link, () => this.send({ type: 'returned_from_card' }));
}
