import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { formatMoney } from '../../i18n/format-money.js';
import { isWholeCatalog } from '../../i18n/messages.js';
import type { FirstMessages } from '../../i18n/messages.js';

/** A text as shown and as said. */
export type Said = readonly [shown: string, said: string];

/**
 * Text shown one way and said another (`$ 50.000` heard as "50.000 pesos", `******4567` as "terminado en 4567"): the
 * screen's words hidden from screen readers, the said ones visually hidden (`.sr-only`, in sharedStyles).
 */
export function spoken([shown, said]: Said): TemplateResult | string {
  return shown === said ? shown : html`<span aria-hidden="true">${shown}</span><span class="sr-only">${said}</span>`;
}

/**
 * A message with amounts in it, as shown (`$ 1.000`) and as said ("1.000 pesos"; the whole catalog's words, so the
 * first screens' script carries none of them).
 */
export function withMoney(text: (money: (amount: number) => string) => string, currency: string, m: FirstMessages): Said {
  const shown = text((n) => formatMoney(n, currency, m.locale));
  return [shown, isWholeCatalog(m) ? text((n) => m.sayMoney(n, currency)) : shown];
}
