/**
 * The sweep: every open order (open-orders.ts) is read back from the service (`GET /orders/{id}`, with the key of
 * the merchant who created it) on a growing schedule until it is final, or expired and read once more after a grace:
 * soon after creation, while a buyer usually approves, then further apart, then once at expiry. Each instance leases
 * due orders from the shared store (its clock, not ours), so one order is read by one instance at a time; reads are
 * paced (at most `readsPerSecond` per instance, at most `maxReads` per order), an order a buyer's waiting request is
 * reading on this instance is left to it, and a service answering 5003 or 5xx pauses the sweep, doubling.
 * An outcome goes where the webhook's would (order-status.ts), with the same notice id; an order that expired unpaid
 * and that the service still calls pending after the grace is reported failed (`cancelled`, `expired`).
 */
import { ServiceError, type MerchantClient } from '../../client/index.js';
import type { OrderDetails } from '../../contract/index.js';
import type { OrderStatusNotices } from '../buyer/order-status.js';
import { errorFields, type EventSink } from '../events.js';
import type { LeasedOrder, OpenOrderRecord } from '../once/open-orders.js';

export interface SweepTimings {
  /** The first read after the order's creation; default 15,000 ms (a buyer approves a push in about that). */
  firstReadMs: number;
  /** Each next gap is this many times the last; default 2. */
  growth: number;
  /** The longest gap between two reads; default 5 minutes. */
  maxGapMs: number;
  /** The last read comes this long after the order's expiry; default 2 minutes. */
  graceMs: number;
  /** How long an order the service gives no expiry is followed; default 1 hour. */
  unknownExpiryMs: number;
  /** At most this many reads of one order over its life, the last one after its expiry (N); default 12. */
  maxReads: number;
  /** At most this many reads per second on each instance (M); default 10. */
  readsPerSecond: number;
  /** How long a read holds its order against other instances; default 30,000 ms. */
  leaseMs: number;
  /** How often each instance looks for due orders; default 1,000 ms. */
  pollMs: number;
  /** The longest pause after the service answered 5003 or 5xx (from 1 s, or `firstReadMs` if shorter, doubling each time); default 60,000 ms. */
  maxBackoffMs: number;
}

export const defaultSweepTimings: SweepTimings = {
  firstReadMs: 15_000,
  growth: 2,
  maxGapMs: 5 * 60_000,
  graceMs: 2 * 60_000,
  unknownExpiryMs: 60 * 60_000,
  maxReads: 12,
  readsPerSecond: 10,
  leaseMs: 30_000,
  pollMs: 1_000,
  maxBackoffMs: 60_000,
};

/**
 * When to read an order next, in ms from `now`, after `readsDone` reads; undefined when it is done with. Gaps grow
 * from `firstReadMs` by `growth` up to `maxGapMs`; a read that would fall past the expiry (or the budget's last)
 * becomes the last one, `graceMs` after the expiry.
 */
export function nextReadInMs(order: Pick<OpenOrderRecord, 'created_at' | 'expires_at'>, readsDone: number, now: number, t: SweepTimings): number | undefined {
  const end = order.expires_at ?? order.created_at + t.unknownExpiryMs;
  const last = end + t.graceMs;
  if (readsDone >= t.maxReads || now >= last) return undefined;
  const gap = Math.min(t.firstReadMs * t.growth ** readsDone, t.maxGapMs);
  if (readsDone >= t.maxReads - 1 || now + gap >= end) return Math.max(0, last - now);
  return gap;
}

export interface SweepDeps {
  /** Where the open orders are, and where an outcome the sweep read goes. */
  notices: Pick<OrderStatusNotices, 'orders' | 'swept'>;
  /** The client that reads an order of this merchant reference (`''`: the handler's own); undefined when there is none now. */
  clientFor(merchant: string): MerchantClient | undefined | Promise<MerchantClient | undefined>;
  /** Whether a buyer's waiting request on this instance is reading the order (this id and order key) already. */
  busy?(order: Pick<OpenOrderRecord, 'id_order' | 'order_key' | 'merchant'>): boolean | Promise<boolean>;
  timings: SweepTimings;
  emit: EventSink;
  /** Each read and what it found: `pending`, `found` (an outcome the sweep learnt first), `known`, `other`, `failed`, `left` (a buyer reads it). */
  onRead?(result: SweepReadResult): void;
  /** The open orders, counted each time the sweep looks. */
  onOpenOrders?(count: number): void;
}

export type SweepReadResult = 'pending' | 'found' | 'known' | 'other' | 'expired' | 'failed' | 'left';

export interface Sweep {
  start(): void;
  /** Stops looking for due orders; reads under way finish (their leases settle). */
  stop(): Promise<void>;
  /** Looks for due orders now (tests; the loop does it every `pollMs`). */
  tick(): Promise<void>;
}

/** A service answer that asks to slow down: its rate limit (5003, 429) or trouble of its own (5xx). */
const slowDown = (error: unknown) => error instanceof ServiceError && (error.status === 429 || error.status >= 500 || error.code === 5003);
/** The service does not know the order (4010, 404): it will not come to know it. */
const unknownOrder = (error: unknown) => error instanceof ServiceError && error.serviceBody && (error.code === 4010 || error.status === 404);

export function createSweep(deps: SweepDeps): Sweep {
  const t = deps.timings;
  const { notices, emit } = deps;
  const orders = notices.orders;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  let stopped = false;
  let running: Promise<void> | undefined;
  let pausedUntil = 0;
  let backoffMs = 0;
  // Reads are paced: one every 1/readsPerSecond s, so a burst of due orders never becomes a burst of calls.
  const spacingMs = 1000 / Math.max(t.readsPerSecond, 0.001);
  let nextReadAt = 0;
  const paced = async () => {
    const at = Math.max(Date.now(), nextReadAt);
    nextReadAt = at + spacingMs;
    // Unref'd like the poll: a backlog of due orders never holds a process that has nothing else left to do.
    if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()).unref?.());
  };
  let saidStore = '';
  const storeTrouble = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (message === saidStore) return;
    saidStore = message;
    emit({ level: 'error', name: 'sweep_store_error', message: `order sweep: ${message}; open orders wait in the store until it answers`, error: errorFields(error, undefined, false) });
  };

  const settle = (order: OpenOrderRecord, token: string, inMs: number | undefined, read: boolean) =>
    inMs === undefined ? orders.close(order.uid) : orders.later(order.uid, token, inMs, read).then(() => {});

  /** A read that came back still pending: the next one, or the end (expired unpaid is reported failed). */
  const afterPending = async (order: OpenOrderRecord, token: string, details: OrderDetails) => {
    const readsDone = order.reads + 1;
    const next = nextReadInMs(order, readsDone, Date.now(), t);
    if (next !== undefined) return settle(order, token, next, true);
    const end = order.expires_at ?? order.created_at + t.unknownExpiryMs;
    if (Date.now() >= end) {
      // Past its expiry and the grace the service still calls it open: no payment can come, and the shop hears so.
      const expired: OrderDetails = { ...details, status: 'cancelled', cancel_reason: 'expired' };
      emit({ level: 'warn', name: 'order_sweep_expired', message: `order ${order.id_order}: ${details.status} past its expiry and the grace; reported failed (expired)`, id_order: order.id_order });
      deps.onRead?.('expired');
      await notices.swept(expired, order);
      return orders.close(order.uid);
    }
    emit({ level: 'warn', name: 'order_sweep_budget_spent', message: `order ${order.id_order}: ${t.maxReads} reads spent before its expiry; no longer followed`, id_order: order.id_order });
    return orders.close(order.uid);
  };

  const readOne = async ({ order, token }: LeasedOrder): Promise<void> => {
    if (await deps.busy?.(order)) {
      // A buyer's waiting request here reads it already (and reports what it finds): one caller per order.
      deps.onRead?.('left');
      return settle(order, token, t.firstReadMs, false);
    }
    const client = await deps.clientFor(order.merchant);
    if (!client) {
      emit({ level: 'warn', name: 'order_sweep_no_client', message: `order ${order.id_order}: no merchant key to read it with; no longer followed`, id_order: order.id_order });
      return orders.close(order.uid);
    }
    await paced();
    let details: OrderDetails;
    try {
      details = await client.getOrder(order.id_order);
    } catch (error) {
      deps.onRead?.('failed');
      if (unknownOrder(error)) {
        emit({ level: 'warn', name: 'order_sweep_unknown', message: `order ${order.id_order}: the service does not know it (any more); no longer followed`, id_order: order.id_order });
        return orders.close(order.uid);
      }
      // The service is struggling or limiting us: everyone waits, doubling, and this order with them.
      const asked = error instanceof ServiceError && error.retryAfterS !== undefined ? error.retryAfterS * 1000 : 0;
      backoffMs = Math.min(Math.max(backoffMs * 2, Math.min(1_000, t.firstReadMs), asked), t.maxBackoffMs);
      pausedUntil = Date.now() + backoffMs;
      emit({
        level: 'warn',
        name: 'order_sweep_slowed',
        message: `order sweep: reading order ${order.id_order} failed (${error instanceof Error ? error.message : String(error)}); pausing ${backoffMs} ms`,
        id_order: order.id_order,
        pause_ms: backoffMs,
        ...(slowDown(error) ? { rate_limited: true } : {}),
      });
      const readsDone = order.reads + 1;
      const next = nextReadInMs(order, readsDone, Date.now(), t);
      return settle(order, token, next === undefined ? undefined : Math.max(next, backoffMs), true);
    }
    backoffMs = 0;
    const result = await notices.swept(details, order);
    if (result === 'pending') {
      deps.onRead?.('pending');
      return afterPending(order, token, details);
    }
    deps.onRead?.(result);
    if (result === 'found') {
      emit({ level: 'info', name: 'order_outcome_swept', message: `order ${order.id_order} ${details.status}: found by re-reading it (read ${order.reads + 1}); no webhook or buyer had told this instance`, id_order: order.id_order, status: details.status, reads: order.reads + 1 });
    }
    return orders.close(order.uid);
  };

  const tick = (): Promise<void> =>
    (running ??= (async () => {
      try {
        for (let full = true; full && !stopped && Date.now() >= pausedUntil; ) {
          const batch = Math.max(1, Math.min(Math.ceil(t.readsPerSecond), 50));
          const leased = await orders.lease(t.leaseMs, batch);
          saidStore = '';
          await Promise.all(
            leased.map((one) =>
              readOne(one).catch((error: unknown) => {
                // A failure to tell (the outbox or the store away): its lease runs out and it is read again.
                emit({ level: 'error', name: 'order_sweep_failed', message: `order ${one.order.id_order}: ${error instanceof Error ? error.message : String(error)}; read again once its lease ends`, id_order: one.order.id_order, error: errorFields(error, undefined, false) });
              }),
            ),
          );
          full = leased.length === batch;
        }
        if (deps.onOpenOrders) deps.onOpenOrders(await orders.count());
      } catch (error) {
        storeTrouble(error);
      } finally {
        running = undefined;
        schedule();
      }
    })());

  const schedule = () => {
    if (!started || stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), Math.max(t.pollMs, pausedUntil - Date.now()));
    timer.unref?.();
  };

  return {
    start() {
      if (started || stopped) return;
      started = true;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
    tick,
  };
}
