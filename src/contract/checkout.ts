import * as z from 'zod/mini';
import { Amount, CurrencyCode, PositiveId, Timestamp } from './common.js';
import { DocumentTypeSchema, GatewayKindSchema } from './gateways.js';
import { CancelReasonSchema, OrderStatusSchema, ShopperSchema } from './orders.js';

/** The buyer API of design.md §3: what the element speaks. No secrets cross it. */

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
  gateways: z.array(CheckoutGatewaySchema),
  document_types: z.array(DocumentTypeSchema),
});
export type CheckoutLink = z.infer<typeof CheckoutLinkSchema>;

/** What the buyer does next. */
export const NextActionSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('approve_push'), phone_hint: z.string(), expires_at: Timestamp }),
  z.looseObject({
    type: z.literal('enter_otp'),
    length: z.literal(6),
    expires_at: Timestamp,
    attempts_left: z.int().check(z.minimum(0)),
  }),
  z.looseObject({
    type: z.literal('transfer'),
    key: z.string().check(z.minLength(1)),
    qr_data: z.optional(z.string()),
    qr_png: z.optional(z.string()),
    expires_at: Timestamp,
  }),
  z.looseObject({ type: z.literal('redirect'), url: z.string().check(z.minLength(1)) }),
]);
export type NextAction = z.infer<typeof NextActionSchema>;
export type NextActionType = NextAction['type'];

/** `POST /checkout/links/{hash}/orders` body. `amount` only for dynamic links. */
export const CheckoutOrderBodySchema = z.object({
  amount: z.optional(Amount),
  payment_gateway: z.object({ id_payment_gateway: PositiveId }),
  shopper: ShopperSchema,
  /** Where the card page sends the buyer back; defaults to the page that started it. */
  return_url: z.optional(z.url({ protocol: /^https?$/ })),
});
export type CheckoutOrderBody = z.output<typeof CheckoutOrderBodySchema>;
export type CheckoutOrderInput = z.input<typeof CheckoutOrderBodySchema>;

/** An order as the buyer sees it. */
export const CheckoutOrderSchema = z.looseObject({
  id_order: PositiveId,
  status: OrderStatusSchema,
  amount: z.number(),
  currency: CurrencyCode,
  description: z.optional(z.string()),
  gateway: z.looseObject({ id_payment_gateway: PositiveId, name: z.string(), kind: GatewayKindSchema }),
  created_at: Timestamp,
  confirmed_at: z.optional(z.nullable(Timestamp)),
  cancel_reason: z.optional(z.nullable(CancelReasonSchema)),
  next_action: z.nullable(NextActionSchema),
});
export type CheckoutOrder = z.infer<typeof CheckoutOrderSchema>;

/** `POST /checkout/links/{hash}/orders` 200/201 `data`: the order plus its `order_token`. */
export const CheckoutOrderCreatedSchema = z.looseObject({
  ...CheckoutOrderSchema.def.shape,
  order_token: z.string().check(z.minLength(16)),
});
export type CheckoutOrderCreated = z.infer<typeof CheckoutOrderCreatedSchema>;

export const orderTokenHeader = 'X-Order-Token';
export const idempotencyKeyHeader = 'Idempotency-Key';
