import { fail, ok } from './types.js';
import type { AmountRange, BeforeOrderMessageKey, RuleResult } from './types.js';

/** The amount a Colombian buyer types (design.md §6): the first screen of a dynamic link needs only these. */

/** Whole pesos: the most digits an amount input keeps (a trillion pesos is plenty). */
const maxAmountDigits = 13;

/**
 * Parses a COP amount as a Colombian buyer types it: "50.000", "$ 50.000", "50000".
 * Dots group thousands; a comma, or a dot followed by 1–2 trailing digits, is a decimal.
 */
export function parseAmount(text: string, range?: AmountRange): RuleResult<number, BeforeOrderMessageKey> {
  const trimmed = text.replace(/[\s\u00a0]+/g, '').replace(/^(COP)?\$?/i, '').replace(/(COP)$/i, '');
  if (trimmed === '') return fail('amount.required');
  if (/[,]|\.\d{1,2}$/.test(trimmed) && /^[\d.,]+$/.test(trimmed)) return fail('amount.decimals');
  if (!/^(\d+|\d{1,3}(\.\d{3})+)$/.test(trimmed)) return fail('amount.invalid');
  const digits = trimmed.replace(/\./g, '').replace(/^0+(?=\d)/, '');
  if (digits.length > maxAmountDigits) return fail(range ? 'amount.above_max' : 'amount.invalid');
  const value = Number(digits);
  if (value === 0) return fail('amount.zero');
  if (range && value < range.min) return fail('amount.below_min');
  if (range && value > range.max) return fail('amount.above_max');
  return ok(value);
}

/** As-you-type formatting: keeps the digits and groups thousands with dots ("50000" → "50.000"). */
export function formatAmountInput(text: string): string {
  const digits = text.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, maxAmountDigits);
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}
