import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../demo/phone/phone-app.js';
import type { DemoPhone } from '../../demo/phone/phone-app.js';
import { findTransfer } from '../../demo/phone/bank.js';
import { buyerOrder, button, control, controlOrder, resetSandbox, text, typeInto } from './demo-helpers.js';

// poll-ms="0": the tests call refresh() themselves, so nothing happens on a timer.
const mountPhone = async () => {
  const el = await fixture<DemoPhone>(html`<demo-phone poll-ms="0"></demo-phone>`);
  await el.refresh();
  return el;
};

const notification = (el: DemoPhone, id: number) => el.querySelector(`.notification[data-order="${id}"]`);

async function payInBankApp(el: DemoPhone, input: string) {
  typeInto(el.querySelector<HTMLTextAreaElement>('#bank-input')!, input);
  const search = button(el, 'Buscar transferencia');
  search.click();
  await el.querySelector('demo-bank-app')!.updateComplete;
  await waitUntil(() => !search.disabled, 'the bank app never answered');
}

describe('demo phone simulator', () => {
  beforeEach(resetSandbox);

  it('shows a push order made through the buyer API, and approving it confirms the order', async () => {
    const order = await buyerOrder('push', 32_000);
    const el = await mountPhone();
    await expect(el).to.be.accessible();
    const card = notification(el, order.id_order);
    expect(text(card)).to.include('Tienda Demo').and.include('$ 32.000');
    button(card!, 'Aprobar').click();
    await waitUntil(async () => (await controlOrder(order.id_order)).status === 'confirmed', 'the order was never confirmed');
    await waitUntil(() => notification(el, order.id_order) === null, 'the notification stayed after approval');
    expect(text(el.querySelector('[role="status"]'))).to.include(`Pago ${order.id_order} aprobado`);
  });

  it('declining a push cancels the order as declined', async () => {
    const order = await buyerOrder('push');
    const el = await mountPhone();
    button(notification(el, order.id_order)!, 'Rechazar').click();
    await waitUntil(async () => (await controlOrder(order.id_order)).status === 'cancelled', 'the order was never cancelled');
    expect((await controlOrder(order.id_order)).cancel_reason).to.equal('declined');
  });

  it('lists only pushes still waiting: an approved one disappears on the next refresh', async () => {
    const waiting = await buyerOrder('push', 10_000);
    const answered = await buyerOrder('push', 20_000);
    await control(`/orders/${answered.id_order}/approve`);
    const el = await mountPhone();
    expect(notification(el, waiting.id_order)).to.not.equal(null);
    expect(notification(el, answered.id_order)).to.equal(null);
  });

  it('shows the SMS code the sandbox sent for an otp order', async () => {
    const order = await buyerOrder('otp', 15_000);
    const el = await mountPhone();
    const { otp } = await controlOrder(order.id_order);
    expect(otp).to.match(/^\d{6}$/);
    const sms = el.querySelector(`.sms[data-order="${order.id_order}"]`);
    expect(text(sms?.querySelector('.otp'))).to.equal(otp);
    expect(text(sms)).to.include('$ 15.000');
  });

  it('the bank app pays a transfer by its key, typed in lower case with spaces', async () => {
    const order = await buyerOrder('transfer', 40_000);
    const key = order.next_action?.type === 'transfer' ? order.next_action.key : '';
    expect(key).to.match(/^BREB-/);
    const el = await mountPhone();
    await payInBankApp(el, ` ${key.toLowerCase().replace(/-/, ' - ')} `);
    expect(text(el.querySelector('.transfer-confirm'))).to.include('$ 40.000').and.include(key);
    await expect(el).to.be.accessible();
    button(el, 'Pagar $ 40.000').click();
    await waitUntil(async () => (await controlOrder(order.id_order)).status === 'confirmed', 'the transfer was never paid');
  });

  it('the bank app pays a transfer by the QR content (the EMVCo payload)', async () => {
    const other = await buyerOrder('transfer', 11_000);
    const order = await buyerOrder('transfer', 12_000);
    const qr = order.next_action?.type === 'transfer' ? order.next_action.qr_data : undefined;
    expect(qr).to.match(/^000201/);
    const el = await mountPhone();
    await payInBankApp(el, `${qr}\n`);
    button(el, 'Pagar $ 12.000').click();
    await waitUntil(async () => (await controlOrder(order.id_order)).status === 'confirmed', 'the transfer was never paid');
    expect((await controlOrder(other.id_order)).status).to.equal('processing');
  });

  it('says so when no transfer matches, or when it was already paid', async () => {
    const order = await buyerOrder('transfer');
    const key = order.next_action?.type === 'transfer' ? order.next_action.key : '';
    const el = await mountPhone();
    await payInBankApp(el, 'BREB-NO-SUCH-KEY');
    expect(text(el.querySelector('demo-bank-app [role="alert"]'))).to.equal('No hay ninguna transferencia con esa llave o ese código QR.');
    expect(el.querySelector('.transfer-confirm')).to.equal(null);
    await control(`/orders/${order.id_order}/pay`);
    await payInBankApp(el, key);
    expect(text(el.querySelector('demo-bank-app [role="alert"]'))).to.include('ya fue pagada');
  });

  it('findTransfer ignores other gateways and empty input', async () => {
    const push = await buyerOrder('push');
    const pushed = await controlOrder(push.id_order);
    expect(findTransfer([pushed], '   ')).to.deep.equal({ kind: 'empty' });
    expect(findTransfer([pushed], pushed.phone ?? '3001234567').kind).to.equal('not_found');
  });
});
