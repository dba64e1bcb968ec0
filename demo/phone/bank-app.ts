import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import type { SandboxOrder } from '../../src/contract/index.js';
import { describeError, sandbox } from '../shared/api.js';
import { announce, ordersChanged } from '../shared/events.js';
import { money } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';
import { findTransfer, keyOf } from './bank.js';

const lookupMessages = {
  empty: 'Escribe o pega una llave Bre-B o el contenido del código QR.',
  not_found: 'No hay ninguna transferencia con esa llave o ese código QR.',
} as const;

/** The buyer's bank app: pays an interbank transfer by its key or by the QR's content ("scanning" is pasting). */
export class DemoBankApp extends LightElement {
  @state() private input = '';
  @state() private found: SandboxOrder | null = null;
  @state() private message = '';
  @state() private busy = false;

  private async lookUp(event: SubmitEvent) {
    event.preventDefault();
    this.busy = true;
    this.found = null;
    this.message = '';
    try {
      // Fresh orders, not the last poll: a transfer created a moment ago must be found.
      const result = findTransfer(await sandbox.orders(), this.input);
      if (result.kind === 'payable') this.found = result.order;
      else if (result.kind === 'closed') this.message = closedMessage(result.order);
      else this.message = lookupMessages[result.kind];
    } catch (error) {
      this.message = describeError(error);
    } finally {
      this.busy = false;
    }
  }

  private async pay(order: SandboxOrder) {
    this.busy = true;
    try {
      const paid = await sandbox.pay(order.id_order);
      this.found = null;
      this.input = '';
      announce(this, `Transferencia enviada: ${money(paid.total, paid.currency)} a ${paid.store_name ?? 'el comercio'} (pedido ${paid.id_order}).`);
    } catch (error) {
      this.message = `No se pudo pagar: ${describeError(error)}`;
    } finally {
      this.busy = false;
      ordersChanged(this);
    }
  }

  override render() {
    return html`
      <h2>App del banco</h2>
      <form class="bank-form" @submit=${this.lookUp}>
        <label for="bank-input">Llave Bre-B o contenido del código QR</label>
        <textarea
          id="bank-input"
          name="transfer"
          rows="3"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="bank-hint"
          .value=${this.input}
          @input=${(e: Event) => (this.input = (e.target as HTMLTextAreaElement).value)}
        ></textarea>
        <p id="bank-hint" class="muted">Escribe la llave (BREB-…) o pega el texto del QR (000201…): es lo que leería la cámara.</p>
        <button type="submit" class="primary" ?disabled=${this.busy}>Buscar transferencia</button>
      </form>
      ${this.message ? html`<p class="error" role="alert">${this.message}</p>` : nothing}
      ${this.found ? this.confirmation(this.found) : nothing}
    `;
  }

  private confirmation(order: SandboxOrder) {
    const amount = money(order.total, order.currency);
    return html`<div class="transfer-confirm" role="group" aria-labelledby="transfer-title">
      <h3 id="transfer-title">Confirma la transferencia</h3>
      <dl>
        <dt>Para</dt>
        <dd>${order.store_name ?? 'Comercio'}</dd>
        <dt>Valor</dt>
        <dd><strong>${amount}</strong></dd>
        <dt>Concepto</dt>
        <dd>${order.description ?? ''}</dd>
        <dt>Llave</dt>
        <dd><code>${keyOf(order)}</code></dd>
      </dl>
      <div class="actions">
        <button type="button" class="primary" ?disabled=${this.busy} @click=${() => this.pay(order)}>Pagar ${amount}</button>
        <button type="button" ?disabled=${this.busy} @click=${() => (this.found = null)}>Cancelar</button>
      </div>
    </div>`;
  }
}

function closedMessage(order: SandboxOrder): string {
  if (order.status === 'confirmed' || order.status === 'refunded') return `La transferencia del pedido ${order.id_order} ya fue pagada.`;
  return `La transferencia del pedido ${order.id_order} venció o fue cancelada; ya no se puede pagar.`;
}

defineOnce('demo-bank-app', DemoBankApp);

declare global {
  interface HTMLElementTagNameMap {
    'demo-bank-app': DemoBankApp;
  }
}
