import { CheckoutLinkSchema } from '../contract/checkout-link.js';
import type { CheckoutLink } from '../contract/checkout-link.js';
import { issueCodes } from '../contract/problems.js';
import { readAnswerWith } from './read-answer.js';
import type { Answer } from './send.js';

// The chunk the element loads alongside its first call: only the reading of the link answer, not the client class
// (link-client.ts), so nothing else rides with the schemas before the first interactive screen.
export const linkSpec = { schema: CheckoutLinkSchema, wrapper: 'data' } as const;

/**
 * `GET /checkout/links/{hash}`'s answer read against the contract: the link, or the typed error. An answer that breaks
 * the schema names each problem by path and issue code (`data.gateways.0.kind invalid value`), not in the clients'
 * worded English: the buyer sees the error screen either way, and the wording would ride in the first screen's script.
 */
export function readLinkAnswer(answer: Answer): CheckoutLink {
  return readAnswerWith(answer, linkSpec, issueCodes);
}

/**
 * A link answer the page hands over (its server fetched `GET /checkout/links/{hash}`, so the element need not): the
 * answer's `data`, or the whole `{ "data": … }`. Trusted only if it matches the contract, is for this link and has not
 * expired; otherwise undefined, and the element asks the service itself.
 */
export function pageLink(answer: unknown, hash: string, now: number): CheckoutLink | undefined {
  const data = typeof answer === 'object' && answer !== null && 'data' in answer ? (answer as { data: unknown }).data : answer;
  const result = CheckoutLinkSchema.safeParse(data);
  if (!result.success || result.data.hash !== hash) return undefined;
  const expires = result.data.expires_at === null ? Infinity : Date.parse(result.data.expires_at);
  return expires > now ? result.data : undefined;
}
