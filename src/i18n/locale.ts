import { enFirst } from './en-first.js';
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

/** Each locale's first screens, bundled (about 1 KB gzip each): no language waits on a chunk for its first screen. */
export const firstMessages: Record<Locale, FirstMessages> = { es: esFirst, en: enFirst };

/** The whole catalog of a locale, a lazy chunk each (beyond its first screens). */
export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'en') return (await import('./en.js')).en;
  return (await import('./es.js')).es;
}
