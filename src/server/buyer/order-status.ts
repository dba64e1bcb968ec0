/**
 * What the handler tells `onOrderStatus`: each outcome of an order it learns (paid, cancelled, refunded), from the
 * service's verified webhooks and from the buyers' own status checks (the contract shows a webhook for payment only,
 * so a cancellation is learnt from the buyer's page; the receiver keeps one per order and status). The
 * link an order was paid through is remembered in the claim store when the order is created (the service's order
 * carries no link), so any instance sharing the store can name it later.
 */
import type { CancelReason, GatewayKind, OrderDetails, OrderStatus } from '../../contract/index.js';
import type { MerchantClient } from '../../client/index.js';
import { CancelReasonSchema } from '../../contract/index.js';
import { keepTrying, type ClaimStore } from '../once/claims.js';
import { errorFields, type EventSink } from '../events.js';
import { gatewayOfOrder } from './orders.js';

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
}

export type OnOrderStatus = (change: OrderStatusChange) => void | Promise<void>;

/** The statuses that are outcomes for the shop; pending and processing send nothing. */
export const outcomeStatuses: ReadonlySet<OrderStatus> = new Set<OrderStatus>(['confirmed', 'cancelled', 'refunded']);

/** Long enough for a refund (96 hours after purchase) and the service's webhook retries after it. */
export const orderLinkTtlMs = 8 * 24 * 60 * 60 * 1000;
const linkKey = (idOrder: number) => `pc:order-link:${idOrder}`;
/** The same outcome seen again on this instance (every poll of a paid order) is not reported again. */
const reportedCap = 10_000;

export interface OrderStatusNotices {
  /** An order was created through a link: remember the link for the order's later changes. */
  created(hash: string, idOrder: number): Promise<void>;
  /** A buyer's status check (or cancel, or code) read the order. */
  seen(details: OrderDetails): Promise<void>;
  /** A verified webhook said the order changed: an outcome's record is read back from the service, then reported. */
  delivered(idOrder: number, status: string, merchant: MerchantClient): Promise<void>;
}

export interface OrderStatusNoticeOptions {
  onOrderStatus: OnOrderStatus | undefined;
  store: ClaimStore;
  leaseMs: number;
  emit: EventSink;
}

export function orderStatusNotices(options: OrderStatusNoticeOptions): OrderStatusNotices | undefined {
  const { onOrderStatus, store, emit } = options;
  if (!onOrderStatus) return undefined;
  const reported = new Set<string>();

  // Held (stored but not yet completed), the claim's digest is the hash already.
  const linkOf = async (idOrder: number): Promise<string | undefined> => {
    const view = await store.inspect(linkKey(idOrder));
    return view.state === 'done' ? view.response : view.state === 'held' ? view.digest : undefined;
  };

  const report = async (details: OrderDetails): Promise<void> => {
    if (!outcomeStatuses.has(details.status)) return;
    const seenKey = `${details.id_order}:${details.status}`;
    if (reported.has(seenKey)) return;
    // Marked at once, so checks of one order together on this instance report it once; a failure unmarks it.
    if (reported.size >= reportedCap) reported.clear();
    reported.add(seenKey);
    try {
      const gateway = gatewayOfOrder(details);
      const link = await linkOf(details.id_order);
      if (!link || !gateway) {
        // Not an order of this server's links (a partner account sees every store's), or its record has expired.
        emit({ level: 'warn', name: 'order_status_unlinked', message: `order ${details.id_order} ${details.status}: no link is known for it; no notice sent`, id_order: details.id_order });
        return;
      }
      const cancel = CancelReasonSchema.safeParse(details.cancel_reason);
      await onOrderStatus({
        link,
        id_order: details.id_order,
        id_external: details.id_external ?? null,
        status: details.status,
        amount: details.total,
        currency: details.currency,
        gateway: gateway.kind,
        cancel_reason: cancel.success ? cancel.data : null,
      });
    } catch (error) {
      reported.delete(seenKey);
      throw error;
    }
  };

  return {
    async created(hash, idOrder) {
      const key = linkKey(idOrder);
      let token: string | undefined;
      /** Claimed with the hash as its digest, then completed: true once stored (or already there, a replayed create). */
      const remember = async (): Promise<boolean> => {
        if (!token) {
          const claim = await store.claim(key, hash, options.leaseMs);
          if (claim.state !== 'claimed') return true;
          token = claim.token;
        }
        if (await store.complete(key, token, hash, orderLinkTtlMs)) return true;
        token = undefined; // the claim lapsed meanwhile: claim it again
        return false;
      };
      try {
        if (await remember()) return;
      } catch (error) {
        emit({ level: 'warn', name: 'order_link_delayed', message: `order ${idOrder}: its link could not be stored yet; trying again in the background`, id_order: idOrder, error: errorFields(error, undefined, false) });
      }
      // The create is answered meanwhile; a store that is back within the lease still gets the link.
      keepTrying(remember, Date.now() + options.leaseMs);
    },
    async seen(details) {
      if (!outcomeStatuses.has(details.status)) return;
      try {
        await report(details);
      } catch (error) {
        // The buyer's answer does not wait on the shop's notice; the next check reports it again.
        emit({ level: 'error', name: 'order_status_unrecorded', message: `order ${details.id_order} ${details.status}: the notice could not be recorded`, id_order: details.id_order, error: errorFields(error, undefined, false) });
      }
    },
    async delivered(idOrder, status, merchant) {
      if (!outcomeStatuses.has(status as OrderStatus)) return;
      // The service's own record, not the webhook's copy: it names the gateway and why a cancelled order ended. A
      // failure here fails the delivery, so the service sends it again rather than the notice being lost.
      await report(await merchant.getOrder(idOrder));
    },
  };
}
