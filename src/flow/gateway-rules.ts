import type { CheckoutGateway } from '../contract/checkout-link.js';
import { walletDocumentTypes } from '../contract/limits.js';
import type { DocumentType } from '../contract/gateways.js';
import type { AmountRange, DetailsField } from './types.js';

/** What each payment method takes: amounts, fields and document types. The method screen needs these. */

/** Lowest `min_amount` and highest `max_amount` of the gateways: what the amount screen accepts. */
export function amountRange(gateways: readonly CheckoutGateway[]): AmountRange {
  if (gateways.length === 0) return { min: 1, max: Number.MAX_SAFE_INTEGER };
  return {
    min: Math.max(1, Math.min(...gateways.map((g) => g.min_amount))),
    max: Math.max(...gateways.map((g) => g.max_amount)),
  };
}

export function gatewayAcceptsAmount(gateway: CheckoutGateway, amount: number): boolean {
  return amount >= gateway.min_amount && amount <= gateway.max_amount;
}

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
