import { esFirst } from './es-first.js';
import { defaultLocale, locales } from './messages.js';
import type { FirstMessages, Locale, Messages } from './messages.js';

/** `es-CO` → `es`, `en-US` → `en`; anything we have no catalog for → undefined. */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return locales.find((l) => l === primary);
}

/** The `locale` attribute, else the closest `lang` around the element, else the page's, else `es`. */
export function resolveLocale(attribute: string | null | undefined, host?: Element): Locale {
  const fromAttribute = matchLocale(attribute);
  if (fromAttribute) return fromAttribute;
  const closest = host?.closest('[lang]')?.getAttribute('lang');
  return matchLocale(closest) ?? matchLocale(globalThis.document?.documentElement.lang) ?? defaultLocale;
}

/** The bundled part of the default catalog: the first screens, available at once. */
export const defaultMessages: FirstMessages = esFirst;

/**
 * The first screens bundled: Spanish, the default. English comes with its whole catalog (a lazy chunk asked for beside
 * the link call): the method screen waits for the whole catalog anyway (a tap opens the details), and its 0.6 KB
 * gzip made room in the first script for the replay of an early tap.
 */
export const firstMessages: Partial<Record<Locale, FirstMessages>> = { es: esFirst };

/** The whole catalog of a locale, a lazy chunk each (beyond its first screens). */
export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'en') return (await import('./en.js')).en;
  return (await import('./es.js')).es;
}
