import { isServer } from 'lit';
import type { ReactiveController } from 'lit';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { initialState } from '../../flow/first-screen.js';
import { isNewRequest, orderOf } from '../../flow/order-of.js';
import type { FlowEvent, FlowRequest, FlowState } from '../../flow/types.js';
import { errorDetail, payErrorEvent } from '../events/pay-error.js';
import { payReadyEvent } from '../events/pay-ready.js';
import type { PayHandoffEvent } from '../events/pay-handoff.js';
import type { PayStepEvent } from '../events/pay-step.js';
import { clientOptionsOf, performRequest, withReturnUrl } from './flow-requests.js';
import type { CheckoutPage, StepSource } from './flow-requests.js';
import { linkOnPage } from '../internal/link-request.js';
import { nextState } from './next-state.js';

/** What the runner needs of the element around it, besides the steps (`StepSource`). */
export interface FlowRunnerOptions {
  /** A new screen is on its way (`changed`: another step or order), `focus`: its heading takes focus once on show. */
  newScreen(changed: boolean, focus: boolean): void;
  /** Whether the screen on show answers a tap at once (screen-policy.ts's `answering`): `pay-ready` waits for it. */
  answering(): boolean;
}

/**
 * Runs the flow: hands each event to it, keeps its state, and performs each request it makes (the link, the saved
 * order, the order calls through the order tracker), all under one AbortController and one run counter, so a new
 * link, a move in the DOM or a removal drops every older answer.
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

  constructor(
    private readonly host: CheckoutPage,
    private readonly steps: StepSource,
    private readonly options: FlowRunnerOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    if (!isServer) window.addEventListener('pageshow', this._onPageShow); // a server (Lit SSR) has no window
  }

  /** A move in the DOM disconnects and reconnects: start again (the element calls it once connected), resuming any saved order. */
  reconnected(): void {
    if (!isServer && this.started) this.start();
  }

  /** The first screen past loading is on show and answers a tap at once: the page hears `pay-ready`. */
  hostUpdated(): void {
    const link = this._readyLink;
    if (!link || !this.options.answering()) return;
    this._readyLink = undefined;
    this.host.dispatchEvent(payReadyEvent({ link }));
  }

  hostDisconnected(): void {
    window.removeEventListener('pageshow', this._onPageShow);
    this._abort.abort();
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
    this.steps.tracker?.restart(clientOptionsOf(this.host));
    this.flow = initialState();
    this._readyLink = undefined;
    if (!this.host.link) {
      this._apply({ step: 'loading', request: null }, { type: 'link_failed', error: { category: 'service', status: 404 } });
      return;
    }
    // The later steps, the whole flow and the order tracker follow the first interactive screen (which needs none
    // of them), long before the buyer leaves it; a resumed order asks for them at once.
    this.steps.wantSteps(false);
    if (this.flow.request) this._perform(this.flow.request);
  }

  /** Hands an event to the flow and carries out what the new state asks for. */
  readonly send = (event: FlowEvent): void => this._apply(this.flow, event);

  /** A step's event (`pay-step`) for the flow; paying takes the page's `return-url`, else this page. */
  readonly onStep = (e: PayStepEvent) => {
    e.stopPropagation();
    this.send(withReturnUrl(e.detail.event, this.host));
  };

  /** The card step's link was followed (`pay-handoff`; the later steps are here: the card step is one of them). */
  readonly onHandoff = (e: PayHandoffEvent) => {
    e.stopPropagation();
    this.steps.tracker?.handOff(e.detail.url);
  };

  /** The link answer the page carries, offered to the first link load only. */
  private _pageLink = (): unknown => {
    if (this._pageLinkTaken) return undefined;
    this._pageLinkTaken = true;
    return linkOnPage(this.host);
  };

  private _apply(prev: FlowState, event: FlowEvent): void {
    const { steps, options, host } = this;
    const next = nextState(prev, event, steps, host);
    if (!next) {
      // Answered once the details step's chunk is here, or else the later steps' (usually long before the buyer gets this far).
      const run = this._run;
      void (steps.details ? steps.loadLater() : steps.loadDetails()).then(
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
    if (stepChanged || backFromCard) options.newScreen(stepChanged, (stepChanged && prev.step !== 'loading') || backFromCard);
    // Normally here since the first paint; if that fetch failed (offline), a new screen is the moment to try again.
    if (prev.step === 'loading' && next.step !== 'loading') steps.wantSteps(true);
    // A link that cannot be paid shows with the later steps' chunk: fetch it now, not after a first screen.
    if (next.step === 'unavailable') void steps.loadLater().catch(() => undefined);
    // `pay-ready` once that screen is on show (hostUpdated): the method screen may wait a moment for its next screen.
    if (event.type === 'link_loaded' || event.type === 'resumed' || event.type === 'receipt_restored') this._readyLink = event.link;
    // Order events, the saved order, the countdown and the status checks.
    steps.tracker?.after(next, event);
    if (next.step === 'error' && prev.step !== 'error') host.dispatchEvent(payErrorEvent(errorDetail(next.error)));
    if (isNewRequest(prev, next) && next.request) this._perform(next.request);
  }

  private _perform(request: FlowRequest): void {
    const run = this._run;
    const signal = this._abort.signal;
    const current = () => run === this._run && !signal.aborted;
    void performRequest(request, { page: this.host, signal, current, send: this.send, options: clientOptionsOf(this.host), pageLink: this._pageLink, steps: this.steps });
  }

  // Back from the card page through the back/forward cache: the element was never re-created (a redirect means the
  // later steps are here).
  private readonly _onPageShow = (e: PageTransitionEvent) => e.persisted && this.steps.later?.returnedFromCard(this.flow, this.host.link, () => this.send({ type: 'returned_from_card' }));
}
