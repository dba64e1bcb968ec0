import type { Locale } from './messages.js';

// Money and digits: what the first screens show (the countdown and dates in format.ts arrive with the later steps).

/** The Intl locale per catalog: Colombian Spanish (never Spain's `es`), and English as used in Colombia. */
export const intlLocales: Record<Locale, string> = { es: 'es-CO', en: 'en-CO' };

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `$ 50.000` (es) / `COP 50,000` (en): whole units, 0 decimals forced even where Intl would show 2. */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = currency === 'COP' ? 0 : 2;
    format = new Intl.NumberFormat(intlLocales[locale], {
      style: 'currency',
      currency,
      maximumFractionDigits: digits,
      minimumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}

/** Digits grouped as the buyer types (`50.000` / `50,000`); empty stays empty. */
export function formatGroupedDigits(value: number | null, locale: Locale): string {
  if (value === null || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(intlLocales[locale], { maximumFractionDigits: 0 }).format(value);
}
