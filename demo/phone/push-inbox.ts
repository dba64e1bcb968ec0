import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { SandboxOrder } from '../../src/contract/index.js';
import { describeError, sandbox } from '../shared/api.js';
import { announce, ordersChanged } from '../shared/events.js';
import { clockTime, money } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

/** Push notifications of the mobile wallet: one per order waiting for the buyer's approval. */
export class DemoPushInbox extends LightElement {
  @property({ attribute: false }) orders: readonly SandboxOrder[] = [];
  @state() private busy: number | null = null;
  @state() private error = '';

  private get waiting() {
    return this.orders.filter((o) => o.gateway_kind === 'push' && o.status === 'processing');
  }

  private async answer(order: SandboxOrder, approve: boolean) {
    this.busy = order.id_order;
    this.error = '';
    try {
      const updated = approve ? await sandbox.approve(order.id_order) : await sandbox.decline(order.id_order);
      announce(this, approve ? `Pago ${updated.id_order} aprobado.` : `Pago ${updated.id_order} rechazado.`);
    } catch (error) {
      this.error = `No se pudo responder el pago ${order.id_order}: ${describeError(error)}`;
    } finally {
      this.busy = null;
      ordersChanged(this);
    }
  }

  override render() {
    const waiting = this.waiting;
    return html`
      <h2 id="push-title">Notificaciones</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${waiting.length === 0
        ? html`<p class="empty">No hay cobros esperando tu aprobación.</p>`
        : html`<ul class="notifications" aria-labelledby="push-title">
            ${repeat(waiting, (o) => o.id_order, (o) => this.notification(o))}
          </ul>`}
    `;
  }

  private notification(o: SandboxOrder) {
    const amount = money(o.total, o.currency);
    const store = o.store_name ?? 'Comercio';
    const hint = o.next_action?.type === 'approve_push' ? o.next_action.phone_hint : o.phone;
    return html`<li class="notification" data-order=${o.id_order}>
      <p class="app-line"><span class="app-name">Nequi</span> <time datetime=${o.purchase_date}>${clockTime(o.purchase_date)}</time></p>
      <p class="headline"><strong>${store}</strong> te cobra <strong>${amount}</strong></p>
      <p class="muted">${o.description ?? ''} · pedido ${o.id_order}${hint ? ` · ${hint}` : ''}</p>
      <div class="actions">
        <button type="button" class="primary" ?disabled=${this.busy !== null} aria-label=${`Aprobar el pago ${o.id_order} de ${amount} a ${store}`} @click=${() => this.answer(o, true)}>
          Aprobar
        </button>
        <button type="button" ?disabled=${this.busy !== null} aria-label=${`Rechazar el pago ${o.id_order} de ${amount} a ${store}`} @click=${() => this.answer(o, false)}>
          Rechazar
        </button>
      </div>
    </li>`;
  }
}
defineOnce('demo-push-inbox', DemoPushInbox);

declare global {
  interface HTMLElementTagNameMap {
    'demo-push-inbox': DemoPushInbox;
  }
}
