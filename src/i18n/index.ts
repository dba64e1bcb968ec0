/** Typed message catalogs and Colombian formatting. `en` is a lazy chunk; `es` is bundled for the first screens, the rest lazy. */
export type { Locale, Messages, FirstMessages, FirstMessageKey, RuleMessages, RuleParams } from './messages.js';
export { locales, defaultLocale } from './messages.js';
export { resolveLocale, matchLocale, loadMessages, defaultMessages } from './locale.js';
export { formatMoney, formatGroupedDigits, formatCountdown, formatDateTime, intlLocales, colombiaTimeZone } from './format.js';
