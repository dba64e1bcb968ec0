import { expect } from '@open-wc/testing';
import {
  click,
  field,
  heading,
  mount,
  payByTransfer,
  recordEvents,
  resetSandbox,
  sandboxOrders,
  screenRoot,
  submit,
  type,
  waitForStep,
  shownText,
} from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

const text = (el: PayCheckout) => (screenRoot(el).textContent ?? '').replace(/\s+/g, ' ');

describe('<pay-checkout> dynamic link (the buyer types the amount)', () => {
  beforeEach(resetSandbox);

  it('formats COP as the buyer types, shows the range, and pays the typed amount', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    const events = recordEvents(el, ['pay-paid']);
    await waitForStep(el, 'amount');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('¿Cuánto vas a pagar?');
    expect(text(el)).to.include('Entre $ 1.000 y $ 10.000.000');
    await type(el, 'Valor en pesos', '75000');
    expect((field(el, 'Valor en pesos') as HTMLInputElement).value).to.equal('75.000');
    await submit(el, 'Continuar');
    await waitForStep(el, 'method');
    expect(el.shadowRoot?.querySelector('[part="amount"]')?.textContent?.replace(/\s+/g, ' ')).to.include('$ 75.000');
    await payByTransfer(el);
    expect(events[0]?.detail).to.include({ amount: 75000, currency: 'COP' });
    const [order] = await sandboxOrders();
    expect(order?.status).to.equal('confirmed');
  });

  for (const [typed, message] of [
    ['', 'Escribe el valor a pagar'],
    ['0', 'El valor debe ser mayor que cero'],
    ['500', 'El valor mínimo es $ 1.000'],
    ['20000000', 'El valor máximo es $ 10.000.000'],
  ] as const) {
    it(`says "${message}" for "${typed}", beside the field`, async () => {
      const el = await mount({ link: 'demo-dynamic' });
      await waitForStep(el, 'amount');
      if (typed) await type(el, 'Valor en pesos', typed);
      await submit(el, 'Continuar');
      await el.updateComplete;
      await waitForStep(el, 'amount');
      const input = field(el, 'Valor en pesos');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      const describedBy = input.getAttribute('aria-describedby') ?? '';
      const error = screenRoot(el).getElementById('amount-error');
      expect(describedBy.split(' ')).to.include('amount-error');
      expect(shownText(error)).to.equal(message);
      expect(screenRoot(el).activeElement).to.equal(input);
      await expect(el).to.be.accessible();
    });
  }

  it('"back" from the method screen returns to the amount, keeping it', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    await type(el, 'Valor en pesos', '2000');
    await submit(el, 'Continuar');
    await waitForStep(el, 'method');
    await click(el, 'Volver');
    await waitForStep(el, 'amount');
    expect((field(el, 'Valor en pesos') as HTMLInputElement).value).to.equal('2.000');
  });
});
