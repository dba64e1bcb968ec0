import { expect } from '@open-wc/testing';
import { control, heading, mount, recordEvents, resetSandbox, sandboxOrders, toPush, waitForStep, click, latestOrderId } from './support/checkout.js';

describe('<pay-checkout> push (Nequi)', () => {
  beforeEach(resetSandbox);

  it('pays when the buyer approves on the phone', async () => {
    const el = await mount();
    const events = recordEvents(el, ['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-paid', 'pay-failed', 'pay-cancelled', 'pay-error']);
    await toPush(el);
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Acepta el cobro en tu celular');
    const id = await latestOrderId();
    await control(`/orders/${id}/approve`, {});
    await waitForStep(el, 'paid');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('¡Pago exitoso!');
    const names = events.map((e) => e.type);
    expect(names.filter((n) => n === 'pay-paid')).to.have.length(1);
    expect(names.filter((n) => n === 'pay-order-created')).to.have.length(1);
    expect(names.filter((n) => n === 'pay-ready')).to.have.length(1);
    const paid = events.find((e) => e.type === 'pay-paid');
    expect(paid?.detail).to.deep.include({ id_order: id, amount: 50000, currency: 'COP' });
    expect((await sandboxOrders()).length).to.equal(1);
  });

  it('shows declined when the phone declines (number ending 0002)', async () => {
    const el = await mount();
    await toPush(el, '3001230002');
    await waitForStep(el, 'declined');
    await expect(el).to.be.accessible();
    await click(el, 'Intentar de nuevo');
    await waitForStep(el, 'method');
  });
});
