/**
 * What the handler tells `onOrderStatus`: each outcome of an order it learns (paid, cancelled, refunded), from the
 * service's verified webhooks, from the buyers' own status checks, and from the sweep that re-reads every open order
 * until it is final (sweep/sweep.ts); the receiver keeps one per order and status. The link an order was paid through
 * is recorded when the order is created (the service's order carries no link), in the open orders beside the claims,
 * keyed by what makes the order unique (the service, the merchant and its `order_key`), so an order id the service
 * hands out again (a reset, another environment) never names another order's link. Before anything is told, the
 * record is checked against the order: same id, same order key.
 */
import type { CancelReason, GatewayKind, OrderDetails, OrderStatus } from '../../contract/index.js';
import type { MerchantClient } from '../../client/index.js';
import { CancelReasonSchema } from '../../contract/index.js';
import { hmacSha256Hex } from '../../webhooks/pay-checkout-signature.js';
import { keepTrying } from '../once/claims.js';
import { errorFields, type EventSink } from '../events.js';
import { gatewayOfOrder } from './orders.js';
import { openOrderKeepMs, type OpenOrderRecord, type OpenOrderStore } from '../once/open-orders.js';

/** Who learnt an outcome first on this instance: a verified webhook, a buyer's status check, or the sweep. */
export type OutcomeSource = 'webhook' | 'buyer' | 'sweep';

/** One status change of an order, as the shop's notice carries it. */
export interface OrderStatusChange {
  /** The payment link's hash the order was created for. */
  link: string;
  id_order: number;
  /** The `order_key` the handler sent at creation (`pc_…`). */
  id_external: string | null;
  status: OrderStatus;
  amount: number;
  currency: string;
  gateway: GatewayKind;
  /** Why a cancelled order was cancelled, where the service says (tells a failed payment from a cancelled one). */
  cancel_reason: CancelReason | null;
  /**
   * What makes the order unique: the service, the merchant and its order key. The notice's id and the outbox's key
   * derive from it and the status, so an order id the service reuses is another order.
   */
  order_uid: string;
  /** How this instance learnt it: `webhook`, `buyer` (a status check) or `sweep` (the server re-read the order). */
  found_by: OutcomeSource;
}

export type OnOrderStatus = (change: OrderStatusChange) => void | Promise<void>;

/** The statuses that are outcomes for the shop; pending and processing send nothing. */
export const outcomeStatuses: ReadonlySet<OrderStatus> = new Set<OrderStatus>(['confirmed', 'cancelled', 'refunded']);

/** Long enough for a refund (96 hours after purchase) and the service's webhook retries after it. */
export const orderLinkTtlMs = openOrderKeepMs;
/** The same outcome seen again on this instance (every poll of a paid order) is not reported again. */
const reportedCap = 10_000;

/**
 * The part of an order's uid that names the service and the merchant: a digest of the service's base URL and the
 * merchant's identity (for the handler's own key, a digest of it, never the key).
 */
export function orderScopeOf(serviceBaseUrl: string, merchantIdentity: string): string {
  return hmacSha256Hex('pay-checkout/order-scope', `${serviceBaseUrl}\n${merchantIdentity}`).slice(0, 20);
}

/** The handler's own merchant key as an identity: a digest, so the key itself is never stored or compared. */
export const merchantIdentityOf = (merchantKey: string) => `key:${hmacSha256Hex('pay-checkout/merchant-identity', merchantKey).slice(0, 32)}`;

export const orderUidOf = (scope: string, orderKey: string) => `${scope}.${orderKey}`;

/** What a create records about its order (one store write). */
export interface CreatedOrderRecord {
  hash: string;
  idOrder: number;
  orderKey: string;
  amount: number;
  /** How long until the service says the order expires, if it says. */
  expiresInMs: number | undefined;
  /** Whose key reads it: omitted for the handler's own merchant key; a shop's reference in partner mode. */
  merchant?: string;
}

export interface OrderStatusNotices {
  /** An order was created through a link: record it, open, with its link, for its later changes and the sweep. */
  created(order: CreatedOrderRecord): Promise<void>;
  /** A buyer's status check (or cancel, or code) read the order. */
  seen(details: OrderDetails, merchant?: string): Promise<void>;
  /** A verified webhook said the order changed: an outcome's record is read back from the service, then reported. */
  delivered(idOrder: number, status: string, client: MerchantClient, merchant?: string): Promise<void>;
  /**
   * The sweep read an open order: an outcome is reported as found by it. `found` (told now, and closed), `known`
   * (told before on this instance), `pending` (not final yet), or `other` (the service's order under that id is not
   * this record's: not told, and closed).
   */
  swept(details: OrderDetails, record: OpenOrderRecord): Promise<'found' | 'known' | 'pending' | 'other'>;
  /** The records: the sweep follows them. */
  readonly orders: OpenOrderStore;
  /** The uid of an order of `merchant` (`''` the handler's own) with this order key. */
  uidOf(orderKey: string, merchant?: string): string;
}

export interface OrderStatusNoticeOptions {
  onOrderStatus: OnOrderStatus | undefined;
  orders: OpenOrderStore;
  /** The scope (service and merchant) of a merchant reference: `''` is the handler's own key. */
  scopeOf: (merchant: string) => string;
  /** The reference of the handler's own orders; default `''` (its own key). Partner mode: the shop's id. */
  ownRef?: string;
  /** When the sweep first reads a new order. */
  firstReadMs: number;
  /** How long a buyer's read of an order puts off the sweep's next read of it; 0 for never. */
  postponeMs: number;
  /** How long a record that could not be written at the create is tried again in the background. */
  retryMs: number;
  emit: EventSink;
}

export function orderStatusNotices(options: OrderStatusNoticeOptions): OrderStatusNotices | undefined {
  const { onOrderStatus, orders, emit } = options;
  if (!onOrderStatus) return undefined;
  const reported = new Set<string>();
  const postponed = new Map<string, number>();
  const own = options.ownRef ?? '';
  const uidOf = (orderKey: string, merchant = own) => orderUidOf(options.scopeOf(merchant), orderKey);

  /** The record is this order's: the same id and, where the service says it, the same order key. */
  const matches = (details: OrderDetails, record: OpenOrderRecord) =>
    record.id_order === details.id_order && (details.id_external === undefined || details.id_external === null || details.id_external === record.order_key);

  const report = async (details: OrderDetails, found_by: OutcomeSource, known?: OpenOrderRecord, merchant = own): Promise<'told' | 'known' | 'other' | 'none'> => {
    const uid = known?.uid ?? (details.id_external ? uidOf(details.id_external, merchant) : undefined);
    const seenKey = `${uid ?? `#${details.id_order}`}:${details.status}`;
    if (reported.has(seenKey)) return 'known';
    // Marked at once, so checks of one order together on this instance report it once; a failure unmarks it.
    if (reported.size >= reportedCap) reported.clear();
    reported.add(seenKey);
    try {
      const gateway = gatewayOfOrder(details);
      const record = known ?? (uid ? await orders.get(uid) : undefined);
      if (!record || !gateway) {
        // Not an order of this server's links (a partner account sees every store's), or its record has expired.
        emit({ level: 'warn', name: 'order_status_unlinked', message: `order ${details.id_order} ${details.status}: no link is known for it; no notice sent`, id_order: details.id_order });
        return 'none';
      }
      if (!matches(details, record)) {
        emit({
          level: 'warn',
          name: 'order_status_other_order',
          message: `order ${details.id_order} ${details.status}: the service's order under this id is not the one created on link ${record.link} (another order key); no notice sent`,
          id_order: details.id_order,
        });
        return 'other';
      }
      const cancel = CancelReasonSchema.safeParse(details.cancel_reason);
      await onOrderStatus({
        link: record.link,
        id_order: details.id_order,
        id_external: details.id_external ?? record.order_key,
        status: details.status,
        amount: details.total,
        currency: details.currency,
        gateway: gateway.kind,
        cancel_reason: cancel.success ? cancel.data : null,
        order_uid: record.uid,
        found_by,
      });
      // Told: the sweep stops following it (a failure here only costs it one more read, and the receiver one more copy).
      await orders.close(record.uid).catch(() => {});
      return 'told';
    } catch (error) {
      reported.delete(seenKey);
      throw error;
    }
  };

  /** A buyer is reading this order now: the sweep need not, for a while (at most one write per order per half of it). */
  const putOff = (details: OrderDetails, merchant: string) => {
    if (options.postponeMs <= 0 || !details.id_external) return;
    const uid = uidOf(details.id_external, merchant);
    const at = Date.now();
    if ((postponed.get(uid) ?? -Infinity) > at - options.postponeMs / 2) return;
    if (postponed.size >= reportedCap) postponed.clear();
    postponed.set(uid, at);
    void orders.postpone(uid, options.postponeMs).catch(() => {});
  };

  return {
    orders,
    uidOf,
    async created({ hash, idOrder, orderKey, amount, expiresInMs, merchant = own }) {
      const createdAt = Date.now();
      const record = {
        uid: uidOf(orderKey, merchant),
        id_order: idOrder,
        order_key: orderKey,
        link: hash,
        merchant,
        amount,
        created_at: createdAt,
        expires_at: expiresInMs === undefined ? null : createdAt + expiresInMs,
      };
      const write = async () => (await orders.open(record, options.firstReadMs, openOrderKeepMs), true);
      try {
        await write();
        return;
      } catch (error) {
        emit({ level: 'warn', name: 'order_link_delayed', message: `order ${idOrder}: its link could not be stored yet; trying again in the background`, id_order: idOrder, error: errorFields(error, undefined, false) });
      }
      // The create is answered meanwhile; a store that is back within the time still gets the record.
      keepTrying(write, Date.now() + options.retryMs);
    },
    async seen(details, merchant = own) {
      if (!outcomeStatuses.has(details.status)) return putOff(details, merchant);
      try {
        await report(details, 'buyer', undefined, merchant);
      } catch (error) {
        // The buyer's answer does not wait on the shop's notice; the next check (or the sweep) reports it again.
        emit({ level: 'error', name: 'order_status_unrecorded', message: `order ${details.id_order} ${details.status}: the notice could not be recorded`, id_order: details.id_order, error: errorFields(error, undefined, false) });
      }
    },
    async delivered(idOrder, status, client, merchant = own) {
      if (!outcomeStatuses.has(status as OrderStatus)) return;
      // The service's own record, not the webhook's copy: it names the gateway and why a cancelled order ended. A
      // failure here fails the delivery, so the service sends it again rather than the notice being lost.
      await report(await client.getOrder(idOrder), 'webhook', undefined, merchant);
    },
    async swept(details, record) {
      if (!matches(details, record)) {
        await report(details, 'sweep', record);
        await orders.close(record.uid);
        return 'other';
      }
      if (!outcomeStatuses.has(details.status)) return 'pending';
      const done = await report(details, 'sweep', record);
      return done === 'told' ? 'found' : done === 'known' ? 'known' : 'other';
    },
  };
}
