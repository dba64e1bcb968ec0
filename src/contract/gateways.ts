import * as z from 'zod/mini';
import { PositiveId } from './common.js';

/** How a gateway asks the buyer to pay (`next_action`). */
export const gatewayKinds = ['push', 'otp', 'transfer', 'card'] as const;
export const GatewayKindSchema = z.enum(gatewayKinds);
export type GatewayKind = z.infer<typeof GatewayKindSchema>;

/** One item of `GET /orders/paymentGateways` (live shape; `kind` etc. are sandbox additions). */
export const PaymentGatewaySchema = z.looseObject({
  id_payment_gateway: PositiveId,
  name: z.string(),
  required_fields: z.array(z.string()),
  icon: z.string(),
});
export type PaymentGateway = z.infer<typeof PaymentGatewaySchema>;
export const PaymentGatewayListSchema = z.array(PaymentGatewaySchema);

/** One item of `GET /national-document-types/{countryCode}`. */
export const DocumentTypeSchema = z.looseObject({
  id_national_document_type: PositiveId,
  country_code: z.string(),
  type: z.string(),
  description: z.string(),
});
export type DocumentType = z.infer<typeof DocumentTypeSchema>;
export const DocumentTypeListSchema = z.array(DocumentTypeSchema);

// In limits.ts (no zod), so the browser's first script can read it without the schemas.
export { walletDocumentTypes } from './limits.js';
