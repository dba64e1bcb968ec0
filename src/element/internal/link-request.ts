import { NetworkError } from '../../client/errors.js';
import { defaultTimeoutMs, linkPath, resolveBaseUrl, send } from '../../client/send.js';
import type { ClientOptions } from '../../client/send.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';

// The schemas' chunk: zod/mini and the link's schema. The later steps' chunk imports it too, so it is fetched once.
type LinkCheck = typeof import('../../client/checkout-link.js');

let linkCheck: Promise<LinkCheck> | undefined;

/** The schemas' chunk (memoized); a failed fetch (offline) is a network error and is not remembered. */
export function loadLinkCheck(): Promise<LinkCheck> {
  linkCheck ??= import('../../client/checkout-link.js').catch((error: unknown) => {
    linkCheck = undefined;
    throw new NetworkError({ cause: error });
  });
  return linkCheck;
}

/**
 * @internal `GET /checkout/links/{hash}`, started at once by the first script with a plain `fetch`, while the chunk
 * with the link's schema loads in parallel; the link is returned only once that chunk has validated the answer.
 * `fromPage`: the answer the page carries (`linkData`, or a `<script type="application/json">` child), used instead
 * when it is valid, for this link and not expired.
 */
export async function requestLink(options: ClientOptions, hash: string, signal: AbortSignal, fromPage?: unknown): Promise<CheckoutLink> {
  const check = loadLinkCheck();
  // The page's own copy of the answer (server-rendered pages): no request, once it passes the same contract.
  if (fromPage !== undefined) {
    const link = (await check).pageLink(fromPage, hash, Date.now());
    if (link) return link;
  }
  const answer = send(resolveBaseUrl(options) + linkPath(hash), { headers: { Accept: 'application/json' } }, defaultTimeoutMs, signal);
  const [link, read] = await Promise.all([answer, check]);
  return read.readLinkAnswer(link);
}

/** The link answer the page carries: `linkData`, else a JSON script child; undefined when there is none, or not JSON. */
export function linkOnPage(page: HTMLElement & { linkData: unknown }): unknown {
  if (page.linkData !== undefined) return page.linkData;
  const script = page.querySelector(':scope > script[type="application/json"]');
  try {
    return script ? (JSON.parse(script.textContent ?? '') as unknown) : undefined;
  } catch {
    return undefined; // not JSON: refused like any other unfit answer
  }
}
