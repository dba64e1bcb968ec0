import * as z from 'zod/mini';
import { Amount, CurrencyCode, PositiveId, Timestamp } from './common.js';
import { orderKeyMaxLength } from './limits.js';

export const orderStatuses = ['pending', 'processing', 'confirmed', 'cancelled', 'refunded'] as const;
export const OrderStatusSchema = z.enum(orderStatuses);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export type OrderTrigger = 'gateway_processing' | 'payment_completed' | 'cancel' | 'refund';

export interface OrderTransition {
  from: readonly OrderStatus[];
  trigger: OrderTrigger;
  to: OrderStatus;
  /** Webhook events the transition emits (`link_paid` only for payment-link orders). */
  emits: readonly ('order_payment' | 'link_paid')[];
}

/** The contract's transition table, as data. Anything not listed is refused with INVALID_ORDER_STATUS. */
export const orderTransitions: readonly OrderTransition[] = [
  { from: ['pending'], trigger: 'gateway_processing', to: 'processing', emits: [] },
  { from: ['processing'], trigger: 'payment_completed', to: 'confirmed', emits: ['order_payment', 'link_paid'] },
  { from: ['pending', 'processing'], trigger: 'cancel', to: 'cancelled', emits: [] },
  { from: ['confirmed'], trigger: 'refund', to: 'refunded', emits: [] },
];

/** The transition `trigger` causes from `status`, or undefined when the contract does not allow it. */
export function findTransition(status: OrderStatus, trigger: OrderTrigger): OrderTransition | undefined {
  return orderTransitions.find((t) => t.trigger === trigger && t.from.includes(status));
}

export const terminalStatuses: readonly OrderStatus[] = ['cancelled', 'refunded'];

/**
 * Shopper input. The legacy names `national_id_number` / `id_national_document_type`
 * are accepted and normalized to `id_number` / `id_type`; both names present with
 * different values is refused.
 */
const ShopperInputShape = z.object({
  id_number: z.optional(z.string().check(z.trim(), z.minLength(1))),
  id_type: z.optional(PositiveId),
  national_id_number: z.optional(z.string().check(z.trim(), z.minLength(1))),
  id_national_document_type: z.optional(PositiveId),
  first_name: z.optional(z.string().check(z.maxLength(100))),
  last_name: z.optional(z.string().check(z.maxLength(100))),
  email: z.optional(z.email()),
  phone_number: z.optional(z.string().check(z.regex(/^\+?\d{7,15}$/, 'must contain only digits, with an optional leading +'))),
  country: z.optional(z.string().check(z.regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code'))),
});

export const ShopperSchema = z.pipe(
  ShopperInputShape,
  z.transform((input, ctx) => {
    const { national_id_number, id_national_document_type, ...rest } = input;
    const pairs = [
      ['id_number', rest.id_number, 'national_id_number', national_id_number],
      ['id_type', rest.id_type, 'id_national_document_type', id_national_document_type],
    ] as const;
    const out: Record<string, unknown> = { ...rest };
    for (const [name, value, legacy, legacyValue] of pairs) {
      if (value !== undefined && legacyValue !== undefined && value !== legacyValue) {
        ctx.issues.push({ code: 'custom', input, path: [legacy], message: `conflicts with ${name}; send only ${name}` });
        continue;
      }
      const chosen = value ?? legacyValue;
      if (chosen === undefined) ctx.issues.push({ code: 'custom', input, path: [name], message: 'is required' });
      else out[name] = chosen;
    }
    return out as Omit<typeof rest, 'id_number' | 'id_type'> & { id_number: string; id_type: number };
  }),
);
export type Shopper = z.output<typeof ShopperSchema>;
export type ShopperInput = z.input<typeof ShopperSchema>;

export const PaymentGatewayRefSchema = z.object({ id_payment_gateway: PositiveId });

const RedirectUrl = z.optional(z.url({ protocol: /^https?$/ }));

/** `POST /orders` body. `payment_gateway` is checked apart, so its absence is 4001. */
export const CreateOrderBodySchema = z.object({
  amount: Amount,
  description: z.string().check(z.minLength(1), z.maxLength(255)),
  currency: CurrencyCode,
  shopper: ShopperSchema,
  payment_gateway: z.optional(PaymentGatewayRefSchema),
  order_key: z.optional(z.string().check(z.minLength(1), z.maxLength(orderKeyMaxLength))),
  redirect_link: RedirectUrl,
  redirect_link_cancel: RedirectUrl,
  redirect_link_failure: RedirectUrl,
  device_key: z.optional(z.string()),
});
export type CreateOrderBody = z.output<typeof CreateOrderBodySchema>;
export type CreateOrderInput = z.input<typeof CreateOrderBodySchema>;

/** The gateway-specific block of an order (live service shape, plus `qr_data` and `expires_at`). */
export const OrderGatewayBlockSchema = z.looseObject({
  nequi: z.optional(z.looseObject({ phone_number: z.string() })),
  daviplata: z.optional(z.looseObject({ attempts_left: z.optional(z.int()) })),
  breb: z.optional(
    z.looseObject({
      /** Base64 PNG, no `data:` prefix. */
      qr_code: z.optional(z.string()),
      /** The EMVCo merchant-presented payload the PNG encodes. */
      qr_data: z.optional(z.string()),
      key: z.string(),
    }),
  ),
  stripe: z.optional(z.looseObject({ url: z.string() })),
});

/** `data` of `POST /orders`. */
export const CreatedOrderSchema = z.looseObject({
  id_order: PositiveId,
  id_external: z.optional(z.nullable(z.string())),
  status: OrderStatusSchema,
  daviplata_token_required: z.optional(z.boolean()),
  payment_gateway: z.optional(OrderGatewayBlockSchema),
  expires_at: z.optional(z.nullable(Timestamp)),
});
export type CreatedOrder = z.infer<typeof CreatedOrderSchema>;

export const cancelReasons = ['declined', 'expired', 'buyer', 'merchant', 'otp_attempts'] as const;
export const CancelReasonSchema = z.enum(cancelReasons);
export type CancelReason = z.infer<typeof CancelReasonSchema>;

/** `data` of `GET /orders/{orderId}` (live fields, plus what a server needs to resume the buyer's step). */
export const OrderDetailsSchema = z.looseObject({
  id_order: PositiveId,
  id_external: z.nullable(z.string()),
  purchase_date: Timestamp,
  status: OrderStatusSchema,
  total: z.number(),
  currency: CurrencyCode,
  description: z.optional(z.string()),
  payment_method: z.optional(
    z.looseObject({ gateway: z.string(), id_payment_gateway: z.optional(PositiveId), status: z.string() }),
  ),
  payment_gateway: z.optional(OrderGatewayBlockSchema),
  expires_at: z.optional(z.nullable(Timestamp)),
  confirmed_at: z.optional(z.nullable(Timestamp)),
  cancel_reason: z.optional(z.nullable(CancelReasonSchema)),
});
export type OrderDetails = z.infer<typeof OrderDetailsSchema>;

/** `POST /orders/refund/{orderId}` body. */
export const RefundBodySchema = z.object({ id_external: z.optional(z.string()) });
/** Refund 200: `result`, a success message. */
export const RefundResponseSchema = z.looseObject({ result: z.string() });

/** `POST /orders/cancel/{orderId}` 200 `data`. */
export const CancelledOrderSchema = z.looseObject({ id_order: PositiveId, status: OrderStatusSchema });

/** `POST /orders/daviplata/{orderId}` body. */
export const OtpBodySchema = z.object({
  daviplata_otp: z.string().check(z.regex(/^\d{6}$/, 'must be exactly 6 digits')),
});
export type OtpBody = z.infer<typeof OtpBodySchema>;

/** `POST /orders/daviplata/{orderId}` 200 `data`. */
export const OtpResultSchema = z.looseObject({
  id_order: PositiveId,
  status: OrderStatusSchema,
  payment_method: z.optional(
    z.looseObject({
      gateway: z.string(),
      id_number: z.optional(z.string()),
      status: z.string(),
      confirmation_number: z.optional(z.string()),
    }),
  ),
});
