import type { CheckoutGateway } from '../contract/checkout-link.js';
import { gatewayAcceptsAmount } from './gateway-rules.js';

/** What the page chooses to show on the first screens: `methods` (which, in which order) and `amounts` presets. */

/**
 * `methods="nequi breb"`: the link's methods named by kind (`push`, `otp`, `transfer`, `card`) or by name (`nequi`,
 * `daviplata`, `breb`: the name without case or punctuation), in that order; methods not named are not shown. Returns
 * the methods to show (all of them when the words leave none) and the words that named none of this link's methods.
 */
export function chooseMethods(gateways: CheckoutGateway[], methods: string): [shown: CheckoutGateway[], unknown: string[]] {
  const chosen: CheckoutGateway[] = [];
  const unknown: string[] = [];
  for (const word of methods.toLowerCase().split(/\s+/)) {
    const named = gateways.filter((g) => g.kind === word || g.name.toLowerCase().replace(/[^a-z0-9]/g, '') === word);
    if (word && !named.length) unknown.push(word);
    for (const g of named) if (!chosen.includes(g)) chosen.push(g);
  }
  return [chosen.length ? chosen : gateways, unknown];
}

/**
 * `amounts="20000 50000 100000"`: whole pesos (dots grouping thousands allowed), in the page's order, each once, and
 * only those some method of the link takes.
 */
export function presetAmounts(amounts: string | undefined, gateways: readonly CheckoutGateway[]): number[] {
  const values = (amounts ?? '').split(/\s+/).map((word) => (/^[\d.]{1,17}$/.test(word) ? Number(word.replace(/\./g, '')) : 0));
  return [...new Set(values)].filter((n) => n > 0 && gateways.some((g) => gatewayAcceptsAmount(g, n)));
}
