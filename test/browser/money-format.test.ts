// Whole pesos are written without Intl on the way to the first screen (format-money.ts): in this engine, exactly as
// its own Intl.NumberFormat writes them, in es-CO and en-CO.
import { expect } from '@open-wc/testing';
import { formatGroupedDigits, formatMoney, intlLocales } from '../../src/i18n/format-money.js';

describe('whole pesos without Intl', () => {
  const amounts = [0, 7, 999, 1_000, 1_234, 50_000, 999_999, 1_250_000, 123_456_789, Number.MAX_SAFE_INTEGER];
  for (const locale of ['es', 'en'] as const) {
    it(`${locale}: as this engine's Intl writes them`, () => {
      const money = new Intl.NumberFormat(intlLocales[locale], { style: 'currency', currency: 'COP', maximumFractionDigits: 0, minimumFractionDigits: 0 });
      const digits = new Intl.NumberFormat(intlLocales[locale], { maximumFractionDigits: 0 });
      for (const amount of amounts) {
        expect(formatMoney(amount, 'COP', locale), String(amount)).to.equal(money.format(amount));
        expect(formatGroupedDigits(amount, locale), String(amount)).to.equal(digits.format(amount));
      }
    });
  }
});
