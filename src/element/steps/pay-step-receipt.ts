import { html, nothing } from 'lit';
import type { PaidState } from '../../flow/types.js';
import { formatDateTime } from '../../i18n/format.js';
import { spoken, withMoney } from '../internal/spoken.js';
import { isDynamic } from '../../flow/screens.js';
import { StepElement } from './step-element.js';
import { storeHref } from '../internal/store-href.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepResultStyles } from './pay-step-result.styles.js';
import { stepReceiptStyles } from './pay-step-receipt.styles.js';

/**
 * @internal The paid receipt: what was paid, to whom, how, when (Bogotá time) and its references; a way back to the
 * store, print or save. The host keeps it on this device so a reload or a discarded tab shows it again.
 */
export class PayStepReceipt extends StepElement<PaidState> {
  static override styles = [sharedStyles, laterStyles, stepResultStyles, stepReceiptStyles];

  static override properties = { storeUrl: { attribute: false } };

  /** The page's `store-url`; without it, the link's `redirect_link`. */
  storeUrl: string | undefined;

  /** Prints the receipt (the print dialog saves it as a PDF too). Tests replace it. */
  static print: () => void = () => window.print();

  override render() {
    const m = this.messages;
    const { order, link } = this.state;
    const date = order.confirmed_at ?? order.created_at;
    const back = storeHref(this.storeUrl || link.redirect_link, location.href);
    return html`<div class="paid" part="result receipt" data-result="paid">
      <div class="badge" aria-hidden="true">✓</div>
      <h2 tabindex="-1" part="heading">${m.result.paidTitle}</h2>
      <p>${m.result.paidBody}</p>
      <dl>
        <div><dt>${m.receipt.totalPaid}</dt><dd>${spoken(withMoney((money) => money(order.amount), order.currency, m))}</dd></div>
        <div><dt>${m.result.method}</dt><dd>${order.gateway.name}</dd></div>
        <div><dt>${m.result.orderId}</dt><dd>${order.id_order}</dd></div>
        ${order.reference ? html`<div><dt>${m.receipt.serviceReference}</dt><dd class="reference">${order.reference}</dd></div>` : nothing}
        <div><dt>${m.receipt.dateTime}</dt><dd>${formatDateTime(date, m.locale)}</dd></div>
      </dl>
      <div class="actions">
        ${back ? html`<a class="button" part="button store-link" href=${back}>${m.link.backToStore(link.store_name)}</a>` : nothing}
        <button type="button" class="secondary" part="button-secondary print-button" @click=${() => PayStepReceipt.print()}>${m.receipt.print}</button>
        ${isDynamic(link)
          ? html`<button type="button" class="secondary" part="button-secondary" @click=${() => this.send({ type: 'new_payment' })}>${m.receipt.newPayment}</button>`
          : nothing}
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-receipt': PayStepReceipt;
  }
}
