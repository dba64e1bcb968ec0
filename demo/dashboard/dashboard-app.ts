import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { DeliveryRecord, SandboxOrder, Store } from '../../src/contract/index.js';
import { demoPartner, describeError, sandbox } from '../shared/api.js';
import { defineOnce, LightElement } from '../shared/light-element.js';
import { FlashController } from '../shared/flash.js';
import { PollingController } from '../shared/polling.js';
import './deliveries-list.js';
import './orders-table.js';
import './partner-panel.js';
import './sandbox-tools.js';

/**
 * The sandbox dashboard: orders, webhook deliveries, the partner's stores and the sandbox's controls, reloaded
 * together every `poll-ms` while the page is visible (0 turns polling off, e.g. in tests).
 */
export class DemoDashboard extends LightElement {
  @property({ type: Number, attribute: 'poll-ms' }) pollMs = 2000;
  @state() private orders: readonly SandboxOrder[] = [];
  @state() private deliveries: readonly DeliveryRecord[] = [];
  @state() private stores: readonly Store[] = [];
  @state() private forwardTargets: readonly string[] = [];
  @state() private loadError = '';
  private readonly flash = new FlashController(this);
  private readonly poller = new PollingController(this, () => this.load(), () => this.pollMs);

  /** Reloads everything now; resolves once it is rendered (children included). */
  async refresh(): Promise<void> {
    await this.poller.runNow();
    await this.updateComplete;
    const children = [...this.querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>('*')];
    await Promise.all(children.map((c) => c.updateComplete));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('demo-announce', this.onAnnounce);
    this.addEventListener('demo-orders-changed', this.onChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('demo-announce', this.onAnnounce);
    this.removeEventListener('demo-orders-changed', this.onChanged);
  }

  private readonly onAnnounce = (event: CustomEvent<{ message: string }>) => {
    this.flash.show(event.detail.message);
  };

  private readonly onChanged = () => void this.refresh();

  private async load() {
    const [orders, deliveries, stores, targets] = await Promise.allSettled([
      sandbox.orders(),
      sandbox.deliveries(),
      demoPartner.stores(),
      sandbox.forwardTargets(),
    ]);
    if (orders.status === 'fulfilled') this.orders = orders.value;
    if (deliveries.status === 'fulfilled') this.deliveries = deliveries.value;
    if (stores.status === 'fulfilled') this.stores = stores.value;
    if (targets.status === 'fulfilled') this.forwardTargets = targets.value;
    const failed = [orders, deliveries, stores, targets].find((r) => r.status === 'rejected');
    this.loadError = failed ? `No se pudo actualizar el panel: ${describeError(failed.reason)}` : '';
  }

  override render() {
    return html`
      <p class="error" role="alert">${this.loadError}</p>
      <p class="sr-only" role="status">${this.flash.message}</p>
      <p class="flash" aria-hidden="true" ?hidden=${!this.flash.message}>${this.flash.message}</p>
      <section class="card orders-card"><demo-orders-table .orders=${this.orders}></demo-orders-table></section>
      <div class="dashboard-columns">
        <section class="card"><demo-deliveries-list .deliveries=${this.deliveries}></demo-deliveries-list></section>
        <div class="side">
          <section class="card"><demo-sandbox-tools .forwardTargets=${this.forwardTargets}></demo-sandbox-tools></section>
          <section class="card"><demo-partner-panel .stores=${this.stores}></demo-partner-panel></section>
        </div>
      </div>
    `;
  }
}
defineOnce('demo-dashboard', DemoDashboard);

declare global {
  interface HTMLElementTagNameMap {
    'demo-dashboard': DemoDashboard;
  }
}
