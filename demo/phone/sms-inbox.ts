import { html } from 'lit';
import { property } from 'lit/decorators.js';
import type { SandboxOrder } from '../../src/contract/index.js';
import { clockTime, money } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

/** The SMS inbox: the one-time code the digital wallet "sent" for each order, newest first. */
export class DemoSmsInbox extends LightElement {
  @property({ attribute: false }) orders: readonly SandboxOrder[] = [];

  override render() {
    const messages = this.orders.filter((o) => o.gateway_kind === 'otp' && o.otp !== null);
    return html`
      <h2 id="sms-title">Mensajes</h2>
      ${messages.length === 0
        ? html`<p class="empty">No tienes mensajes.</p>`
        : html`<ul class="sms-list" aria-labelledby="sms-title">
            ${messages.map((o) => this.message(o))}
          </ul>`}
    `;
  }

  private message(o: SandboxOrder) {
    const open = o.status === 'processing' || o.status === 'pending';
    return html`<li class="sms" data-order=${o.id_order}>
      <p class="app-line"><span class="app-name">DAVIPLATA</span> <time datetime=${o.purchase_date}>${clockTime(o.purchase_date)}</time></p>
      <p>
        Tu código para pagar ${money(o.total, o.currency)} en ${o.store_name ?? 'el comercio'} es
        <strong class="otp">${o.otp}</strong>. No lo compartas con nadie.
      </p>
      ${open ? '' : html`<p class="muted">Pedido ${o.id_order}: ya no espera el código.</p>`}
    </li>`;
  }
}
defineOnce('demo-sms-inbox', DemoSmsInbox);

declare global {
  interface HTMLElementTagNameMap {
    'demo-sms-inbox': DemoSmsInbox;
  }
}
