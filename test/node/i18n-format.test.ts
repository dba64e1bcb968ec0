// Formatting for Colombia: pesos with no decimals, receipt dates in Bogotá time that never wrap inside the time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDateTime, formatGroupedDigits, formatMoney, intlLocales } from '../../src/i18n/format.js';

describe('i18n formatting', () => {
  it('money is es-CO pesos with 0 decimals, even for a fractional amount', () => {
    assert.equal(formatMoney(50000, 'COP', 'es').replace(/\s/g, ' '), '$ 50.000');
    assert.equal(formatMoney(1234.56, 'COP', 'es').replace(/\s/g, ' '), '$ 1.235');
  });

  it('a receipt date is in Bogotá time, with "p. m." kept on one line', () => {
    const text = formatDateTime('2026-11-22T00:53:00Z', 'es');
    assert.match(text, /^21\/11\/2026, 7:53\u00a0p\.\u00a0m\.$/);
    assert.doesNotMatch(text.slice(text.indexOf('7:53')), / /);
  });
});

describe('whole pesos without Intl', () => {
  const intlMoney = (n: number, locale: 'es' | 'en') =>
    new Intl.NumberFormat(intlLocales[locale], { style: 'currency', currency: 'COP', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(n);
  const intlDigits = (n: number, locale: 'es' | 'en') => new Intl.NumberFormat(intlLocales[locale], { maximumFractionDigits: 0 }).format(n);

  it('writes every whole amount exactly as Intl does, in es-CO and en-CO', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.maxSafeInteger().filter((n) => n >= 0)), fc.constantFrom('es' as const, 'en' as const), (n, locale) => {
        assert.equal(formatMoney(n, 'COP', locale), intlMoney(n, locale));
        assert.equal(formatGroupedDigits(n, locale), intlDigits(n, locale));
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves other currencies, fractions and negatives to Intl', () => {
    assert.equal(formatMoney(-5000, 'COP', 'es'), intlMoney(-5000, 'es'));
    assert.equal(formatMoney(10.5, 'USD', 'en'), new Intl.NumberFormat('en-CO', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(10.5));
  });
});
