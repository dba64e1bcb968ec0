/**
 * The shopper the handler sends on `POST /orders`: every field the live service's docs mark required
 * (first_name, last_name, email, phone_number, country besides the document), never a made-up value. Each comes from
 * the buyer's request (what the page prefilled or the buyer typed), else the merchant's link record (`resolveLink`'s
 * `shopper`), and `country` from the handler's `countryCode`. When the record leaves a contact field unknown, the
 * link answer asks the element to collect the contact fields (`collect_shopper_data`), which it already shows.
 */

/** The buyer's contact details as the merchant's link record has them (`resolveLink`'s `shopper`). */
export interface KnownShopper {
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  email?: string | null | undefined;
  phone_number?: string | null | undefined;
}

/** What of a link record (CheckoutLinkInfo) decides the shopper. */
interface LinkShopper {
  collectShopperData?: boolean | undefined;
  shopper?: KnownShopper | null | undefined;
}

/** The contact fields the live service requires and the element collects on `collect_shopper_data` links. */
export const contactFields = ['first_name', 'last_name', 'email', 'phone_number'] as const;

type ShopperContact = { [F in (typeof contactFields)[number] | 'country']?: string | undefined };

/** Whether the element must ask the buyer: the merchant asked for it, or the record lacks a contact field. */
export function asksForContact(info: LinkShopper): boolean {
  return info.collectShopperData === true || contactFields.some((field) => !known(info.shopper?.[field]));
}

const known = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** The request's shopper, completed from the link record and the country; the request's own values win. */
export function shopperForOrder<S extends ShopperContact>(requested: S, info: LinkShopper, countryCode: string): S {
  const shopper: S = { ...requested };
  for (const field of contactFields) {
    const fromRecord = info.shopper?.[field];
    if (!known(shopper[field]) && known(fromRecord)) shopper[field] = fromRecord.trim();
  }
  shopper.country ??= countryCode.toUpperCase();
  return shopper;
}
