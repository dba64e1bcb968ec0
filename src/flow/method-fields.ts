import type { CheckoutGateway } from '../contract/checkout-link.js';
import { walletDocumentTypes } from '../contract/limits.js';
import type { DocumentType } from '../contract/gateways.js';
import type { DetailsField } from './types.js';

/** What fields and document types each payment method takes: the details screen's, with the later steps. */

/**
 * The fields a method needs, in display order: always the document (the service
 * requires it for every gateway), the phone for push or when the gateway lists
 * it, and the contact fields when the link collects shopper data.
 */
export function neededFields(gateway: CheckoutGateway, collectShopperData: boolean): DetailsField[] {
  const phone =
    gateway.kind === 'push' || gateway.required_fields.includes('phone_number') || collectShopperData;
  const fields: DetailsField[] = ['id_type', 'id_number'];
  if (phone) fields.push('phone_number');
  if (collectShopperData) fields.push('first_name', 'last_name', 'email');
  return fields;
}

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
