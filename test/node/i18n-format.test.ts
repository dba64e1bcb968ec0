// Formatting for Colombia: pesos with no decimals, receipt dates in Bogotá time that never wrap inside the time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDateTime, formatMoney } from '../../src/i18n/format.js';

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
