import type { CheckoutGateway, CheckoutLink } from '../contract/checkout-link.js';
import { walletDocumentTypes } from '../contract/limits.js';
import type { DocumentType } from '../contract/gateways.js';
import type { DetailsField } from './types.js';

/** What fields and document types each payment method takes: the details screen's, with the later steps. */

/** What of the link decides the contact fields: `collect_shopper_data`, and which of them (all four when unlisted). */
export type ContactAsked = Pick<CheckoutLink, 'collect_shopper_data' | 'collect_shopper_fields'>;

/**
 * The fields a method needs, in display order: always the document (the service requires it for every gateway), the
 * phone for push or when the gateway lists it, and the contact fields the link collects: those its answer lists (the
 * ones the merchant's record lacks), else all four.
 */
export function neededFields(gateway: CheckoutGateway, contact: ContactAsked): DetailsField[] {
  const asks = (field: DetailsField) => contact.collect_shopper_data && (contact.collect_shopper_fields ?? [field]).includes(field);
  const fields: DetailsField[] = ['id_type', 'id_number'];
  if (methodTakesPhone(gateway) || asks('phone_number')) fields.push('phone_number');
  for (const field of ['first_name', 'last_name', 'email'] as const) if (asks(field)) fields.push(field);
  return fields;
}

/** Whether the method itself pays from a phone (a push goes to it); else a phone asked is the buyer's contact. */
export const methodTakesPhone = (gateway: CheckoutGateway) => gateway.kind === 'push' || gateway.required_fields.includes('phone_number');

/**
 * The document types a method accepts: the gateway's `id_types` (all of them
 * when it lists none), and for the digital wallet and transfer only CC, CE, TI.
 */
export function idTypeChoices(gateway: CheckoutGateway, documentTypes: readonly DocumentType[]): DocumentType[] {
  const walletOnly = gateway.kind === 'otp' || gateway.kind === 'transfer';
  return documentTypes.filter(
    (d) =>
      (gateway.id_types.length === 0 || gateway.id_types.includes(d.id_national_document_type)) &&
      (!walletOnly || (walletDocumentTypes as readonly string[]).includes(d.type.toUpperCase())),
  );
}
