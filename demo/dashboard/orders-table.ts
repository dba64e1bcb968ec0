import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { SandboxOrder } from '../../src/contract/index.js';
import { demoMerchant, describeError } from '../shared/api.js';
import { announce, ordersChanged } from '../shared/events.js';
import { dateTime, money, statusLabels } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

const cancellable = (o: SandboxOrder) => o.status === 'pending' || o.status === 'processing';
const refundable = (o: SandboxOrder) => o.status === 'confirmed';

/** Every order of the sandbox with its status; refund and cancel go through the merchant API, as a merchant's server would. */
export class DemoOrdersTable extends LightElement {
  @property({ attribute: false }) orders: readonly SandboxOrder[] = [];
  @state() private busy: number | null = null;
  @state() private error = '';

  private async act(order: SandboxOrder, action: 'refund' | 'cancel') {
    this.busy = order.id_order;
    this.error = '';
    try {
      if (action === 'refund') {
        const result = await demoMerchant.refund(order.id_order);
        announce(this, `Pedido ${order.id_order}: ${result}`);
      } else {
        await demoMerchant.cancel(order.id_order);
        announce(this, `Pedido ${order.id_order} cancelado.`);
      }
    } catch (error) {
      this.error = `${action === 'refund' ? 'Reembolso' : 'Cancelación'} del pedido ${order.id_order} rechazado: ${describeError(error)}`;
    } finally {
      this.busy = null;
      ordersChanged(this);
    }
  }

  override render() {
    return html`
      <h2 id="orders-title">Pedidos</h2>
      <p class="error" role="alert">${this.error}</p>
      ${this.orders.length === 0
        ? html`<p class="empty">Todavía no hay pedidos. Paga en la <a href="./merchant.html">página del comercio</a>.</p>`
        : html`<div class="table-scroll" role="region" aria-labelledby="orders-title" tabindex="0">
            <table class="orders">
              <thead>
                <tr>
                  <th scope="col">Pedido</th>
                  <th scope="col">Comercio y concepto</th>
                  <th scope="col">Medio</th>
                  <th scope="col" class="num">Valor</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Acciones</th>
                </tr>
              </thead>
              <tbody>
                ${repeat(this.orders, (o) => o.id_order, (o) => this.row(o))}
              </tbody>
            </table>
          </div>`}
    `;
  }

  private row(o: SandboxOrder) {
    return html`<tr data-order=${o.id_order} data-status=${o.status}>
      <th scope="row">
        ${o.id_order}
        <span class="muted block"><time datetime=${o.purchase_date}>${dateTime(o.purchase_date)}</time></span>
      </th>
      <td>
        ${o.store_name ?? `tienda ${o.id_store}`}
        <span class="muted block">${o.description ?? ''}${o.link_hash ? html` · enlace <code>${o.link_hash}</code>` : nothing} · ${o.source}</span>
      </td>
      <td data-label="Medio">${o.payment_method?.gateway ?? o.gateway_kind} <span class="muted block">${o.gateway_kind}</span></td>
      <td class="num" data-label="Valor">${money(o.total, o.currency)}</td>
      <td data-label="Estado">
        <span class="status status-${o.status}">${statusLabels[o.status] ?? o.status}</span>
        ${o.cancel_reason ? html`<span class="muted block">${o.cancel_reason}</span>` : nothing}
      </td>
      <td class="row-actions">
        ${refundable(o)
          ? html`<button type="button" ?disabled=${this.busy !== null} aria-label=${`Reembolsar el pedido ${o.id_order}`} @click=${() => this.act(o, 'refund')}>
              Reembolsar
            </button>`
          : nothing}
        ${cancellable(o)
          ? html`<button type="button" class="danger" ?disabled=${this.busy !== null} aria-label=${`Cancelar el pedido ${o.id_order}`} @click=${() => this.act(o, 'cancel')}>
              Cancelar
            </button>`
          : nothing}
      </td>
    </tr>`;
  }
}
defineOnce('demo-orders-table', DemoOrdersTable);

declare global {
  interface HTMLElementTagNameMap {
    'demo-orders-table': DemoOrdersTable;
  }
}
