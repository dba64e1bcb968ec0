import type { Prefill } from '../../flow/types.js';

/** What the merchant already knows about the buyer, as the `shopper` property takes it (the attributes win over it). */
export interface ShopperPrefill {
  /** The document type's code (`CC`, `CE`, `TI`, …) or its numeric id. */
  id_type?: string | number;
  id_number?: string;
  phone_number?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
}

/** `<pay-checkout>`'s prefill attributes and property. */
export interface PagePrefill {
  idType?: string | undefined;
  idNumber?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  shopper?: ShopperPrefill | null | undefined;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/**
 * The page's prefill as the flow's fields, read whenever the details screen opens (so a framework that sets `shopper`
 * late is still heard); with the later steps, since the first screens need none of it.
 */
export function prefillOf(page: PagePrefill): Prefill {
  const s = page.shopper ?? {};
  return {
    id_type: text(page.idType ?? s.id_type),
    id_number: text(page.idNumber ?? s.id_number),
    phone_number: text(page.phone ?? s.phone_number),
    first_name: text(page.firstName ?? s.first_name),
    last_name: text(page.lastName ?? s.last_name),
    email: text(page.email ?? s.email),
  };
}
