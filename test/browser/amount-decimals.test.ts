// Decimals on a dynamic link are never read as more pesos (`50.000,00` is $ 50.000, not $ 5.000.000).
import { expect, waitUntil } from '@open-wc/testing';
import { field, mount, resetSandbox, screenRoot, shownText, submit, type, typeKeys as typeKeysInto, pressKey, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

const headerAmount = (el: PayCheckout) => el.shadowRoot?.querySelector('[part="amount"]')?.textContent?.replace(/\s+/g, ' ') ?? '';
const liveRegion = (el: PayCheckout) => el.shadowRoot?.querySelector('[part="live-region"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const amountError = (el: PayCheckout) => shownText(screenRoot(el).getElementById('amount-error'));
const decimals = 'El valor va en pesos enteros, sin centavos; por ejemplo 25.000';

/** Focuses the amount field and types key by key, as a buyer does. */
async function typeKeys(el: PayCheckout, text: string): Promise<void> {
  (field(el, 'Valor en pesos') as HTMLInputElement).focus();
  await typeKeysInto(text);
  await el.updateComplete;
}

describe('<pay-checkout> amount decimals (whole pesos, never multiplied)', () => {
  beforeEach(resetSandbox);

  it('typed "50.000,00" reads as $ 50.000', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    await typeKeys(el, '50.000,00');
    await submit(el, 'Continuar');
    await waitForStep(el, 'method');
    expect(headerAmount(el)).to.include('$ 50.000');
    expect(headerAmount(el)).not.to.include('5.000.000');
  });

  for (const [how, text] of [
    ['typed', '25.000,50'],
    ['pasted', '50000.5'],
  ] as const) {
    it(`${how} "${text}" is refused with a clear message, kept as typed, and announced after Enter`, async () => {
      const el = await mount({ link: 'demo-dynamic' });
      await waitForStep(el, 'amount');
      // A paste arrives as one input event with the whole text; typing, one key at a time.
      if (how === 'pasted') await type(el, 'Valor en pesos', text);
      else await typeKeys(el, text);
      const input = field(el, 'Valor en pesos') as HTMLInputElement;
      expect(input.value).to.equal(text);
      input.focus();
      await pressKey('Enter');
      await el.updateComplete;
      await waitUntil(() => amountError(el) === decimals, `error shown: "${amountError(el)}"`, { timeout: 5000 });
      expect(el.step).to.equal('amount');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(screenRoot(el).activeElement).to.equal(input);
      // Focus was already in the field, so only the live region tells a screen reader what went wrong.
      await waitUntil(() => liveRegion(el) === decimals, `announced: "${liveRegion(el)}"`, { timeout: 5000 });
      await expect(el).to.be.accessible();
    });
  }

  it('says the range error aloud too, after Enter', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    // Amounts are said as pesos once the whole catalog is here, a moment after the first screen.
    await waitUntil(() => (screenRoot(el).getElementById('amount-range')?.textContent ?? '').includes('pesos'), 'never said as pesos');
    await typeKeys(el, '500');
    await pressKey('Enter');
    // Said in pesos: a Spanish voice reads "$" as "dólar".
    await waitUntil(() => liveRegion(el) === 'El valor mínimo es 1.000 pesos', `announced: "${liveRegion(el)}"`, { timeout: 5000 });
  });
});
