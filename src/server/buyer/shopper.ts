/**
 * The shopper the handler sends on `POST /orders`: every field the live service's docs mark required
 * (first_name, last_name, email, phone_number, country besides the document), never a made-up value. Each comes from
 * the buyer's request (what the page prefilled or the buyer typed), else the merchant's link record (`resolveLink`'s
 * `shopper`), and `country` from the handler's `countryCode`. When the record leaves a contact field unknown, the
 * link answer asks the element to collect just those (`collect_shopper_data` with `collect_shopper_fields`).
 */
import { shopperContactFields, type CheckoutLink } from '../../contract/index.js';

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

type ShopperContact = { [F in (typeof shopperContactFields)[number] | 'country']?: string | undefined };

/**
 * What the element asks the buyer: the contact fields the record does not know, when there are any or the merchant
 * asked for the contact (`collectShopperData`). A field the record knows is never asked again, flag or not.
 */
export function contactToCollect(info: LinkShopper): Pick<CheckoutLink, 'collect_shopper_data' | 'collect_shopper_fields'> {
  const missing = shopperContactFields.filter((field) => !known(info.shopper?.[field]));
  if (info.collectShopperData !== true && missing.length === 0) return { collect_shopper_data: false };
  return { collect_shopper_data: true, collect_shopper_fields: missing };
}

const known = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** The request's shopper, completed from the link record and the country; the request's own values win. */
export function shopperForOrder<S extends ShopperContact>(requested: S, info: LinkShopper, countryCode: string): S {
  const shopper: S = { ...requested };
  for (const field of shopperContactFields) {
    const fromRecord = info.shopper?.[field];
    if (!known(shopper[field]) && known(fromRecord)) shopper[field] = fromRecord.trim();
  }
  shopper.country ??= countryCode.toUpperCase();
  return shopper;
}
