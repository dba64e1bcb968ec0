import * as z from 'zod/mini';
import { CurrencyCode, PositiveId, Timestamp } from './common.js';
import { OrderStatusSchema } from './orders.js';
import type { WebhookEventName } from './partners.js';

const base = { event: z.string(), timestamp: Timestamp };

/** `order_payment`: the Order as the contract's Resources section shows it. */
export const OrderPaymentPayloadSchema = z.looseObject({
  event: z.literal('order_payment'),
  timestamp: Timestamp,
  id_order: PositiveId,
  id_external: z.nullable(z.string()),
  status: OrderStatusSchema,
  total_price: z.number(),
  currency: CurrencyCode,
  payment_method: z.looseObject({ gateway: z.string(), status: z.string() }),
  totalItems: z.int().check(z.minimum(0)),
  shopper: z.looseObject({
    first_name: z.nullable(z.string()),
    last_name: z.nullable(z.string()),
    email: z.nullable(z.string()),
  }),
  external_store_id: z.nullable(z.string()),
  id_store: z.optional(PositiveId),
});
export type OrderPaymentPayload = z.infer<typeof OrderPaymentPayloadSchema>;

/** `integration_uninstalled`: fields as the contract lists them. */
export const IntegrationUninstalledPayloadSchema = z.looseObject({
  event: z.literal('integration_uninstalled'),
  timestamp: Timestamp,
  id_store: PositiveId,
  external_id: z.nullable(z.string()),
  store_name: z.string(),
});
export type IntegrationUninstalledPayload = z.infer<typeof IntegrationUninstalledPayloadSchema>;

/** `store_onboarded`: carries `merchant_key`; the other fields are not shown by the contract. */
export const StoreOnboardedPayloadSchema = z.looseObject({
  ...base,
  event: z.literal('store_onboarded'),
  merchant_key: z.string().check(z.minLength(1)),
  id_store: z.optional(PositiveId),
  store_name: z.optional(z.string()),
  external_id: z.optional(z.nullable(z.string())),
});
export type StoreOnboardedPayload = z.infer<typeof StoreOnboardedPayloadSchema>;

// Payloads the contract does not show or marks "not finalized": parsed leniently,
// requiring only the event name; every other field is passed through untouched.
const lenient = <E extends string>(event: E) => z.looseObject({ event: z.literal(event), timestamp: z.optional(z.string()) });

export const LinkPaidPayloadSchema = lenient('link_paid');
export const TestPingPayloadSchema = lenient('test.ping');
export const StoreUpdatedPayloadSchema = lenient('store_updated');
export const StoreDeletedPayloadSchema = lenient('store_deleted');
export const IntegrationInstalledPayloadSchema = lenient('integration_installed');
/** Not finalized by the contract; may change without notice. */
export const OrderCancelledPayloadSchema = lenient('order_cancelled');
/** Not finalized by the contract; may change without notice. */
export const OrderRefundedPayloadSchema = lenient('order_refunded');

export const webhookPayloadSchemas = {
  order_payment: OrderPaymentPayloadSchema,
  link_paid: LinkPaidPayloadSchema,
  store_onboarded: StoreOnboardedPayloadSchema,
  store_updated: StoreUpdatedPayloadSchema,
  store_deleted: StoreDeletedPayloadSchema,
  integration_installed: IntegrationInstalledPayloadSchema,
  integration_uninstalled: IntegrationUninstalledPayloadSchema,
  order_cancelled: OrderCancelledPayloadSchema,
  order_refunded: OrderRefundedPayloadSchema,
  'test.ping': TestPingPayloadSchema,
} as const satisfies Record<WebhookEventName, z.ZodMiniType>;

export type WebhookPayloadMap = { [E in WebhookEventName]: z.infer<(typeof webhookPayloadSchemas)[E]> };
/** A parsed webhook payload, discriminated by `event`. */
export type WebhookPayload = WebhookPayloadMap[WebhookEventName];
