/**
 * The shopper the handler sends on `POST /orders`: every field the live service's docs mark required
 * (first_name, last_name, email, phone_number, country besides the document), never a made-up value. Each comes from
 * the buyer's request (what the page prefilled or the buyer typed), else the merchant's link record (`resolveLink`'s
 * `shopper`), and `country` from the handler's `countryCode`. When the record leaves a contact field unknown, the
 * link answer asks the element to collect the contact fields (`collect_shopper_data`), which it already shows.
 */
import type { CheckoutLinkInfo } from './links.js';

/** The contact fields the live service requires and the element collects on `collect_shopper_data` links. */
export const contactFields = ['first_name', 'last_name', 'email', 'phone_number'] as const;

type ShopperContact = { [F in (typeof contactFields)[number] | 'country']?: string | undefined };

/** Whether the element must ask the buyer: the merchant asked for it, or the record lacks a contact field. */
export function asksForContact(info: CheckoutLinkInfo): boolean {
  return info.collectShopperData === true || contactFields.some((field) => !known(info.shopper?.[field]));
}

const known = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** The request's shopper, completed from the link record and the country; the request's own values win. */
export function shopperForOrder<S extends ShopperContact>(requested: S, info: CheckoutLinkInfo, countryCode: string): S {
  const shopper: S = { ...requested };
  for (const field of contactFields) {
    const fromRecord = info.shopper?.[field];
    if (!known(shopper[field]) && known(fromRecord)) shopper[field] = fromRecord.trim();
  }
  shopper.country ??= countryCode.toUpperCase();
  return shopper;
}
