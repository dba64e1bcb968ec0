import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../demo/dashboard/dashboard-app.js';
import type { DemoDashboard } from '../../demo/dashboard/dashboard-app.js';
import { checkSignature } from '../../demo/dashboard/signature-check.js';
import { dataOf, DeliveryRecordSchema, SandboxFixturesSchema } from '../../src/contract/index.js';
import * as z from 'zod/mini';
import { buyerOrder, button, control, controlOrder, resetSandbox, text, typeInto } from './demo-helpers.js';

const hour = 60 * 60 * 1000;

// poll-ms="0": the tests call refresh() themselves, so nothing happens on a timer.
const mountDashboard = async () => {
  const el = await fixture<DemoDashboard>(html`<demo-dashboard poll-ms="0"></demo-dashboard>`);
  await el.refresh();
  return el;
};

const row = (el: DemoDashboard, id: number) => el.querySelector<HTMLTableRowElement>(`tr[data-order="${id}"]`);
const ordersAlert = (el: DemoDashboard) => text(el.querySelector('demo-orders-table [role="alert"]'));

/** A loopback URL on the sandbox itself that answers 404 at once: a receiver that rejects, with no retries to wait for. */
async function forwardToRejectingReceiver(): Promise<string> {
  const fixtures = dataOf(SandboxFixturesSchema).parse(await (await fetch('/sandbox/fixtures')).json()).data;
  const url = `${fixtures.control_url}/no-such-receiver`;
  await control('/forward', { url });
  return url;
}

async function deliveries() {
  return dataOf(z.array(DeliveryRecordSchema)).parse(await (await fetch('/sandbox/deliveries')).json()).data;
}

describe('demo sandbox dashboard', () => {
  beforeEach(resetSandbox);

  it('lists every order with its status', async () => {
    const push = await buyerOrder('push', 21_000);
    const otp = await buyerOrder('otp', 22_000);
    await control(`/orders/${push.id_order}/approve`);
    const el = await mountDashboard();
    await expect(el).to.be.accessible();
    expect(el.querySelectorAll('demo-orders-table tbody tr')).to.have.length(2);
    expect(row(el, push.id_order)?.dataset.status).to.equal('confirmed');
    expect(text(row(el, push.id_order))).to.include('$ 21.000').and.include('Pagado');
    expect(row(el, otp.id_order)?.dataset.status).to.equal('processing');
  });

  it('cancels a processing order through the merchant API', async () => {
    const order = await buyerOrder('push');
    const el = await mountDashboard();
    button(row(el, order.id_order)!, 'Cancelar').click();
    await waitUntil(() => row(el, order.id_order)?.dataset.status === 'cancelled', 'the row never showed the cancellation');
    const after = await controlOrder(order.id_order);
    expect(after.status).to.equal('cancelled');
    expect(after.cancel_reason).to.equal('merchant');
    expect(ordersAlert(el)).to.equal('');
  });

  it('refunds a confirmed order', async () => {
    const order = await buyerOrder('transfer');
    await control(`/orders/${order.id_order}/pay`);
    const el = await mountDashboard();
    button(row(el, order.id_order)!, 'Reembolsar').click();
    await waitUntil(() => row(el, order.id_order)?.dataset.status === 'refunded', 'the row never showed the refund');
    expect((await controlOrder(order.id_order)).status).to.equal('refunded');
    expect(text(el.querySelector('[role="status"]'))).to.include('Refund processed successfully');
  });

  it('shows the ErrorResponse when a refund comes after the 96-hour window', async () => {
    const order = await buyerOrder('otp');
    await control(`/orders/${order.id_order}/approve`);
    const el = await mountDashboard();
    await control('/clock', { advance_ms: 96 * hour + 60_000 });
    button(row(el, order.id_order)!, 'Reembolsar').click();
    await waitUntil(() => ordersAlert(el) !== '', 'no error was shown');
    expect(ordersAlert(el)).to.include(`pedido ${order.id_order}`).and.include('4011 INVALID_ORDER_STATUS');
    expect((await controlOrder(order.id_order)).status).to.equal('confirmed');
  });

  it('shows the ErrorResponse when the order was paid before the cancel arrived', async () => {
    const order = await buyerOrder('push');
    const el = await mountDashboard();
    await control(`/orders/${order.id_order}/approve`);
    button(row(el, order.id_order)!, 'Cancelar').click();
    await waitUntil(() => ordersAlert(el) !== '', 'no error was shown');
    expect(ordersAlert(el)).to.include('4011').and.include('confirmed');
    await waitUntil(() => row(el, order.id_order)?.dataset.status === 'confirmed', 'the table was not refreshed');
  });

  it('shows each webhook delivery with its attempts and a verified signature', async () => {
    await forwardToRejectingReceiver();
    const order = await buyerOrder('push');
    await control(`/orders/${order.id_order}/approve`);
    await waitUntil(async () => (await deliveries()).some((d) => d.state !== 'pending'), 'no delivery finished');
    const el = await mountDashboard();
    await waitUntil(() => el.querySelector('.delivery[data-event="order_payment"] [data-verdict="valid"]'), 'the signature was not verified');
    const delivery = el.querySelector('.delivery[data-event="order_payment"]')!;
    const attempt = delivery.querySelector('.attempts tbody tr');
    expect(text(attempt)).to.include('404').and.include('failed').and.include('rejected');
    expect(text(delivery)).to.include('fallido').and.include('no-such-receiver');
    expect(delivery.querySelector('pre')?.textContent).to.include(`"id_order":${order.id_order}`);
    await expect(el).to.be.accessible();
  });

  it('a tampered body or another secret does not verify', async () => {
    await forwardToRejectingReceiver();
    const order = await buyerOrder('push');
    await control(`/orders/${order.id_order}/approve`);
    await waitUntil(async () => (await deliveries()).length > 0, 'no delivery');
    const [record] = await deliveries();
    expect(await checkSignature(record!, 'whsec_test_demo')).to.equal('valid');
    expect(await checkSignature({ ...record!, body: record!.body.replace('"confirmed"', '"refunded"') }, 'whsec_test_demo')).to.equal('invalid');
    expect(await checkSignature(record!, 'whsec_test_other')).to.equal('invalid');
    expect(await checkSignature({ ...record!, signature: null }, 'whsec_test_demo')).to.equal('unsigned');
  });

  it('partner onboarding: the new store appears, and its store_onboarded delivery', async () => {
    await forwardToRejectingReceiver();
    const el = await mountDashboard();
    expect(el.querySelector('demo-partner-panel a')?.getAttribute('href')).to.equal('/onboarding?platform=demo-partner');
    await control('/onboarding', { platform: 'demo-partner', store_name: 'Café La Montaña', external_store_id: 'cafe-montana' });
    await el.refresh();
    expect(text(el.querySelector('demo-partner-panel .stores'))).to.include('Café La Montaña').and.include('cafe-montana');
    await waitUntil(async () => (await el.refresh(), el.querySelector('.delivery[data-event="store_onboarded"]')), 'no store_onboarded delivery');
  });

  it('the forwarder form adds a receiver, and the clock buttons expire a waiting push', async () => {
    const order = await buyerOrder('push');
    const el = await mountDashboard();
    typeInto(el.querySelector<HTMLInputElement>('#forward-url')!, 'http://127.0.0.1:9/webhooks');
    button(el, 'Reenviar aquí').click();
    await waitUntil(() => text(el.querySelector('.forward-targets')).includes('http://127.0.0.1:9/webhooks'), 'the receiver was not listed');
    button(el, '+5 min').click();
    await waitUntil(() => row(el, order.id_order)?.dataset.status === 'cancelled', 'the push never expired');
    expect((await controlOrder(order.id_order)).cancel_reason).to.equal('expired');
  });

  it('refuses a forward URL that is not loopback, with the sandbox message', async () => {
    const el = await mountDashboard();
    typeInto(el.querySelector<HTMLInputElement>('#forward-url')!, 'http://example.com/hook');
    button(el, 'Reenviar aquí').click();
    await waitUntil(() => text(el.querySelector('demo-sandbox-tools [role="alert"]')) !== '', 'no error shown');
    expect(text(el.querySelector('demo-sandbox-tools [role="alert"]'))).to.include('loopback');
  });
});
