import { LitElement, adoptStyles, html, isServer, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { ClientOptions, Environment } from '../client/send.js';
import type { CheckoutLink } from '../contract/checkout-link.js';
import { beforeOrderSteps, firstScreen, firstScreenSteps, initialState } from '../flow/first-screen.js';
import { toFlowError } from '../flow/errors.js';
import { onlyMethod } from '../flow/screens.js';
import { isNewRequest, orderOf } from '../flow/order-of.js';
import { summarizeProblems } from '../contract/problems.js';
import type { FlowError, FlowEvent, FlowRequest, FlowState, FlowStep } from '../flow/types.js';
import { esFirst } from '../i18n/es-first.js';
import { spoken, withMoney } from './internal/spoken.js';
import { firstMessages, loadMessages, resolveLocale } from '../i18n/locale.js';
import { isWholeCatalog } from '../i18n/messages.js';
import type { FirstMessages, Locale, Messages } from '../i18n/messages.js';
import type { StatusTimings } from './controllers/status-timings.js';
import { payErrorEvent } from './events/pay-error.js';
import type { PayErrorDetail } from './events/pay-error.js';
import { payReadyEvent } from './events/pay-ready.js';
import type { PayStepEvent } from './events/pay-step.js';
import type { PayAnnounceEvent } from './events/pay-announce.js';
import type { PayHandoffEvent } from './events/pay-handoff.js';
import { requestLink } from './internal/link-request.js';
import { defineSteps, loadDetailsSteps, loadLaterSteps } from './internal/steps.js';
import type { DetailsSteps, LaterSteps } from './internal/steps.js';
import type { OrderTracker } from './internal/order-tracker.js';
import type { StepElement } from './internal/step-element.js';
import { dropServerShell } from './internal/server-shell.js';
import { shownLink } from './internal/page-choices.js';
import type { ShopperPrefill } from './internal/prefill-of.js';
import { markFirstScreen } from './internal/user-timing.js';
import { keepsOrderOrReceipt } from './saved-keys.js';
import { payCheckoutStyles } from './pay-checkout.styles.js';

/**
 * Parts of the first screens' step elements (loading, error, amount, method), forwarded so `pay-checkout::part(button)`
 * reaches into them; the later steps forward theirs (later-steps.ts).
 */
const stepParts = 'heading, button, button-secondary, method, input, error, loading';

/** How long after the details step's chunk the later steps' is asked for (measured: npm run bench -- --only vitals). */
const laterStepsDelayMs = 600;

/** The steps before any order, where the order tracker has nothing to do: the details step's chunk can run them. */
const beforeTracker: readonly FlowStep[] = ['amount', 'method', 'details'];

/** What the later steps' chunk brings: the whole flow, and the tracker of the buyer's order. */
interface Later {
  transition: LaterSteps['transitionOnPage'];
  resume: LaterSteps['resumeSaved'];
  pageShow: LaterSteps['returnedFromCard'];
  template: LaterSteps['laterStepTemplate'];
  tracker: OrderTracker;
}

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
 * @csspart store-link - The receipt's way back to the store (`store-url`, else the link's `redirect_link`).
 * @csspart print-button - The receipt's print (or save as PDF) button.
 * @csspart change-method-button - "Change payment method" on the waiting screens.
 * @csspart config-error - The visible message when the page passed a merchant key.
 * @csspart live-region - The one polite live region (visually hidden).
 * @csspart amount-presets - The group of preset amounts (`amounts`) on the amount screen.
 * @csspart amount-preset - One preset amount (a radio shown as a button).
 * @csspart data-notice - Above the pay button (`privacy-url`): how the store processes the buyer's data.
 * @csspart consent - The personal-data consent box and its label (`consent="required"`).
 * @csspart consent-checkbox - The consent checkbox itself.
 * @csspart privacy-link - The link to the store's data-processing policy (opens in a new tab).
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
 * @cssprop [--pay-color-icon-backdrop=transparent] - Behind payment-method icons (light in dark mode, so dark brand tiles show).
 * @cssprop [--pay-radius=10px] - Corner radius.
 * @cssprop [--pay-font=system-ui] - Font family.
 * @cssprop [--pay-space=1rem] - Base spacing.
 * @cssprop [--pay-max-width=32rem] - The widest the checkout grows.
 * @cssprop [--pay-focus-ring=3px solid #2563eb] - The focus outline.
 */
export class PayCheckout extends LitElement {
  static override styles = payCheckoutStyles;

  // Declared here rather than with decorators: the first script then carries no decorator helpers.
  static override properties = {
    link: {},
    apiBase: { attribute: 'api-base' },
    environment: {},
    locale: {},
    returnUrl: { attribute: 'return-url' },
    botCheck: { attribute: 'bot-check' },
    storeUrl: { attribute: 'store-url' },
    idType: { attribute: 'id-type' },
    idNumber: { attribute: 'id-number' },
    phone: {},
    email: {},
    firstName: { attribute: 'first-name' },
    lastName: { attribute: 'last-name' },
    shopper: { attribute: false },
    methods: {},
    amounts: {},
    privacyUrl: { attribute: 'privacy-url' },
    consent: {},
    // `useDefault`: the default `auto` is not written onto the host, so server-rendered markup and the client agree.
    theme: { reflect: true, useDefault: true },
    merchantKey: { attribute: 'merchant-key' },
    linkData: { attribute: false },
    flow: { state: true },
    messages: { state: true },
    announcement: { state: true },
    keyRefused: { state: true },
  };

  /**
   * Timings of the status checks (first wait, growth, cap, jitter); unset, the defaults (status-timings.ts), which
   * arrive with the later steps. Tests shorten them; pages should leave them alone.
   * @internal Test hook: not in the published types (stripInternal).
   */
  static statusTimings: StatusTimings | undefined;

  /**
   * Sends the buyer to the card provider's page. Tests replace it to stay on the page.
   * @internal Test hook: not in the published types (stripInternal).
   */
  static navigate: (url: string) => void = (url) => location.assign(url);

  /** The payment link's hash. */
  link = '';

  /** The buyer API's base URL ending in `/v1` (the sandbox, a merchant proxy); defaults to production's. */
  apiBase: string | undefined;

  /** `production` or `development`: picks the default `api-base`. */
  environment: Environment = 'production';

  /** `es` (default) or `en`; without it, the closest `lang` in the page. */
  locale: string | undefined;

  /** Where the card provider sends the buyer back; defaults to this page. */
  returnUrl: string | undefined;

  /** A bot-check token (Turnstile, hCaptcha) from the page, sent with each new order as `X-Bot-Check`. */
  botCheck: string | undefined;

  /** The receipt's way back to the store; defaults to the link's `redirect_link` when the service gives one. */
  storeUrl: string | undefined;

  /**
   * The buyer's document type, if the store knows it: its code (`CC`, `CE`, `TI`, …) or numeric id. Like every
   * prefill, shown filled and editable on the details screen, checked by the same rules as typed values, sent with
   * the order, and never stored by the element. Read each time the details screen opens.
   */
  idType: string | undefined;

  /** The buyer's document number, if the store knows it (dots and spaces allowed). */
  idNumber: string | undefined;

  /** The buyer's mobile number, if the store knows it (10 digits starting with 3; `+57`, spaces and dashes allowed). */
  phone: string | undefined;

  /** The buyer's email, if the store knows it. */
  email: string | undefined;

  /** The buyer's first name, if the store knows it. */
  firstName: string | undefined;

  /** The buyer's last name, if the store knows it. */
  lastName: string | undefined;

  /**
   * The same prefill as one object, for frameworks: `{ id_type, id_number, phone_number, email, first_name,
   * last_name }`; an attribute given too wins over its field here.
   */
  shopper: ShopperPrefill | null | undefined;

  /**
   * The methods to show, in order, space-separated: kinds (`push`, `otp`, `transfer`, `card`) or names (`nequi`,
   * `daviplata`, `breb`, `card`). Methods not listed are not shown; an unknown word is ignored with a console warning;
   * a list that leaves none shows every method, and warns.
   */
  methods: string | undefined;

  /**
   * Preset amounts for a dynamic link, whole pesos, space-separated (`"20000 50000 100000"`): shown as choices beside
   * the amount field; a preset none of the link's methods takes is not shown.
   */
  amounts: string | undefined;

  /**
   * The store's personal-data policy (Ley 1581 de 2012): the details screen says, above the pay button, that the
   * buyer's data is processed under it, with a link (a new tab). `https:` only (`http:` only on loopback).
   */
  privacyUrl: string | undefined;

  /** `required`: the buyer must check a personal-data consent box before paying; unchecked, no order is made. */
  consent: 'required' | undefined;

  /** `light`, `dark`, or `auto` (follows the device). */
  theme: 'light' | 'dark' | 'auto' = 'auto';

  /**
   * The link answer (`GET /checkout/links/{hash}`'s `data`, or the whole `{ "data": … }`) the page's server already
   * fetched, so the element makes no link request; a `<script type="application/json">` child does the same. Used
   * only if it matches the contract, is for `link` and has not expired; otherwise the element asks the service.
   */
  linkData: unknown;

  /**
   * Refused: a merchant key is a server secret and must never reach a page. Setting
   * it logs an error and shows a message; the value is dropped and never sent.
   */
  set merchantKey(value: string | null | undefined) {
    if (value === null || value === undefined || value === '') return;
    this.keyRefused = true;
    console.error('<pay-checkout>: merchant key ignored. It is a server secret: remove it from the page and rotate it.');
  }
  get merchantKey(): string | undefined {
    return undefined;
  }

  /** Which screen is showing (`loading`, `amount`, `method`, `details`, `push`, `otp`, `transfer`, `redirect`, `paid`…). */
  get step(): FlowStep {
    return this._shown().step;
  }

  private flow: FlowState = initialState();
  /** The bundled first screens' strings, until the whole catalog of the locale arrives. */
  private messages: FirstMessages | Messages = esFirst;
  private announcement = '';
  private keyRefused = false;

  /** Bumped on each (re)start, so answers to an older run are dropped. */
  private _run = 0;
  private _abort = new AbortController();
  private _started = false;
  private _focusPending = false;
  private _announceTimer: ReturnType<typeof setTimeout> | undefined;
  /** The locale asked for; until its lazy catalog arrives the loading screen stays, so no screen flips language. */
  private _wantedLocale: Locale = 'es';
  /** The later steps' chunk, once here. */
  private _later: Later | undefined;
  /** The details step's chunk, once here: the details screen before the later steps (issue 31). */
  private _details: DetailsSteps | undefined;
  private _wantLater: (() => void) | undefined;
  /** The page's link answer is offered to the first link load only; a retry asks the service. */
  private _pageLinkTaken = false;
  /** A server-rendered first screen (declarative shadow DOM), kept on screen until the client has its own. */
  private _serverScreen: ChildNode[] | undefined;
  /** Whether the server drew the first screen; unset once the first screen past loading is marked (user-timing.ts). */
  private _firstScreen: boolean | undefined = false;
  /**
   * Resolves when the later steps and the whole catalog are wanted: a frame after the element's first paint (its
   * loading screen, or the server's first screen), or at once when a step past it needs them (a resumed order).
   */
  private _laterWanted = new Promise<void>((resolve) => (this._wantLater = resolve));

  // `defer-hydration` (set by pay-checkout/react until React has hydrated, and by Lit SSR on nested elements): the
  // element shows its loading shell and starts only once the attribute goes, so no event fires before listeners exist.
  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'defer-hydration'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'defer-hydration' && value === null) this.requestUpdate();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    defineSteps();
    if (isServer) return; // a server (Lit SSR with `connectedCallback: true`) has no window
    window.addEventListener('pageshow', this._onPageShow);
    // A move in the DOM disconnects and reconnects: start again, resuming any saved order.
    if (this._started) this._start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this._onPageShow);
    this._abort.abort();
    this._later?.tracker.stopChecks();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // On a server the loading shell is rendered as is: no page to read the locale from, no request (the client starts).
    if (isServer) {
      defineSteps();
      // Drawn in the catalog the server hands over (renderHostedPage's English), else the bundled Spanish.
      this._wantedLocale = this.messages.locale;
      // A server that hands over the link renders its first screen (renderHostedPage checks the answer first).
      const link = this.linkData as CheckoutLink | undefined;
      const first = link?.hash === this.link && Array.isArray(link.gateways) ? firstScreen(initialState(), { type: 'link_loaded', link: shownLink(link, this.methods) }) : undefined;
      // A link with one method opens on its details, a later step: the server draws the loading shell then.
      if (first && !onlyMethod(first)) this.flow = first;
      return;
    }
    if (!this._started && this.hasAttribute('defer-hydration')) return;
    if (changed.has('locale') || !this._started) this._useLocale();
    if (!this._started || changed.has('link') || changed.has('apiBase') || changed.has('environment')) {
      this._started = true;
      this._start();
    }
  }

  protected override updated(): void {
    // Past the first paint, not in the same task: the next screens are here by the time a quick buyer taps (issue 31).
    const wantLater = this._wantLater;
    if (wantLater) {
      this._wantLater = undefined;
      requestAnimationFrame(() => setTimeout(wantLater));
      setTimeout(wantLater, 250); // a hidden tab runs no frames
    }
    if (this._firstScreen !== undefined && this._shown().step !== 'loading') {
      markFirstScreen(this._firstScreen);
      this._firstScreen = undefined;
    }
    // Focus waits until the step is on screen (not the loading screen a lazy chunk may hold it on).
    if (!this._focusPending || this._shown() !== this.flow) return;
    this._focusPending = false;
    const step = this.renderRoot.querySelector<StepElement<unknown, FirstMessages>>('[data-step]');
    if (!step) return;
    const details = this.flow.step === 'details' && this.flow.focus ? this.flow.focus : null;
    // A lazy step may not be defined yet: wait for it, then for its render.
    void customElements
      .whenDefined(step.localName)
      .then(() => step.updateComplete)
      .then(() => {
        if (details && 'focusField' in step) (step as StepElement<unknown, FirstMessages> & { focusField(f: string): void }).focusField(details);
        else void step.focusHeading();
      });
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // A server-rendered page that carries the link answer: its first screen stays until the element has checked that
    // answer (no flash of the loading screen); without one, a server shell goes unless Lit's hydrate support adopts it.
    const root = isServer ? null : this.shadowRoot;
    if (root && this.querySelector(':scope > script[type="application/json"]')) {
      this._serverScreen = [...root.childNodes];
      this._firstScreen = true;
      adoptStyles(root, PayCheckout.elementStyles);
      return root;
    }
    dropServerShell(this);
    return super.createRenderRoot();
  }

  protected override update(changed: PropertyValues<this>): void {
    if (this._serverScreen && this._shown().step !== 'loading') {
      for (const node of this._serverScreen) node.remove();
      this._serverScreen = undefined;
    }
    super.update(changed);
  }

  override render() {
    if (this._serverScreen) return nothing;
    const m = this.messages;
    const header = this._header();
    return html`<section class="base" part="base" aria-label=${m.checkoutLabel} lang=${m.locale === 'es' ? 'es-CO' : 'en'}>
      ${this.keyRefused && isWholeCatalog(m) ? html`<p class="config-error" part="config-error">${m.merchantKeyRefused}</p>` : nothing}
      ${header === nothing
        ? html`<div part="step" @pay-step=${this._onStep} @pay-announce=${this._onAnnounce} @pay-handoff=${this._onHandoff}>${this._step()}</div>`
        : // Another template: the screens under a header are drawn anew, not moved down when it arrives (no layout shift).
          [header, html`<div part="step" @pay-step=${this._onStep} @pay-announce=${this._onAnnounce} @pay-handoff=${this._onHandoff}>${this._step()}</div>`]}
      <div class="sr-only" part="live-region" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
    </section>`;
  }

  private _header(): TemplateResult | typeof nothing {
    const s = this.flow;
    const link = 'link' in s ? s.link : null;
    if (!link || s.step === 'unavailable') return nothing;
    const amount = 'amount' in s && typeof s.amount === 'number' ? s.amount : link.amount ?? null;
    const m = this.messages;
    return html`<header part="header">
      <p class="store" part="store">${link.store_name}</p>
      ${link.description ? html`<p class="description" part="description">${link.description}</p>` : nothing}
      ${amount !== null && s.step !== 'amount'
        ? // Paid: the receipt says "Total pagado" too, so screen readers hear it there only.
          html`<p class="amount" part="amount" aria-hidden=${s.step === 'paid' ? 'true' : 'false'}>
            <span>${s.step === 'paid' && isWholeCatalog(m) ? m.receipt.totalPaid : m.total}</span
            ><strong>${spoken(withMoney((money) => money(amount), link.currency, m))}</strong>
          </p>`
        : nothing}
    </header>`;
  }

  /**
   * The state on screen: the flow's, or loading while the asked-for catalog is on its way (for the steps after
   * the first screens: the whole catalog, and their chunk).
   */
  private _shown(): FlowState {
    const m = this.messages;
    // A link that cannot be paid is rare: its screen and strings come with the later steps.
    const first = beforeOrderSteps.includes(this.flow.step) && this.flow.step !== 'unavailable';
    const steps = this._later ?? (this.flow.step === 'details' ? this._details : undefined);
    const ready = m.locale === this._wantedLocale && (first || (isWholeCatalog(m) && steps !== undefined));
    return ready ? this.flow : { step: 'loading', request: null };
  }

  private _step(): TemplateResult {
    const m = this.messages;
    const s = this._shown();
    switch (s.step) {
      case 'loading':
      case 'error':
        return html`<pay-step-status data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-status>`;
      case 'amount':
        return html`<pay-step-amount data-step exportparts=${stepParts} .state=${s} .messages=${m} .presets=${this.amounts}></pay-step-amount>`;
      case 'method':
        return html`<pay-step-method data-step exportparts=${stepParts} .state=${s} .messages=${m}></pay-step-method>`;
    }
    // `_shown()` keeps the later steps on loading until the whole catalog and their chunk are here.
    const later = this._later;
    if (!later && s.step === 'details' && this._details && isWholeCatalog(m)) return this._details.detailsStepTemplate(s, m, this);
    if (!later || !isWholeCatalog(m)) return html`<pay-step-status data-step exportparts=${stepParts} .state=${{ step: 'loading', request: null }} .messages=${m}></pay-step-status>`;
    return later.template(s, m, later.tracker.remainingMs, this);
  }

  // -------------------------------------------------------------------------
  // Running the flow

  /** (Re)starts for the current link: resume the saved order if there is one, else load the link. */
  private _start(): void {
    this._run += 1;
    this._abort.abort();
    this._abort = new AbortController();
    this._later?.tracker.restart(this._clientOptions());
    this.flow = initialState();
    if (!this.link) {
      this._apply({ step: 'loading', request: null }, { type: 'link_failed', error: { category: 'service', status: 404 } });
      return;
    }
    // The later steps, the whole flow and the order tracker follow the first interactive screen (which needs none
    // of them), long before the buyer leaves it; a resumed order asks for them at once.
    this._wantSteps();
    if (this.flow.request) void this._perform(this.flow.request, this._run);
  }

  /** The link answer the page carries (`linkData`, else a JSON script child), offered once. */
  private _pageLink(): unknown {
    if (this._pageLinkTaken) return undefined;
    this._pageLinkTaken = true;
    if (this.linkData !== undefined) return this.linkData;
    const script = this.querySelector(':scope > script[type="application/json"]');
    try {
      return script ? (JSON.parse(script.textContent ?? '') as unknown) : undefined;
    } catch {
      return undefined; // not JSON: refused like any other unfit answer
    }
  }

  private _clientOptions(): ClientOptions {
    // A relative `api-base` ("/v1") means this page's own origin.
    const options: ClientOptions = { environment: this.environment };
    if (this.apiBase) options.baseUrl = new URL(this.apiBase, location.href).href;
    return options;
  }

  /**
   * The steps past the first screen, once wanted: the details step's small chunk first, alone on a slow line (a quick
   * tap needs it); the later steps a moment after, so running their chunk (a long task on a slow phone) does not hold
   * up that tap. Pay, a resumed order and an unavailable link ask for the later steps at once.
   */
  private _wantSteps(): void {
    const later = () => new Promise((go) => setTimeout(go, laterStepsDelayMs)).then(() => this._loadLater());
    void this._laterWanted.then(() => this._loadDetails()).then(later, later).catch(() => undefined);
  }

  /** The details step's chunk (memoized): what the buyer needs up to submitting the order. */
  private async _loadDetails(): Promise<DetailsSteps> {
    const details = await loadDetailsSteps();
    if (!this._details) {
      this._details = details;
      // A method tapped on the first screen may be waiting for it.
      this.requestUpdate();
    }
    return details;
  }

  /** The later steps' chunk (memoized); the first call also makes the order tracker. */
  private async _loadLater(): Promise<Later> {
    this._wantLater?.(); // whoever needs the later steps now needs the whole catalog too
    const later = await loadLaterSteps();
    if (this._later) return this._later;
    this._later = {
      transition: later.transitionOnPage,
      resume: later.resumeSaved,
      pageShow: later.returnedFromCard,
      template: later.laterStepTemplate,
      tracker: new later.OrderTracker(
        this,
        {
          link: () => this.link,
          flow: () => this.flow,
          send: (event) => this._send(event),
          announce: (message) => this._announce(message),
          catalog: () => (isWholeCatalog(this.messages) ? this.messages : null),
          statusTimings: () => PayCheckout.statusTimings,
          navigate: (url) => PayCheckout.navigate(url),
          botCheck: () => this.botCheck,
        },
        this._clientOptions(),
      ),
    };
    // A step past the first screens may be waiting on loading for this chunk.
    this.requestUpdate();
    return this._later;
  }

  /**
   * Resumes a saved order (a reload, the card page's return), or shows this device's receipt of the link again (a
   * reload after paying): the link at once, reading the saved order and the rest with the later steps.
   */
  private async _resume(run: number): Promise<void> {
    const signal = this._abort.signal;
    const current = () => run === this._run && !signal.aborted;
    const shown = (l: CheckoutLink) => shownLink(l, this.methods);
    const link = requestLink(this._clientOptions(), this.link, signal, this._pageLink()).then(shown);
    link.catch(() => undefined); // read by the later steps, once here
    let later: Later;
    try {
      later = await this._loadLater();
    } catch (error) {
      // The later steps could not be fetched (offline): the error screen, whose retry resumes again.
      if (current()) this._send({ type: 'resume_failed', error: toFlowError(error) });
      return;
    }
    if (!current()) return;
    const context = { signal, current, options: this._clientOptions(), tracker: later.tracker, timings: PayCheckout.statusTimings, shown };
    later.resume({ ...context, send: (event: FlowEvent) => this._send(event), loadLink: () => void this._perform({ kind: 'load_link' }, run) }, this.link, link);
  }

  /** Hands an event to the flow and carries out what the new state asks for. */
  private _send(event: FlowEvent): void {
    this._apply(this.flow, event);
  }

  /** The flow's answer; undefined when the step is past the first screens and its chunk is not here yet. */
  private _next(prev: FlowState, event: FlowEvent): FlowState | undefined {
    if (this._later) return this._later.transition(prev, event, this);
    // Up to submitting the order, the details step's chunk answers; what needs the order tracker waits for the later steps.
    if (this._details && event.type !== 'resumed' && (prev.step === 'loading' || beforeTracker.includes(prev.step))) {
      const next = this._details.transitionOnPage(prev, event, this);
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
    const next = this._next(prev, event);
    if (!next) {
      // Answered once the details step's chunk is here, or else the later steps' (usually long before the buyer gets this far).
      const run = this._run;
      void (this._details ? this._loadLater() : this._loadDetails()).then(
        () => run === this._run && this._send(event),
        () => undefined,
      );
      return;
    }
    if (next === prev) return;
    this.flow = next;
    const stepChanged = prev.step !== next.step || orderOf(prev)?.id_order !== orderOf(next)?.id_order;
    // Focus follows the buyer's own progress, never the first screen after loading (the page owns focus then), but
    // the outcome of a card payment met on coming back from the provider's page.
    const backFromCard = (event.type === 'resumed' && event.returnedFromCard) || event.type === 'returned_from_card';
    if ((stepChanged && prev.step !== 'loading') || backFromCard) this._focusPending = true;
    // A new screen speaks through its focused heading: nothing said for the last one lingers or follows it.
    if (stepChanged) this._announce('');
    // Normally here since the first paint; if that fetch failed (offline), a new screen is the moment to try again.
    if (prev.step === 'loading' && next.step !== 'loading') this._wantSteps();
    // A link that cannot be paid shows with the later steps' chunk: fetch it now, not after a first screen.
    if (next.step === 'unavailable') void this._loadLater().catch(() => undefined);
    if (event.type === 'link_loaded' || event.type === 'resumed' || event.type === 'receipt_restored') this.dispatchEvent(payReadyEvent({ link: event.link }));
    // Order events, the saved order, the countdown and the status checks.
    this._later?.tracker.after(next, event);
    if (next.step === 'error' && prev.step !== 'error') this.dispatchEvent(payErrorEvent(errorDetail(next.error)));
    if (isNewRequest(prev, next) && next.request) void this._perform(next.request, this._run);
  }

  private async _perform(request: FlowRequest, run: number): Promise<void> {
    const signal = this._abort.signal;
    const answer = (event: FlowEvent) => {
      if (run === this._run && !signal.aborted) this._send(event);
    };
    if (request.kind === 'load_link') {
      // A saved order for this link (a reload, the card page's return, a retry after a failed resume): resume it.
      if (keepsOrderOrReceipt(this.link)) return this._resume(run);
      return requestLink(this._clientOptions(), this.link, signal, this._pageLink()).then(
        (link) => answer({ type: 'link_loaded', link: shownLink(link, this.methods) }),
        (e: unknown) => {
          if (!signal.aborted) answer({ type: 'link_failed', error: toFlowError(e) });
        },
      );
    }
    let tracker: OrderTracker;
    try {
      ({ tracker } = await this._loadLater());
    } catch {
      // The order code could not be fetched (offline): the outcome is as unknown as a network error's.
      return answer({ type: 'order_failed', error: { category: 'network' } });
    }
    if (run === this._run && !signal.aborted) return tracker.perform(request, signal);
  }

  // -------------------------------------------------------------------------
  // What the page learns: the live region

  private _announce(message: string): void {
    // Emptied 7 s after it is set (screen readers have it by then), so browse mode never meets an old message; the
    // same words again are emptied a moment first, so they speak again.
    clearTimeout(this._announceTimer);
    const again = message !== '' && message === this.announcement;
    this.announcement = again ? '' : message;
    this._announceTimer = setTimeout(() => (again ? this._announce(message) : (this.announcement = '')), again ? 100 : 7000);
  }

  private _useLocale(): void {
    const locale = resolveLocale(this.locale, this);
    this._wantedLocale = locale;
    if (locale === this.messages.locale && isWholeCatalog(this.messages)) return;
    // Every locale's first screens are bundled; the whole catalog is a lazy chunk that waits for the first interactive
    // screen, like the later steps.
    if (locale !== this.messages.locale) this.messages = firstMessages[locale];
    void this._laterWanted.then(() => loadMessages(locale)).then(
      (messages) => {
        if (resolveLocale(this.locale, this) === messages.locale) this.messages = messages;
      },
      () => undefined,
    );
  }

  private readonly _onStep = (e: PayStepEvent) => {
    e.stopPropagation();
    let event = e.detail.event;
    if (event.type === 'details_submitted' && !event.returnUrl) {
      event = { ...event, returnUrl: this.returnUrl || location.href.split('#')[0] };
    }
    this._send(event);
  };

  private readonly _onAnnounce = (e: PayAnnounceEvent) => {
    e.stopPropagation();
    this._announce(e.detail.message);
  };

  private readonly _onHandoff = (e: PayHandoffEvent) => {
    e.stopPropagation();
    this._later?.tracker.handOff(e.detail.url);
  };

  // Back from the card page through the back/forward cache: the element was never re-created (a redirect means the
  // later steps are here).
  private readonly _onPageShow = (e: PageTransitionEvent) => e.persisted && this._later?.pageShow(this.flow, this.link, () => this._send({ type: 'returned_from_card' }));
}

/** `pay-error`'s detail, with a plain-English line for listeners' logs. */
function errorDetail(error: FlowError): PayErrorDetail {
  const detail: PayErrorDetail = { kind: error.category, message: errorText(error) };
  if (error.code !== undefined) detail.code = error.code;
  return detail;
}

function errorText(error: FlowError): string {
  switch (error.category) {
    case 'network':
      return 'The payment service could not be reached.';
    case 'invalid_response':
      // Where it broke, so a developer behind a proxy that rewrites answers sees what changed.
      return `The payment service sent a response that does not match the contract${error.problems ? `: ${summarizeProblems(error.problems)}` : ''}.`;
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
