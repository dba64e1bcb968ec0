import { fail, ok } from './types.js';
import type { AmountRange, BeforeOrderMessageKey, RuleResult } from './types.js';

/** The amount a Colombian buyer types (docs/site/merchants/buyer-details.md): the first screen of a dynamic link needs only these. */

/** Whole pesos: the most digits an amount input keeps (a trillion pesos is plenty). */
const maxAmountDigits = 13;

/**
 * An amount as typed: whole pesos (digits, or dots grouping thousands), then an optional decimal part: a comma and
 * digits (es-CO), or a final dot and one or two digits ("50000.5").
 */
const amountPattern = /^(\d+|\d{1,3}(?:\.\d{3})+)(?:,(\d+)|\.(\d{1,2}))?$/;

/** A decimal part is there (or being typed): the formatter leaves such text alone, so it is never read as more pesos. */
const decimalPart = /,|\.\d{0,2}$/;

/**
 * Parses a COP amount as a Colombian buyer types it: "50.000", "$ 50.000", "50000". COP is whole pesos: a decimal
 * part of zeros is dropped ("50.000,00" is 50.000), any other is refused; "50,000" (three digits after a comma) is
 * refused as ambiguous, never guessed.
 */
export function parseAmount(text: string, range?: AmountRange): RuleResult<number, BeforeOrderMessageKey> {
  const trimmed = text.replace(/[\s\u00a0]+/g, '').replace(/^(COP)?\$?/i, '').replace(/(COP)$/i, '');
  if (trimmed === '') return fail('amount.required');
  const match = amountPattern.exec(trimmed);
  const [, whole = '', comma, dot] = match ?? [];
  const fraction = comma ?? dot ?? '';
  if (!match || comma?.length === 3) return fail('amount.invalid');
  if (/[1-9]/.test(fraction)) return fail('amount.decimals');
  const digits = whole.replace(/\./g, '').replace(/^0+(?=\d)/, '');
  if (digits.length > maxAmountDigits) return fail(range ? 'amount.above_max' : 'amount.invalid');
  const value = Number(digits);
  if (value === 0) return fail('amount.zero');
  if (range && value < range.min) return fail('amount.below_min');
  if (range && value > range.max) return fail('amount.above_max');
  return ok(value);
}

/**
 * As-you-type formatting: groups thousands with dots ("50000" → "50.000"). Text with a decimal part ("25.000,50",
 * "50000.5", or "50." on its way to "50.000") is kept as typed, so `parseAmount` judges the whole of it.
 */
export function formatAmountInput(text: string): string {
  const kept = text.replace(/[^\d.,]/g, '');
  if (decimalPart.test(kept)) return kept.slice(0, maxAmountDigits + 8);
  const digits = kept.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, maxAmountDigits);
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}
