import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SandboxOrder } from '../../src/contract/index.js';
import { describeError, sandbox } from '../shared/api.js';
import { hourMinute, money } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';
import { FlashController } from '../shared/flash.js';
import { PollingController } from '../shared/polling.js';
import './bank-app.js';
import './push-inbox.js';
import './sms-inbox.js';

/**
 * The phone simulator: push approvals, the SMS inbox and the bank app, fed by one poll of the sandbox's
 * orders (every `poll-ms` while the page is visible; 0 turns polling off, e.g. in tests).
 */
export class DemoPhone extends LightElement {
  @property({ type: Number, attribute: 'poll-ms' }) pollMs = 1500;
  @state() private orders: readonly SandboxOrder[] = [];
  @state() private loadError = '';
  @state() private now = new Date();
  private seenPushes: Set<number> | null = null;
  private readonly flash = new FlashController(this);
  private readonly poller = new PollingController(this, () => this.load(), () => this.pollMs);

  /** Reloads the orders now; resolves once they are rendered. */
  async refresh(): Promise<void> {
    await this.poller.runNow();
    await this.updateComplete;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('demo-announce', this.onAnnounce);
    this.addEventListener('demo-orders-changed', this.onOrdersChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('demo-announce', this.onAnnounce);
    this.removeEventListener('demo-orders-changed', this.onOrdersChanged);
  }

  private readonly onAnnounce = (event: CustomEvent<{ message: string }>) => {
    this.flash.show(event.detail.message);
  };

  private readonly onOrdersChanged = () => void this.refresh();

  private async load() {
    try {
      this.orders = await sandbox.orders();
      this.loadError = '';
      this.announceNewPushes();
    } catch (error) {
      this.loadError = `No se pudieron leer los pedidos: ${describeError(error)}`;
    }
    this.now = new Date();
  }

  // A new notification is announced once; the first load only remembers what is already there.
  private announceNewPushes() {
    const pushes = this.orders.filter((o) => o.gateway_kind === 'push' && o.status === 'processing');
    const fresh = this.seenPushes ? pushes.filter((o) => !this.seenPushes!.has(o.id_order)) : [];
    this.seenPushes = new Set([...(this.seenPushes ?? []), ...pushes.map((o) => o.id_order)]);
    const first = fresh[0];
    if (first) this.flash.show(`Nueva notificación: ${first.store_name ?? 'un comercio'} te cobra ${money(first.total, first.currency)}.`);
  }

  override render() {
    return html`
      <div class="phone" role="group" aria-label="Teléfono simulado">
        <div class="status-bar" aria-hidden="true"><span>${hourMinute(this.now)}</span><span>5G ▮▮▮</span></div>
        ${this.loadError ? html`<p class="error" role="alert">${this.loadError}</p>` : nothing}
        <section class="app push" aria-labelledby="push-title">
          <demo-push-inbox .orders=${this.orders}></demo-push-inbox>
        </section>
        <section class="app sms" aria-labelledby="sms-title">
          <demo-sms-inbox .orders=${this.orders}></demo-sms-inbox>
        </section>
        <section class="app bank" aria-label="App del banco">
          <demo-bank-app></demo-bank-app>
        </section>
        <p class="sr-only" role="status" aria-live="polite">${this.flash.message}</p>
        <p class="toast" aria-hidden="true" ?hidden=${!this.flash.message}>${this.flash.message}</p>
      </div>
    `;
  }
}
defineOnce('demo-phone', DemoPhone);

declare global {
  interface HTMLElementTagNameMap {
    'demo-phone': DemoPhone;
  }
}
