import type { CheckoutLink } from '../../contract/checkout-link.js';
import { chooseMethods } from '../../flow/method-choice.js';

/**
 * The link as this checkout shows it: only the `methods` the page lists, in its order. Words that name none of the
 * link's methods are ignored with one warning per link load (a list that leaves none shows them all).
 */
export function shownLink(link: CheckoutLink, methods: string | undefined): CheckoutLink {
  if (!methods) return link;
  const [gateways, unknown] = chooseMethods(link.gateways, methods);
  if (unknown.length) console.warn('<pay-checkout> methods: ignored', ...unknown);
  return { ...link, gateways };
}
