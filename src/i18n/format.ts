import type { Locale } from './messages.js';

import { intlLocales } from './format-money.js';

export { formatGroupedDigits, formatMoney, intlLocales } from './format-money.js';

/** Dates and times are shown in Colombian time whatever the device says. */
export const colombiaTimeZone = 'America/Bogota';

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
