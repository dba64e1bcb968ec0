import { html, isServer, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { FlowState, FlowStep } from '../flow/types.js';
import { spoken, withMoney } from './internal/spoken.js';
import { isWholeCatalog } from '../i18n/messages.js';
import type { FirstMessages, Messages } from '../i18n/messages.js';
import type { StatusTimings } from './internal/status-timings.js';
import { FlowRunner } from './controllers/flow-runner.js';
import { LiveRegion } from './controllers/live-region.js';
import { ServerScreen } from './controllers/server-screen.js';
import { StepChunks } from './controllers/step-chunks.js';
import { StepFocus } from './controllers/step-focus.js';
import { defineSteps } from './steps/steps.js';
import { dropServerShell, serverFirstScreen } from './internal/server-shell.js';
import { clientOptionsOf } from './controllers/flow-requests.js';
import { answering, shownState } from './internal/screen-policy.js';
import { stepTemplate } from './steps/step-template.js';
import { PayCheckoutSettings } from './pay-checkout-settings.js';
import { payCheckoutStyles } from './pay-checkout.styles.js';

/**
 * A checkout for one payment link: amount, payment method, buyer details, the
 * gateway's step (push approval, SMS code, transfer QR and key, card hand-off)
 * and the outcome. Speaks the buyer API only; never takes a merchant key.
 *
 * @summary Pay a payment link: Nequi push, Daviplata SMS code, Bre-B transfer or card.
 *
 * @fires {PayReadyEvent} pay-ready - The link loaded and its first screen answers at once. `detail.link`.
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
export class PayCheckout extends PayCheckoutSettings {
  static override styles = payCheckoutStyles;

  /**
   * Timings of the status checks (first wait, growth, cap, jitter); unset, the defaults (status-timings.ts), which
   * arrive with the later steps. Tests shorten them; pages should leave them alone.
   * @internal Test hook: not in the published types (stripInternal).
   */
  static statusTimings: StatusTimings | undefined;

  /**
   * How long a server-drawn method screen stays, and `pay-ready` waits, past the link's answer, while the details
   * step's chunk and the catalog arrive (250 ms unset). Tests change it; pages should leave it alone.
   * @internal Test hook: not in the published types (stripInternal).
   */
  static detailsWaitMs: number | undefined;

  /**
   * Sends the buyer to the card provider's page. Tests replace it to stay on the page.
   * @internal Test hook: not in the published types (stripInternal).
   */
  static navigate: (url: string) => void = (url) => location.assign(url);

  /** Which screen is showing (`loading`, `amount`, `method`, `details`, `push`, `otp`, `transfer`, `redirect`, `paid`…). */
  get step(): FlowStep {
    return this._shown().step;
  }

  // The element is the face: each job behind it is a controller, made here, but for the order's two (StatusChecks and
  // Countdown, order/), which the order tracker makes on this element as the later steps arrive (order-tracker.ts).
  // Lit runs their hooks in this order: the server's screen is marked first and interactive (server-screen.ts) before
  // focus moves and before the runner tells the page `pay-ready`, so the page's marks come before its event. Their
  // private members are TypeScript's `private _x`, never `#x`: for the first script's target (safari15) the bundler
  // lowers `#` fields to WeakMaps and helpers (+0.52 KB gzip when tried), which the first script has no room for.
  private readonly _live = new LiveRegion(this);
  private readonly _chunks = new StepChunks(this, {
    // The order tracker's one way into the flow and the page; the status checks' timings reach order/ through `hooks`.
    track: (later) =>
      new later.OrderTracker(
        this,
        {
          flow: () => this._runner.flow,
          send: (event) => this._runner.send(event),
          say: (text) => {
            const m = this._chunks.catalog;
            if (m) this._live.announce(text(m));
          },
          hooks: PayCheckout,
        },
        clientOptionsOf(this),
      ),
    waitMs: () => PayCheckout.detailsWaitMs,
  });
  /** Whether the screen on show answers a tap at once: what the `interactive` mark and `pay-ready` both wait for. */
  private readonly _answering = () => answering(this._shown(), this._chunks);
  private readonly _screen = new ServerScreen(this, { ready: () => this._shown().step !== 'loading', answering: this._answering });
  private readonly _focus = new StepFocus(this, { onScreen: () => (this._shown() === this._runner.flow ? this._runner.flow : undefined) });
  private readonly _runner: FlowRunner = new FlowRunner(this, this._chunks, {
    newScreen: (changed, focus) => {
      if (focus) this._focus.pending = true;
      // A new screen speaks through its focused heading: nothing said for the last one lingers or follows it.
      if (changed) this._live.announce('');
    },
    answering: this._answering,
  });

  /** The strings on screen; a server renderer hands over its locale's first screens (renderHostedPage). */
  private get messages(): FirstMessages | Messages {
    return this._chunks.messages;
  }
  private set messages(messages: FirstMessages | Messages) {
    this._chunks.messages = messages;
  }

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
    this._runner.reconnected();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // On a server the loading shell is rendered as is: no page to read the locale from, no request (the client starts).
    if (isServer) {
      defineSteps();
      // Drawn in the catalog the server hands over (renderHostedPage's English), else the bundled Spanish.
      this._chunks.wantedLocale = this.messages.locale;
      this._runner.flow = serverFirstScreen(this.linkData, this.link, this.methods) ?? this._runner.flow;
      return;
    }
    if (!this._runner.started && this.hasAttribute('defer-hydration')) return;
    if (changed.has('locale') || !this._runner.started) this._chunks.useLocale();
    this._runner.settingsChanged(changed.has('link') || changed.has('apiBase') || changed.has('environment'));
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // Without the page's link answer, a server shell goes unless Lit's hydrate support adopts it.
    const root = this._screen.adopt(this, PayCheckout.elementStyles);
    if (root) return root;
    dropServerShell(this);
    return super.createRenderRoot();
  }

  override render() {
    if (this._screen.showing) return nothing;
    const m = this.messages;
    const header = this._header();
    const step = html`<div part="step" @pay-step=${this._runner.onStep} @pay-announce=${this._live.onAnnounce} @pay-handoff=${this._runner.onHandoff}>${stepTemplate(this._shown(), this._chunks, this._chunks.tracker?.remainingMs ?? null, this)}</div>`;
    return html`<section class="base" part="base" aria-label=${m.checkoutLabel} lang=${m.locale === 'es' ? 'es-CO' : 'en'}>
      ${this.keyRefused && isWholeCatalog(m) ? html`<p class="config-error" part="config-error">${m.merchantKeyRefused}</p>` : nothing}
      ${header === nothing
        ? step
        : // Another template: the screens under a header are drawn anew, not moved down when it arrives (no layout shift).
          [header, step]}
      <div class="sr-only" part="live-region" role="status" aria-live="polite" aria-atomic="true">${this._live.message}</div>
    </section>`;
  }

  private _header(): TemplateResult | typeof nothing {
    const s = this._runner.flow;
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

  /** The state on screen: the flow's, or loading while the strings or the chunk of its step are on their way. */
  private _shown(): FlowState {
    return shownState(this._runner.flow, this._chunks, !isServer && this._screen.showing);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-checkout': PayCheckout;
  }
}
