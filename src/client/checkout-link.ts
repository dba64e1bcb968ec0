import { CheckoutLinkSchema } from '../contract/checkout-link.js';
import type { CheckoutLink } from '../contract/checkout-link.js';
import { readAnswer } from './http.js';
import type { Answer } from './http.js';

// The chunk the element loads alongside its first call: only the reading of the link answer, not the client class
// (link-client.ts), so nothing else rides with the schemas before the first interactive screen.
export const linkSpec = { schema: CheckoutLinkSchema, wrapper: 'data' } as const;

/** `GET /checkout/links/{hash}`'s answer read against the contract: the link, or the typed error. */
export function readLinkAnswer(answer: Answer): CheckoutLink {
  return readAnswer(answer, linkSpec);
}
