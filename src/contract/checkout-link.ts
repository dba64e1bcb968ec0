import * as z from 'zod/mini';
import { CurrencyCode, PositiveId, Timestamp } from './common.js';
import { DocumentTypeSchema, GatewayKindSchema } from './gateways.js';

/** `GET /checkout/links/{hash}`: the buyer API's first call, everything the first screen needs. */

export const linkStatuses = ['active', 'paid', 'expired'] as const;
export const LinkStatusSchema = z.enum(linkStatuses);
export type LinkStatus = z.infer<typeof LinkStatusSchema>;

/** A gateway as the checkout shows it. `id_types` lists the accepted `id_national_document_type`s. */
export const CheckoutGatewaySchema = z.looseObject({
  id_payment_gateway: PositiveId,
  name: z.string(),
  kind: GatewayKindSchema,
  required_fields: z.array(z.string()),
  id_types: z.array(PositiveId),
  min_amount: z.number(),
  max_amount: z.number(),
  icon: z.string(),
});
export type CheckoutGateway = z.infer<typeof CheckoutGatewaySchema>;

/** The buyer's contact fields a checkout may ask for (`collect_shopper_data`), which the live service requires. */
export const shopperContactFields = ['first_name', 'last_name', 'email', 'phone_number'] as const;
export type ShopperContactField = (typeof shopperContactFields)[number];

/** `GET /checkout/links/{hash}` `data`: everything the first screen needs. No `amount` = dynamic. */
export const CheckoutLinkSchema = z.looseObject({
  hash: z.string(),
  store_name: z.string(),
  description: z.string(),
  amount: z.optional(z.nullable(z.number())),
  currency: CurrencyCode,
  status: LinkStatusSchema,
  expires_at: z.nullable(Timestamp),
  collect_shopper_data: z.boolean(),
  /**
   * Which contact fields `collect_shopper_data` asks for: those the merchant's link record does not know (the server
   * handler sends it). Absent, as from the service or the sandbox, it asks for all four. A name this element does not
   * know is passed over (a newer server's field), never a reason to refuse the whole link.
   */
  collect_shopper_fields: z.optional(z.array(z.string())),
  gateways: z.array(CheckoutGatewaySchema),
  document_types: z.array(DocumentTypeSchema),
  /** The merchant's page for after the payment, when the link has one: the receipt's way back to the store. */
  redirect_link: z.optional(z.nullable(z.string())),
  /**
   * The store's personal-data policy (Ley 1581), when the link record carries one: the checkout links to it above
   * the pay button, as with the element's `privacy-url` (which wins). So the hosted page, whose element the merchant
   * does not write, can say it too. `https:` only (`http:` on loopback); anything else is not linked.
   */
  privacy_url: z.optional(z.nullable(z.string())),
  /**
   * An image of what is paid for, when the link record names one: a shared link's preview shows it (`og:image` on the
   * hosted page). `https:` only; anything else is left out of the preview. The checkout itself does not show it.
   */
  image_url: z.optional(z.nullable(z.string())),
});
export type CheckoutLink = z.infer<typeof CheckoutLinkSchema>;
