/**
 * The notice the shop's notify URL receives for an order's outcome: `{ id, type, created_at, data }`, its `id` the
 * same on every attempt and derived from the order (the service, the merchant, the order key) and status alone, so
 * even two outboxes that never met (two instances on memory outboxes) give one change one id, whoever learnt it
 * (a webhook, a buyer, the sweep), and a shop that keeps event ids marks it once.
 */
import { hmacSha256Hex } from '../../../webhooks/pay-checkout-signature.js';
import type { OrderStatusChange } from '../../buyer/order-status.js';

export type NoticeType = 'order.paid' | 'order.failed' | 'order.cancelled' | 'order.refunded';

export interface NoticeData {
  link: string;
  id_order: number;
  id_external: string | null;
  status: string;
  amount: number;
  currency: string;
  gateway: string;
}

export interface Notice {
  id: string;
  type: NoticeType | 'test';
  created_at: string;
  data: NoticeData | Record<string, never>;
}

/** Cancel reasons that mean the payment failed, not that someone cancelled it. */
const failedReasons = new Set(['declined', 'expired', 'otp_attempts']);

/**
 * The notice's type for a status: `confirmed` is paid, `refunded` refunded; `cancelled` is failed when the payment
 * was declined, ran out of time or of code attempts, else cancelled (by the buyer, the merchant, or for a reason the
 * service does not give). Undefined for statuses that are no outcome (`pending`, `processing`).
 */
export function noticeTypeOf(status: string, cancelReason: string | null | undefined): NoticeType | undefined {
  if (status === 'confirmed') return 'order.paid';
  if (status === 'refunded') return 'order.refunded';
  if (status === 'cancelled') return cancelReason && failedReasons.has(cancelReason) ? 'order.failed' : 'order.cancelled';
  return undefined;
}

/**
 * `evt_` + 32 hex of a hash of the order's uid (the service, the merchant, the order key) and the status: stable across
 * retries, instances and restarts, and another order's when the service hands the same order id out again.
 */
export const noticeIdOf = (orderUid: string, status: string) => `evt_${hmacSha256Hex('pay-checkout/notice-id', `${orderUid}\n${status}`).slice(0, 32)}`;

/** The outbox's dedupe key: one notice per order (its uid) and status. */
export const noticeKeyOf = (orderUid: string, status: string) => `${orderUid}:${status}`;

export function noticeOf(change: OrderStatusChange, createdAt: number): { notice: Notice; type: NoticeType } | undefined {
  const type = noticeTypeOf(change.status, change.cancel_reason);
  if (!type) return undefined;
  const data: NoticeData = {
    link: change.link,
    id_order: change.id_order,
    id_external: change.id_external,
    status: change.status,
    amount: change.amount,
    currency: change.currency,
    gateway: change.gateway,
  };
  return { type, notice: { id: noticeIdOf(change.order_uid, change.status), type, created_at: new Date(createdAt).toISOString(), data } };
}
