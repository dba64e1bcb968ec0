/** How the demo shows money, times and durations: Colombian formats, as the element does. */
import { colombiaTimeZone, formatMoney } from '../../src/i18n/format.js';

export const money = (amount: number, currency: string) => formatMoney(amount, currency, 'es');

const hourMinuteFormat = new Intl.DateTimeFormat('es-CO', { hour: 'numeric', minute: '2-digit', timeZone: colombiaTimeZone });
const timeFormat = new Intl.DateTimeFormat('es-CO', { timeStyle: 'medium', timeZone: colombiaTimeZone });
const dateTimeFormat = new Intl.DateTimeFormat('es-CO', { dateStyle: 'short', timeStyle: 'medium', timeZone: colombiaTimeZone });

/** `6:48:03 p. m.` in Colombian time; the text itself when it is not a date. */
export function clockTime(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return Number.isNaN(date.getTime()) ? String(iso) : timeFormat.format(date);
}

/** `6:48 p. m.`: the phone's status bar. */
export const hourMinute = (date: Date) => hourMinuteFormat.format(date);

export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/** Order statuses in the buyer's words. */
export const statusLabels: Record<string, string> = {
  pending: 'Pendiente',
  processing: 'En proceso',
  confirmed: 'Pagado',
  cancelled: 'Cancelado',
  refunded: 'Reembolsado',
};
