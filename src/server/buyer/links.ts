/** The merchant's own payment links, as `resolveLink` describes them, turned into the buyer API's CheckoutLink. */
import type { CheckoutGateway, CheckoutLink, DocumentType, LinkStatus } from '../../contract/index.js';
import { contactToCollect, type KnownShopper } from './shopper.js';

/** What `resolveLink(hash)` returns: the merchant's record of a link. */
export interface CheckoutLinkInfo {
  /** Fixed amount in whole pesos; absent (or null) makes a dynamic link where the buyer types it. */
  amount?: number | null | undefined;
  description: string;
  /** Default `COP`. */
  currency?: string | undefined;
  storeName: string;
  /** Ask the buyer for the contact (first name, last name, email, phone) that `shopper` does not know. */
  collectShopperData?: boolean | undefined;
  expiresAt?: Date | string | null | undefined;
  /** Default `active`, or `expired` once `expiresAt` has passed. */
  status?: LinkStatus | undefined;
  /** The store's page for after the payment: the receipt's way back (the element's `store-url` wins). */
  redirectLink?: string | null | undefined;
  /** The store's personal-data policy (Ley 1581), linked above the pay button; the element's `privacy-url` wins. */
  privacyUrl?: string | null | undefined;
  /** A picture of what is paid for, `https:` only: the hosted page's link preview (`og:image`) shows it. */
  imageUrl?: string | null | undefined;
  /**
   * What the store already knows of the buyer (the live plugin sends its customer with every link). Sent to the
   * service with the order, never to the browser; a field the page or the buyer gives wins. Fields left unknown are
   * asked of the buyer on the details screen.
   */
  shopper?: KnownShopper | null | undefined;
}


export type ResolveLink = (hash: string, request: Request) => CheckoutLinkInfo | null | undefined | Promise<CheckoutLinkInfo | null | undefined>;

export const defaultCurrency = 'COP';

function toIso(value: Date | string): string {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw new TypeError(`resolveLink returned an invalid expiresAt: ${String(value)}`);
  return new Date(ms).toISOString();
}

export const linkCurrency = (info: CheckoutLinkInfo) => info.currency ?? defaultCurrency;
export const linkAmount = (info: CheckoutLinkInfo) => (info.amount === null ? undefined : info.amount);

/** `paid` and `expired` win over the clock; an `active` link whose `expiresAt` has passed is `expired`. */
export function linkStatus(info: CheckoutLinkInfo, now: number): LinkStatus {
  if (info.status === 'paid' || info.status === 'expired') return info.status;
  if (info.expiresAt && Date.parse(toIso(info.expiresAt)) <= now) return 'expired';
  return 'active';
}

export function toCheckoutLink(
  hash: string,
  info: CheckoutLinkInfo,
  gateways: CheckoutGateway[],
  documentTypes: DocumentType[],
  now: number,
): CheckoutLink {
  const amount = linkAmount(info);
  return {
    hash,
    store_name: info.storeName,
    description: info.description,
    ...(amount !== undefined ? { amount } : {}),
    currency: linkCurrency(info),
    status: linkStatus(info, now),
    expires_at: info.expiresAt ? toIso(info.expiresAt) : null,
    ...contactToCollect(info),
    gateways,
    document_types: documentTypes,
    ...(info.redirectLink ? { redirect_link: info.redirectLink } : {}),
    ...(info.privacyUrl ? { privacy_url: info.privacyUrl } : {}),
    ...(info.imageUrl ? { image_url: info.imageUrl } : {}),
  };
}
