import { expect } from '@open-wc/testing';
import {
  click,
  control,
  heading,
  latestOrderId,
  mount,
  recordEvents,
  resetSandbox,
  sandboxOrders,
  screenRoot,
  toPush,
  waitForStep,
} from './support/checkout.js';

const allEvents = ['pay-ready', 'pay-order-created', 'pay-status-change', 'pay-paid', 'pay-failed', 'pay-cancelled', 'pay-error'];

describe('<pay-checkout> push (Nequi)', () => {
  beforeEach(resetSandbox);

  it('pays when the buyer approves on the phone, firing each event once with its detail', async () => {
    const el = await mount();
    const events = recordEvents(el, allEvents);
    await waitForStep(el, 'method');
    await expect(el).to.be.accessible();
    await toPush(el);
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Acepta el pago en la app Nequi');
    const text = screenRoot(el).textContent ?? '';
    expect(text).to.include('Abre la notificación de Nequi que llegó a tu celular');
    expect(text).to.include('Revisa los datos y acepta el pago');
    expect(text).to.match(/Tiempo restante: \d:\d\d/);
    const id = await latestOrderId();
    await control(`/orders/${id}/approve`, {});
    await waitForStep(el, 'paid');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('¡Pago exitoso!');
    const receipt = (screenRoot(el).querySelector('dl')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(receipt).to.include('$ 50.000').and.include('Nequi').and.include(String(id));

    const count = (name: string) => events.filter((e) => e.type === name).length;
    expect(count('pay-ready')).to.equal(1);
    expect(count('pay-order-created')).to.equal(1);
    expect(count('pay-paid')).to.equal(1);
    expect(count('pay-failed') + count('pay-cancelled') + count('pay-error')).to.equal(0);
    const detail = (name: string) => events.find((e) => e.type === name)?.detail as Record<string, unknown>;
    expect((detail('pay-ready').link as { hash: string }).hash).to.equal('demo-fixed');
    expect(detail('pay-order-created')).to.deep.equal({ id_order: id, gateway: { id_payment_gateway: 1, name: 'Nequi', kind: 'push' } });
    expect(detail('pay-paid')).to.deep.equal({ id_order: id, amount: 50000, currency: 'COP', gateway: { id_payment_gateway: 1, name: 'Nequi', kind: 'push' } });
    const changes = events.filter((e) => e.type === 'pay-status-change').map((e) => e.detail as Record<string, unknown>);
    expect(changes).to.deep.equal([
      { id_order: id, status: 'processing', previous: null },
      { id_order: id, status: 'confirmed', previous: 'processing' },
    ]);
    for (const e of events) expect(e.bubbles && e.composed, e.type).to.equal(true);
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('shows declined when the phone declines by itself (number ending 0002), then tries again', async () => {
    const el = await mount();
    const events = recordEvents(el, allEvents);
    await toPush(el, '3001230002');
    await waitForStep(el, 'declined');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('El pago fue rechazado');
    const failed = events.filter((e) => e.type === 'pay-failed');
    expect(failed).to.have.length(1);
    expect(failed[0]?.detail).to.deep.equal({ id_order: await latestOrderId(), reason: 'declined' });
    await click(el, 'Intentar de nuevo');
    await waitForStep(el, 'method');
  });

  it('declines through the control API', async () => {
    const el = await mount();
    await toPush(el);
    await control(`/orders/${await latestOrderId()}/decline`, {});
    await waitForStep(el, 'declined');
  });

  it('cancels when the buyer presses cancel', async () => {
    const el = await mount();
    const events = recordEvents(el, allEvents);
    await toPush(el);
    await click(el, 'Cancelar pago');
    await waitForStep(el, 'cancelled');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Pago cancelado');
    const [order] = await sandboxOrders();
    expect(order?.status).to.equal('cancelled');
    const cancelled = events.filter((e) => e.type === 'pay-cancelled');
    expect(cancelled).to.have.length(1);
    expect(cancelled[0]?.detail).to.deep.equal({ id_order: order?.id_order, reason: 'buyer' });
  });

  it('expires when the sandbox clock passes the 5 minutes (number ending 0003 never answers)', async () => {
    const el = await mount();
    const events = recordEvents(el, allEvents);
    await toPush(el, '3001230003');
    await control('/clock', { advance_ms: 5 * 60 * 1000 + 1000 });
    await waitForStep(el, 'expired');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Se acabó el tiempo');
    expect(events.filter((e) => e.type === 'pay-failed').map((e) => e.detail)).to.deep.equal([
      { id_order: await latestOrderId(), reason: 'expired' },
    ]);
    await click(el, 'Hacer un nuevo intento');
    await waitForStep(el, 'method');
  });

  it('"change number" cancels the order and goes back to the phone field', async () => {
    const el = await mount();
    await toPush(el);
    await click(el, 'Cambiar número');
    await waitForStep(el, 'details');
    const [order] = await sandboxOrders();
    expect(order?.status).to.equal('cancelled');
    const phone = screenRoot(el).querySelector<HTMLInputElement>('#phone_number');
    expect(phone?.value).to.equal('300 123 4567');
  });
});
