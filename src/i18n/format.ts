import type { Locale } from './messages.js';

/** The Intl locale per catalog: Colombian Spanish (never Spain's `es`), and English as used in Colombia. */
export const intlLocales: Record<Locale, string> = { es: 'es-CO', en: 'en-CO' };
/** Dates and times are shown in Colombian time whatever the device says. */
export const colombiaTimeZone = 'America/Bogota';

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

/** `4:05`: minutes and seconds left, for the visible countdown. */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** A receipt date in Colombian time, e.g. `21/11/2026, 6:48 p. m.` (es-CO's medium date). */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = new Intl.DateTimeFormat(intlLocales[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: colombiaTimeZone,
  }).format(date);
  // Keep "7:53 p. m." on one line: a receipt line may wrap after the date, never inside the time.
  return text.replace(/(\d) (?=[ap]\.)/g, '$1\u00a0').replace(/([ap]\.) (m\.)/g, '$1\u00a0$2');
}
