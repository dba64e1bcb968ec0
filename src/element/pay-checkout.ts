import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { CheckoutClient } from '../client/checkout-client.js';
import type { Environment } from '../client/http.js';
import type { CheckoutOrder } from '../contract/checkout.js';
import { expiresAtOf, hasOrder, initialState, isNewRequest, isWaiting, orderOf, toFlowError, transition } from '../flow/index.js';
import type { FlowError, FlowEvent, FlowRequest, FlowState, FlowStep, ResultState } from '../flow/types.js';
import { es } from '../i18n/es.js';
import { formatMoney } from '../i18n/format.js';
import { loadMessages, resolveLocale } from '../i18n/locale.js';
import type { Locale, Messages } from '../i18n/messages.js';
import { CountdownController } from './controllers/countdown-controller.js';
import { StatusController } from './controllers/status-controller.js';
import { defaultStatusTimings } from './controllers/status-timings.js';
import type { StatusTimings } from './controllers/status-timings.js';
import { payCancelledEvent } from './events/pay-cancelled.js';
import { payErrorEvent } from './events/pay-error.js';
import { payFailedEvent } from './events/pay-failed.js';
import type { PayFailedDetail } from './events/pay-failed.js';
import { payOrderCreatedEvent } from './events/pay-order-created.js';
import { payPaidEvent } from './events/pay-paid.js';
import { payReadyEvent } from './events/pay-ready.js';
import { payStatusChangeEvent } from './events/pay-status-change.js';
import type { PayStepEvent } from './events/pay-step.js';
import type { PayAnnounceEvent } from './events/pay-announce.js';
import type { PayHandoffEvent } from './events/pay-handoff.js';
import { defineSteps, loadLaterSteps } from './internal/steps.js';
import type { StepElement } from './internal/step-element.js';
import { clearSavedOrder, readSavedOrder, saveOrder } from './session.js';
import type { SavedOrder } from './session.js';
import { payCheckoutStyles } from './pay-checkout.styles.js';

/** Parts of the step elements, forwarded so `pay-checkout::part(button)` reaches into every screen. */
const stepParts =
  'heading, button, button-secondary, pay-button, cancel-button, method, input, otp-input, error, error-summary, notice, countdown, qr, transfer-key, copy-button, card-link, result, receipt, loading, unavailable';

const resultSteps: readonly FlowState['step'][] = ['paid', 'declined', 'cancelled', 'expired'];
const isResult = (s: FlowState): s is ResultState => resultSteps.includes(s.step);

/**
 * A checkout for one payment link: amount, payment method, buyer details, the
 * gateway's step (push approval, SMS code, transfer QR and key, card hand-off)
 * and the outcome. Speaks the buyer API only; never takes a merchant key.
 *
 * @summary Pay a payment link: Nequi push, Daviplata SMS code, Bre-B transfer or card.
 *
 * @fires {PayReadyEvent} pay-ready - The link loaded. `detail.link`.
 * @fires {PayOrderCreatedEvent} pay-order-created - The order exists. `detail: {id_order, gateway}`.
 * @fires {PayStatusChangeEvent} pay-status-change - The order's status changed. `detail: {id_order, status, previous}`.
 * @fires {PayPaidEvent} pay-paid - Paid. `detail: {id_order, amount, currency, gateway}`.
 * @fires {PayFailedEvent} pay-failed - Declined, expired or too many wrong codes. `detail: {id_order, reason}`.
 * @fires {PayCancelledEvent} pay-cancelled - Cancelled by the buyer or the merchant, or refunded. `detail: {id_order, reason}`.
 * @fires {PayErrorEvent} pay-error - A request failed and the buyer sees the error screen. `detail: {kind, message, code?}`.
 *
 * @csspart base - The frame around everything.
 * @csspart header - Store name, description and amount.
 * @csspart store - The store name.
 * @csspart description - The link's description.
 * @csspart amount - The amount to pay.
 * @csspart step - The box holding the current screen.
 * @csspart heading - Each screen's heading.
 * @csspart button - Primary buttons (continue, pay, confirm, try again).
 * @csspart button-secondary - Secondary buttons (back, cancel, copy, change number).
 * @csspart pay-button - The pay button on the details screen.
 * @csspart cancel-button - The cancel button on waiting screens.
 * @csspart method - One payment method on the method screen.
 * @csspart input - Text inputs and selects.
 * @csspart otp-input - The SMS code input.
 * @csspart error - A field or screen error message.
 * @csspart error-summary - The list of errors on the details screen.
 * @csspart notice - A passing notice on a waiting screen.
 * @csspart countdown - The visible countdown.
 * @csspart qr - The transfer QR code.
 * @csspart transfer-key - The transfer key and its copy button.
 * @csspart copy-button - The copy button of the transfer key.
 * @csspart card-link - The link to the card provider's page.
 * @csspart result - The outcome screen.
 * @csspart receipt - The paid receipt.
 * @csspart config-error - The visible message when the page passed a merchant key.
 * @csspart live-region - The one polite live region (visually hidden).
 *
 * @cssprop [--pay-color-primary=#1d4ed8] - Buttons, links, focus accents.
 * @cssprop [--pay-color-on-primary=#ffffff] - Text on primary buttons.
 * @cssprop [--pay-color-text=#111827] - Body text.
 * @cssprop [--pay-color-muted=#4b5563] - Hints and secondary text.
 * @cssprop [--pay-color-background=#ffffff] - The frame's background.
 * @cssprop [--pay-color-surface=#ffffff] - Inputs and method buttons.
 * @cssprop [--pay-color-border=#e5e7eb] - Light borders.
 * @cssprop [--pay-color-border-strong=#6b7280] - Input borders.
 * @cssprop [--pay-color-danger=#b91c1c] - Errors.
 * @cssprop [--pay-color-success=#15803d] - The paid badge.
 * @cssprop [--pay-color-notice-bg=#f3f4f6] - Notices.
 * @cssprop [--pay-radius=10px] - Corner radius.
 * @cssprop [--pay-font=system-ui] - Font family.
 * @cssprop [--pay-space=1rem] - Base spacing.
 * @cssprop [--pay-max-width=32rem] - The widest the checkout grows.
 * @cssprop [--pay-focus-ring=3px solid #2563eb] - The focus outline.
 */
export class PayCheckout extends LitElement {
  static override styles = payCheckoutStyles;

  /**
   * Timings of the status checks (first wait, growth, cap, jitter). Tests shorten
   * them; pages should leave them alone.
   */
  static statusTimings: StatusTimings = defaultStatusTimings;

  /** Sends the buyer to the card provider's page. Tests replace it to stay on the page. */
  static navigate: (url: string) => void = (url) => location.assign(url);

  /** The payment link's hash. */
  @property() link = '';

  /** The buyer API's base URL ending in `/v1` (the sandbox, a merchant proxy); defaults to production's. */
  @property({ attribute: 'api-base' }) apiBase: string | undefined;

  /** `production` or `development`: picks the default `api-base`. */
  @property() environment: Environment = 'production';

  /** `es` (default) or `en`; without it, the closest `lang` in the page. */
  @property() locale: string | undefined;

  /** Where the card provider sends the buyer back; defaults to this page. */
  @property({ attribute: 'return-url' }) returnUrl: string | undefined;

  /** `light`, `dark`, or `auto` (follows the device). */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' = 'auto';

  /**
   * Refused: a merchant key is a server secret and must never reach a page. Setting
   * it logs an error and shows a message; the value is dropped and never sent.
   */
  @property({ attribute: 'merchant-key' })
  set merchantKey(value: string | null | undefined) {
    if (value === null || value === undefined || value === '') return;
    this.keyRefused = true;
    console.error(
      '<pay-checkout>: a merchant key was given to the element and has been ignored. It is a server secret: ' +
        'remove it from the page and rotate it. The element only needs the link hash.',
    );
  }
  get merchantKey(): string | undefined {
    return undefined;
  }

  /** Which screen is showing (`loading`, `amount`, `method`, `details`, `push`, `otp`, `transfer`, `redirect`, `paid`…). */
  get step(): FlowStep {
    return this.#shown().step;
  }

  @state() private flow: FlowState = initialState();
  @state() private messages: Messages = es;
  @state() private announcement = '';
  @state() private keyRefused = false;

  #client = new CheckoutClient();
  /** Bumped on each (re)start, so answers to an older run are dropped. */
  #run = 0;
  #abort = new AbortController();
  #started = false;
  #focusPending = false;
  /** The locale asked for; until its lazy catalog arrives the loading screen stays, so no screen flips language. */
  #wantedLocale: Locale = 'es';
  /** Server clock minus this device's, measured when an order is created; countdowns subtract it. */
  #skewMs = 0;
  /** Per order: the last status reported in `pay-status-change`, and outcomes already reported. */
  #lastStatus = new Map<number, CheckoutOrder['status']>();
  #reported = new Set<number>();

  readonly #status = new StatusController(this, {
    check: (signal) => this.#checkStatus(signal),
    timings: () => PayCheckout.statusTimings,
  });

  readonly #countdown = new CountdownController(this, {
    onMilestone: (seconds) => this.#announce(this.messages.countdown.milestone(seconds)),
    onEnd: () => this.#send({ type: 'time_up' }),
  });

  override connectedCallback(): void {
    super.connectedCallback();
    defineSteps();
    window.addEventListener('pageshow', this.#onPageShow);
    // A move in the DOM disconnects and reconnects: start again, resuming any saved order.
    if (this.#started) this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.#onPageShow);
    this.#abort.abort();
    this.#status.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') || !this.#started) this.#useLocale();
    if (!this.#started || changed.has('link') || changed.has('apiBase') || changed.has('environment')) {
      this.#started = true;
      this.#start();
    }
  }

  protected override updated(): void {
    if (!this.#focusPending) return;
    this.#focusPending = false;
    const step = this.renderRoot.querySelector<StepElement<unknown>>('[data-step]');
    if (!step) return;
    const details = this.flow.step === 'details' && this.flow.focus ? this.flow.focus : null;
    // A lazy step may not be defined yet: wait for it, then for its render.
    void customElements
      .whenDefined(step.localName)
      .then(() => step.updateComplete)
      .then(() => {
        if (details && 'focusField' in step) (step as StepElement<unknown> & { focusField(f: string): void }).focusField(details);
        else void step.focusHeading();
      });
  }

  override render() {
    const m = this.messages;
    return html`<section class="base" part="base" aria-label=${m.checkoutLabel} lang=${m.locale === 'es' ? 'es-CO' : 'en'}>
      ${this.keyRefused ? html`<p class="config-error" part="config-error">${m.merchantKeyRefused}</p>` : nothing}
      ${this.#header()}
      <div part="step" @pay-step=${this.#onStep} @pay-announce=${this.#onAnnounce} @pay-handoff=${this.#onHandoff}>
        ${this.#step()}
      </div>
      <div class="sr-only" part="live-region" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
    </section>`;
  }

  #header(): TemplateResult | typeof nothing {
    const s = this.flow;
    const link = 'link' in s ? s.link : null;
    if (!link || s.step === 'unavailable') return nothing;
    const amount = 'amount' in s && typeof s.amount === 'number' ? s.amount : link.amount ?? null;
    return html`<header part="header">
      <p class="store" part="store">${link.store_name}</p>
      ${link.description ? html`<p class="description" part="description">${link.description}</p>` : nothing}
      ${amount !== null && s.step !== 'amount'
        ? html`<p class="amount" part="amount">
            <span>${this.messages.total}</span><strong>${formatMoney(amount, link.currency, this.messages.locale)}</strong>
          </p>`
        : nothing}
    </header>`;
  }

  /** The state on screen: the flow's, or loading while the asked-for catalog is still on its way. */
  #shown(): FlowState {
    return this.messages.locale === this.#wantedLocale ? this.flow : { step: 'loading', request: null };
  }

  #step(): TemplateResult {
    const m = this.messages;
    const s = this.#shown();
    const left = this.#countdown.remainingMs;
    switch (s.step) {
      case 'loading':
      case 'unavailable':
      case 'error':
      case 'processing':
        return html`<pay-step-status data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-status>`;
      case 'amount':
        return html`<pay-step-amount data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-amount>`;
      case 'method':
        return html`<pay-step-method data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-method>`;
      case 'details':
        return html`<pay-step-details data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-details>`;
      case 'push':
        return html`<pay-step-push data-step exportparts=${stepParts} .state=${s} .messages=${m} .remainingMs=${left}></pay-step-push>`;
      case 'otp':
        return html`<pay-step-otp data-step exportparts=${stepParts} .state=${s} .messages=${m} .remainingMs=${left}></pay-step-otp>`;
      case 'transfer':
        return html`<pay-step-transfer data-step exportparts=${stepParts} .state=${s} .messages=${m} .remainingMs=${left}></pay-step-transfer>`;
      case 'redirect':
        return html`<pay-step-card data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-card>`;
      case 'paid':
      case 'declined':
      case 'cancelled':
      case 'expired':
        return html`<pay-step-result data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-result>`;
    }
  }

  // -------------------------------------------------------------------------
  // Running the flow

  /** (Re)starts for the current link: resume the saved order if there is one, else load the link. */
  #start(): void {
    this.#run += 1;
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#status.stop();
    this.#countdown.set(null);
    this.#client = new CheckoutClient({ baseUrl: this.#baseUrl(), environment: this.environment });
    this.flow = initialState();
    if (!this.link) {
      this.#apply({ step: 'loading', request: null }, { type: 'link_failed', error: { category: 'service', status: 404 } });
      return;
    }
    const saved = readSavedOrder(this.link);
    if (saved) void this.#resume(saved, this.#run);
    else if (this.flow.request) void this.#perform(this.flow.request, this.#run);
  }

  #baseUrl(): string | undefined {
    if (!this.apiBase) return undefined;
    // A relative `api-base` ("/v1") means this page's own origin.
    return new URL(this.apiBase, location.href).href;
  }

  async #resume(saved: SavedOrder, run: number): Promise<void> {
    const signal = this.#abort.signal;
    this.#skewMs = saved.skew_ms ?? 0;
    try {
      const [link, order] = await Promise.all([
        this.#client.getLink(saved.hash, { signal }),
        this.#client.getOrder(saved.id_order, saved.order_token, { signal }),
      ]);
      if (run !== this.#run) return;
      this.#send({ type: 'resumed', link, order, orderToken: saved.order_token, returnedFromCard: saved.handed_off === true });
    } catch (thrown) {
      if (run !== this.#run) return;
      const error = toFlowError(thrown);
      // The saved order is gone or not ours any more: forget it and start fresh.
      if (error.category === 'service') clearSavedOrder(saved.hash);
      const request = this.flow.request;
      if (request) void this.#perform(request, run);
    }
  }

  /** Hands an event to the flow and carries out what the new state asks for. */
  #send(event: FlowEvent): void {
    this.#apply(this.flow, event);
  }

  #apply(prev: FlowState, event: FlowEvent): void {
    const next = transition(prev, event);
    if (next === prev) return;
    this.flow = next;
    const stepChanged = prev.step !== next.step || orderOf(prev)?.id_order !== orderOf(next)?.id_order;
    // Focus follows the buyer's own progress, never the first screen after loading (the page owns focus then).
    if (stepChanged && prev.step !== 'loading') this.#focusPending = true;
    // The first screen is up: fetch the later steps now, before the buyer needs them.
    if (prev.step === 'loading' && next.step !== 'loading') void loadLaterSteps();
    this.#report(prev, next, event);
    this.#keepSession(next, event);
    if (event.type === 'order_created') this.#skewMs = skewOf(event.order.created_at);
    this.#countdown.set(expiresAtOf(next), this.#skewMs);
    if (isWaiting(next)) this.#status.start();
    else this.#status.stop();
    if (isNewRequest(prev, next) && next.request) void this.#perform(next.request, this.#run);
  }

  async #perform(request: FlowRequest, run: number): Promise<void> {
    const signal = this.#abort.signal;
    const hash = this.link;
    const answer = (event: FlowEvent) => {
      if (run === this.#run && !signal.aborted) this.#send(event);
    };
    const failed = (thrown: unknown, type: 'link_failed' | 'order_failed') => {
      if (!signal.aborted) answer({ type, error: toFlowError(thrown) });
    };
    switch (request.kind) {
      case 'load_link':
        return this.#client.getLink(hash, { signal }).then(
          (link) => answer({ type: 'link_loaded', link }),
          (e: unknown) => failed(e, 'link_failed'),
        );
      case 'create_order':
        return this.#client.createOrder(hash, request.body, request.idempotencyKey, { signal }).then(
          (order) => answer({ type: 'order_created', order }),
          (e: unknown) => failed(e, 'order_failed'),
        );
      case 'submit_otp':
        return this.#client.submitOtp(request.id_order, request.order_token, request.code, { signal }).then(
          (order) => answer({ type: 'status_received', order }),
          (e: unknown) => failed(e, 'order_failed'),
        );
      case 'cancel_order':
        return this.#client.cancelOrder(request.id_order, request.order_token, { signal }).then(
          (order) => answer({ type: 'status_received', order }),
          (e: unknown) => failed(e, 'order_failed'),
        );
      case 'check_status':
        // Through the one status controller, so a poll already in flight answers it.
        return this.#status.checkNow(true);
    }
  }

  /** One status check of the order on screen; its answer goes to the flow. */
  async #checkStatus(signal: AbortSignal): Promise<{ ok: boolean }> {
    const state = this.flow;
    if (!hasOrder(state)) return { ok: true };
    const run = this.#run;
    const id = state.order.id_order;
    const current = () => run === this.#run && !signal.aborted && orderOf(this.flow)?.id_order === id;
    try {
      const order = await this.#client.getOrder(id, state.orderToken, { signal });
      if (current()) this.#send({ type: 'status_received', order });
      return { ok: true };
    } catch (thrown) {
      if (current()) this.#send({ type: 'status_failed', error: toFlowError(thrown) });
      return { ok: false };
    }
  }

  // -------------------------------------------------------------------------
  // What the page learns: events, session, live region

  #report(prev: FlowState, next: FlowState, event: FlowEvent): void {
    if (event.type === 'link_loaded' || event.type === 'resumed') this.dispatchEvent(payReadyEvent({ link: event.link }));
    if (event.type === 'order_created') {
      this.dispatchEvent(payOrderCreatedEvent({ id_order: event.order.id_order, gateway: event.order.gateway }));
    }
    const order = orderOf(next);
    if (order) {
      const previous = this.#lastStatus.get(order.id_order) ?? null;
      if (previous !== order.status) {
        this.#lastStatus.set(order.id_order, order.status);
        this.dispatchEvent(payStatusChangeEvent({ id_order: order.id_order, status: order.status, previous }));
      }
    }
    if (isResult(next) && !this.#reported.has(next.order.id_order)) {
      this.#reported.add(next.order.id_order);
      this.dispatchEvent(outcomeEvent(next));
    }
    if (next.step === 'error' && prev.step !== 'error') {
      const detail: { kind: FlowError['category']; message: string; code?: number } = {
        kind: next.error.category,
        message: errorText(next.error),
      };
      if (next.error.code !== undefined) detail.code = next.error.code;
      this.dispatchEvent(payErrorEvent(detail));
    }
  }

  #keepSession(next: FlowState, event: FlowEvent): void {
    if (event.type === 'order_created') {
      saveOrder({ hash: this.link, id_order: event.order.id_order, order_token: event.order.order_token, skew_ms: this.#skewMs });
    } else if (isResult(next)) {
      // The receipt stays on screen; a reload starts afresh instead of resuming a finished order.
      clearSavedOrder(this.link);
    }
  }

  #announce(message: string): void {
    // Clearing first makes the same words ("Copiado") speak again.
    this.announcement = '';
    requestAnimationFrame(() => (this.announcement = message));
  }

  #useLocale(): void {
    const locale = resolveLocale(this.locale, this);
    this.#wantedLocale = locale;
    if (locale === this.messages.locale) return;
    void loadMessages(locale).then((messages) => {
      if (resolveLocale(this.locale, this) === messages.locale) this.messages = messages;
    });
  }

  readonly #onStep = (e: PayStepEvent) => {
    e.stopPropagation();
    let event = e.detail.event;
    if (event.type === 'details_submitted' && !event.returnUrl) {
      event = { ...event, returnUrl: this.returnUrl || location.href.split('#')[0] };
    }
    this.#send(event);
  };

  readonly #onAnnounce = (e: PayAnnounceEvent) => {
    e.stopPropagation();
    this.#announce(e.detail.message);
  };

  readonly #onHandoff = (e: PayHandoffEvent) => {
    e.stopPropagation();
    const saved = readSavedOrder(this.link);
    if (saved) saveOrder({ ...saved, handed_off: true });
    PayCheckout.navigate(e.detail.url);
  };

  readonly #onPageShow = (e: PageTransitionEvent) => {
    // Back from the card page through the back/forward cache: the element was never re-created.
    if (e.persisted && this.flow.step === 'redirect' && readSavedOrder(this.link)?.handed_off) {
      this.#send({ type: 'returned_from_card' });
    }
  };
}

/** Server time minus device time, from a timestamp the server just made; 0 when unreadable. */
function skewOf(serverNow: string): number {
  const server = Date.parse(serverNow);
  return Number.isNaN(server) ? 0 : server - Date.now();
}

function outcomeEvent(state: ResultState): Event {
  const { order } = state;
  const id_order = order.id_order;
  switch (state.step) {
    case 'paid':
      return payPaidEvent({ id_order, amount: order.amount, currency: order.currency, gateway: order.gateway });
    case 'declined':
      return payFailedEvent({ id_order, reason: 'declined' });
    case 'expired':
      return payFailedEvent({ id_order, reason: 'expired' });
    case 'cancelled': {
      if (order.cancel_reason === 'otp_attempts') return payFailedEvent({ id_order, reason: 'otp_attempts' satisfies PayFailedDetail['reason'] });
      if (order.status === 'refunded') return payCancelledEvent({ id_order, reason: 'refunded' });
      return payCancelledEvent({ id_order, reason: order.cancel_reason === 'merchant' ? 'merchant' : 'buyer' });
    }
  }
}

/** A plain-English line for `pay-error` listeners' logs. */
function errorText(error: FlowError): string {
  switch (error.category) {
    case 'network':
      return 'The payment service could not be reached.';
    case 'invalid_response':
      return 'The payment service sent a response that does not match the contract.';
    case 'config':
      return 'The checkout is misconfigured (link, api-base) or hit a bug.';
    case 'service':
      return `The payment service refused the request${error.apiCode ? ` (${error.apiCode})` : ''}.`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
