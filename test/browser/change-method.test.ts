// Change method from any waiting screen (cancel on the service first), and back from the card page without paying:
// the buyer is never trapped on "Consultando tu pago con tarjeta…".
import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import {
  button,
  chooseMethod,
  click,
  control,
  field,
  fillDetails,
  latestOrderId,
  mount,
  resetSandbox,
  sandboxOrder,
  sandboxOrders,
  screenRoot,
  toPush,
  waitForStep,
} from './support/checkout.js';
import { expectAccessibleInBothThemes, focusName, liveRegionText } from './support/a11y.js';
import { PayCheckout } from '../../src/index.js';

const text = (el: PayCheckout) => (screenRoot(el).textContent ?? '').replace(/\s+/g, ' ');

/** The method screen again, with what the buyer typed kept, and the old order cancelled on the service. */
async function expectBackToMethods(el: PayCheckout, cancelledId: number, kept = '1020304050'): Promise<void> {
  await waitForStep(el, 'method', 8000);
  expect((await sandboxOrder(cancelledId)).status).to.equal('cancelled');
  await click(el, 'Bre-B');
  await waitForStep(el, 'details');
  expect((field(el, 'Número de documento') as HTMLInputElement).value).to.equal(kept);
}

describe('<pay-checkout> change method from a waiting screen', () => {
  beforeEach(resetSandbox);

  it('push: cancels the order on the service, then back to the methods with the details kept', async () => {
    const el = await mount();
    const id = await toPush(el);
    await expectAccessibleInBothThemes(el);
    await click(el, 'Cambiar medio de pago');
    await expectBackToMethods(el, id);
  });

  it('SMS code: the same, and a reload does not bring the cancelled order back', async () => {
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    await fillDetails(el, {});
    await waitForStep(el, 'otp');
    const id = await latestOrderId();
    await click(el, 'Cambiar medio de pago');
    await expectBackToMethods(el, id);
    fixtureCleanup();
    const again = await mount();
    await waitForStep(again, 'method');
  });

  it('the cancel fails: says so (announced too), keeps the order, and focus stays on the button pressed (never <body>)', async () => {
    const el = await mount();
    const id = await toPush(el);
    await control('/faults', { path: `/v1/checkout/orders/${id}/cancel`, mode: 'error_5xx', count: 1 });
    const change = button(el, 'Cambiar medio de pago') as HTMLButtonElement;
    change.focus();
    change.click();
    await waitUntil(() => text(el).includes('No pudimos cancelar; el pago sigue activo'), `no notice: "${text(el)}"`, { timeout: 8000 });
    // Focus stays on the button, so nothing else would tell a screen reader: the live region says it once.
    await waitUntil(() => liveRegionText(el).includes('No pudimos cancelar; el pago sigue activo'), `not announced: "${liveRegionText(el)}"`, { timeout: 5000 });
    expect(el.step).to.equal('push');
    expect((await sandboxOrder(id)).status).to.not.equal('cancelled');
    expect(focusName(el)).to.equal('button#');
    expect(screenRoot(el).activeElement?.textContent?.trim()).to.equal('Cambiar medio de pago');
  });

  it('transfer paid before the cancel: the cancel is refused, and the receipt says so', async () => {
    const timings = PayCheckout.statusTimings;
    const realFetch = window.fetch;
    // No status check sees the payment first: polls are a minute apart, and waiting requests (which would see it at
    // once) hang until aborted, so the cancel's refusal must be what tells.
    PayCheckout.statusTimings = { firstDelayMs: 60_000, growth: 1, maxDelayMs: 60_000, jitter: 0 };
    window.fetch = (input, init) =>
      /\/checkout\/orders\/\d+\?wait=/.test(String(input instanceof Request ? input.url : input))
        ? new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
        : realFetch(input, init);
    try {
      const el = await mount();
      await chooseMethod(el, 'Bre-B');
      await fillDetails(el, {});
      await waitForStep(el, 'transfer');
      const id = await latestOrderId();
      await control(`/orders/${id}/pay`, {});
      await click(el, 'Cambiar medio de pago');
      await waitForStep(el, 'paid');
      expect((await sandboxOrder(id)).status).to.equal('confirmed');
      expect(await sandboxOrders()).to.have.length(1);
    } finally {
      window.fetch = realFetch;
      PayCheckout.statusTimings = timings;
    }
  });
});

describe('<pay-checkout> back from the card page without paying', () => {
  beforeEach(resetSandbox);

  async function returnUnpaid(): Promise<{ el: PayCheckout; id: number }> {
    const first = await mount();
    await chooseMethod(first, 'Tarjeta');
    await fillDetails(first, {});
    await waitForStep(first, 'redirect');
    await click(first, 'Ir a pagar con tarjeta');
    const id = await latestOrderId();
    // The buyer comes back without paying: the page loads again.
    fixtureCleanup();
    const el = await mount();
    await waitForStep(el, 'redirect');
    await waitUntil(() => text(el).includes('Aún no vemos tu pago con tarjeta'), `still: "${text(el)}"`, { timeout: 8000 });
    return { el, id };
  }

  it('says the payment is not there yet and offers the card page, another method or cancel', async () => {
    const { el, id } = await returnUnpaid();
    const way = button(el, 'Volver a la página de la tarjeta') as HTMLAnchorElement;
    expect(way.href).to.equal((await sandboxOrder(id)).card_url);
    expect(button(el, 'Cancelar pago').textContent?.trim()).to.equal('Cancelar pago');
    await expectAccessibleInBothThemes(el);
    await click(el, 'Cambiar medio de pago');
    // The card page's return is a new page load: what was typed is not stored (it is the buyer's data), so not kept.
    await expectBackToMethods(el, id, '');
  });

  it('cancel ends it for good: the cancelled screen, and a reload is not trapped', async () => {
    const { el, id } = await returnUnpaid();
    await click(el, 'Cancelar pago');
    await waitForStep(el, 'cancelled', 8000);
    expect((await sandboxOrder(id)).status).to.equal('cancelled');
    fixtureCleanup();
    const again = await mount();
    await waitForStep(again, 'method');
  });
});
