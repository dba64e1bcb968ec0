import * as z from 'zod/mini';
import { Amount, CurrencyCode, PositiveId, Timestamp } from './common.js';
import { GatewayKindSchema } from './gateways.js';
import { CancelReasonSchema, OrderStatusSchema, ShopperSchema } from './orders.js';
import { isSafeRedirectUrl } from './redirect-url.js';

/**
 * The buyer API (docs/site/contributing/architecture.md): what the element speaks. No secrets cross it. The link (the first screen's one
 * call) is in checkout-link.ts, so the browser's first script holds only the schemas that call needs.
 */
export * from './checkout-link.js';
export * from './redirect-url.js';

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
  z.looseObject({
    type: z.literal('redirect'),
    url: z.string().check(z.refine(isSafeRedirectUrl, { message: 'must be an absolute https URL (http only on loopback)' })),
  }),
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
  /** The service's own reference of the payment (e.g. the bank's), when it gives one: shown on the receipt. */
  reference: z.optional(z.nullable(z.string())),
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
/** A bot-check token (Turnstile, hCaptcha) the page handed the element; the handler's `botCheck` verifies it. */
export const botCheckHeader = 'X-Bot-Check';
