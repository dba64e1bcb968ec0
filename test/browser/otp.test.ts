import { expect, waitUntil } from '@open-wc/testing';
import {
  chooseMethod,
  click,
  control,
  fillDetails,
  field,
  heading,
  latestOrderId,
  mount,
  pasteText,
  recordEvents,
  resetSandbox,
  sandboxOrder,
  sandboxOrders,
  screenRoot,
  settleMs,
  submit,
  type,
  waitForStep,
} from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

async function toOtp(el: PayCheckout): Promise<void> {
  await chooseMethod(el, 'Daviplata');
  await fillDetails(el, {});
  await waitForStep(el, 'otp');
}

describe('<pay-checkout> SMS code (Daviplata)', () => {
  beforeEach(resetSandbox);

  it('renders one 6-digit field with the right attributes, and pays with the right code', async () => {
    const el = await mount();
    await toOtp(el);
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Ingresa el código');
    const input = field(el, 'Código de 6 dígitos') as HTMLInputElement;
    expect(screenRoot(el).querySelectorAll('input')).to.have.length(1);
    expect(input.getAttribute('inputmode')).to.equal('numeric');
    expect(input.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(input.getAttribute('maxlength')).to.equal('6');
    expect(screenRoot(el).textContent).to.include('Te quedan 3 intentos');
    const order = await sandboxOrder(await latestOrderId());
    await type(el, 'Código de 6 dígitos', order.otp ?? '');
    await submit(el, 'Confirmar pago');
    await waitForStep(el, 'paid');
    await expect(el).to.be.accessible();
  });

  it('a pasted 6-digit code fills the field and submits by itself', async () => {
    const el = await mount();
    const events = recordEvents(el, ['pay-paid']);
    await toOtp(el);
    pasteText(field(el, 'Código'), '123 456');
    await waitForStep(el, 'paid');
    expect(events).to.have.length(1);
  });

  it('shows each code message: required, 6 digits, wrong code with attempts left', async () => {
    const el = await mount();
    await toOtp(el);
    await submit(el, 'Confirmar pago');
    await waitForStep(el, 'otp');
    expect(screenRoot(el).textContent).to.include('Escribe el código que te llegó por SMS');
    const input = field(el, 'Código') as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.include('code-error');
    await type(el, 'Código', '12a3');
    expect(input.value).to.equal('123');
    await submit(el, 'Confirmar pago');
    await el.updateComplete;
    expect(screenRoot(el).textContent).to.include('El código tiene 6 dígitos');
    await type(el, 'Código', '999999');
    await submit(el, 'Confirmar pago');
    await waitUntilText(el, 'El código no es correcto');
    expect(screenRoot(el).textContent).to.include('Te quedan 2 intentos');
    await expect(el).to.be.accessible();
  });

  it('three wrong codes cancel the order (pay-failed, otp_attempts)', async () => {
    const el = await mount();
    const events = recordEvents(el, ['pay-failed', 'pay-cancelled']);
    await toOtp(el);
    for (let i = 0; i < 3; i++) {
      await type(el, 'Código', '999999');
      await submit(el, 'Confirmar pago');
      if (i < 2) await waitUntilText(el, `Te ${i === 1 ? 'queda 1 intento' : 'quedan 2 intentos'}`);
    }
    await waitForStep(el, 'cancelled');
    expect(screenRoot(el).textContent).to.include('Se agotaron los intentos');
    expect(events.map((e) => [e.type, e.detail.reason])).to.deep.equal([['pay-failed', 'otp_attempts']]);
  });

  it('"send a new code" cancels this order and creates a new one', async () => {
    const el = await mount();
    await toOtp(el);
    const first = await latestOrderId();
    await click(el, 'Enviar un código nuevo');
    await waitUntilOrders(2);
    await waitForStep(el, 'otp');
    const orders = await sandboxOrders();
    expect(orders.find((o) => o.id_order === first)?.status).to.equal('cancelled');
    const second = await latestOrderId();
    expect(second).to.not.equal(first);
    await type(el, 'Código', (await sandboxOrder(second)).otp ?? '');
    await submit(el, 'Confirmar pago');
    await waitForStep(el, 'paid');
  });

  it('cancels when the buyer presses cancel', async () => {
    const el = await mount();
    await toOtp(el);
    await click(el, 'Cancelar pago');
    await waitForStep(el, 'cancelled');
    await expect(el).to.be.accessible();
  });

  it('an expired order (sandbox clock) shows expired when the code is sent', async () => {
    const el = await mount();
    await toOtp(el);
    await control('/clock', { advance_ms: 5 * 60 * 1000 + 1000 });
    await type(el, 'Código', '123456');
    await submit(el, 'Confirmar pago');
    await waitForStep(el, 'expired');
    await expect(el).to.be.accessible();
  });

  it('when the countdown reaches zero it checks once more, then shows expired', async () => {
    const el = await mount();
    const statusCalls: string[] = [];
    const realFetch = window.fetch;
    const realNow = Date.now;
    window.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/\/v1\/checkout\/orders\/\d+(\?|$)/.test(url)) statusCalls.push(url);
      return realFetch(input, init);
    };
    try {
      await toOtp(el);
      const live = el.shadowRoot?.querySelector('[aria-live="polite"]');
      expect(statusCalls, 'the SMS code is not polled').to.have.length(0);
      await control('/clock', { advance_ms: 5 * 60 * 1000 + 1000 });
      // The device's clock moves on too: the countdown reads the wall clock on its next tick.
      Date.now = () => realNow() + 5 * 60 * 1000 + 1000;
      await waitForStep(el, 'expired');
      expect(statusCalls).to.have.length(1);
      // The expired screen's focused heading says it; the live region does not say it a second time.
      await waitUntil(() => screenRoot(el).activeElement?.localName === 'h2', 'focus never reached the heading');
      expect(live?.textContent?.trim()).to.equal('');
    } finally {
      window.fetch = realFetch;
      Date.now = realNow;
    }
  });
});

async function waitUntilText(el: PayCheckout, text: string): Promise<void> {
  await waitUntil(() => (screenRoot(el).textContent ?? '').includes(text), `no "${text}"`, { timeout: settleMs });
}

async function waitUntilOrders(count: number): Promise<void> {
  await waitUntil(async () => (await sandboxOrders()).length === count, `expected ${count} orders`, { timeout: settleMs, interval: 50 });
}
