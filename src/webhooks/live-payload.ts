/**
 * Webhook payloads as the live service's pages show them (live-service-facts §8, §13), turned into the contract's
 * flat payloads: `{ event, timestamp, data: { id_order, … } }` flattened, the older event names mapped, `amount`
 * read as `total_price`, a status in any letter case. Run only on a body whose signature has verified.
 */
import * as z from 'zod/mini';
import { PositiveId, Timestamp } from '../contract/common.js';
import { OrderStatusSchema, orderStatuses } from '../contract/orders.js';

/** Older and "coming soon" names of the live docs, as the contract's events. */
export const legacyEventNames: Readonly<Record<string, string>> = {
  'order.confirmed': 'order_payment',
  order_confirmed: 'order_payment',
  'order.cancelled': 'order_cancelled',
  'order.refunded': 'order_refunded',
};

/** How the body was laid out: the contract's flat payload, or the live pages' `data`-nested one. */
export type PayloadLayout = 'flat' | 'nested';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The event name: the body's (mapped), else the header's (mapped); null when neither says. */
export function eventNameOf(body: Json, headerEvent: string | undefined): string | null {
  const raw = typeof body.event === 'string' ? body.event : headerEvent ?? null;
  return raw === null ? null : Object.hasOwn(legacyEventNames, raw) ? (legacyEventNames[raw] as string) : raw;
}

/** The payload flattened to the contract's layout, with the live field names read as the contract's. */
export function flattenPayload(body: Json, event: string | null): { payload: Json; layout: PayloadLayout } {
  const nested = isObject(body.data) && body.id_order === undefined && body.id_store === undefined;
  const inner: Json = nested ? { ...(body.data as Json) } : { ...body };
  const { data: _data, ...outer } = body;
  const payload: Json = nested ? { ...inner, ...outer } : inner;
  if (event !== null) payload.event = event;
  if (payload.timestamp === undefined && nested && (body.data as Json).timestamp !== undefined) payload.timestamp = (body.data as Json).timestamp;
  if (event === 'order_payment' || event === 'order_cancelled' || event === 'order_refunded') {
    if (payload.total_price === undefined && typeof payload.amount === 'number') payload.total_price = payload.amount;
    if (typeof payload.status === 'string') {
      const lower = payload.status.trim().toLowerCase();
      if ((orderStatuses as readonly string[]).includes(lower)) payload.status = lower;
    }
    if (payload.payment_method === undefined && typeof payload.payment_gateway === 'string') {
      payload.payment_method = { gateway: payload.payment_gateway, status: typeof payload.status === 'string' ? payload.status : 'unknown' };
    }
  }
  return { payload, layout: nested ? 'nested' : 'flat' };
}

/**
 * `order_payment` as the live pages show it (`{ id_order, status, amount, currency }`): the order and its status are
 * what a receiver acts on (after reading the order back); the rest is kept when sent, never required.
 */
export const LiveOrderPaymentPayloadSchema = z.looseObject({
  event: z.literal('order_payment'),
  timestamp: Timestamp,
  id_order: PositiveId,
  status: OrderStatusSchema,
  id_external: z.optional(z.nullable(z.string())),
  total_price: z.optional(z.number()),
  currency: z.optional(z.string()),
});
export type LiveOrderPaymentPayload = z.infer<typeof LiveOrderPaymentPayloadSchema>;
