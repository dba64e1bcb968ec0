/**
 * Waiting status requests in the handler: the answer goes out as soon as the order's status differs from the one
 * the buyer last saw. All the requests waiting on one order in this instance share one watch: one subscription to
 * `order:{id}` in the shared store (a signed `order_payment` received by any instance publishes there, see
 * webhook-intake.ts) and one `GET /orders/{id}` every `pollMs`, whatever the number of waiters. Past the caps a
 * request is answered at once, without `Order-Status-Wait`, so the element falls back to polling.
 */
import type { CheckoutOrder, StatusWaitRequest } from '../../contract/index.js';
import type { ClaimStore } from '../once/claims.js';
import { orderChannel } from '../once/exactly-once.js';

/** Server-side polling while a request waits: gentle on the service, and only the fallback to webhooks. */
export const defaultStatusPollMs = 2_000;

/** How many requests may wait at once; past a cap a request is answered at once with the current status. */
export interface WaiterCaps {
  perOrder: number;
  perAddress: number;
  perInstance: number;
}

export const defaultWaiterCaps: WaiterCaps = { perOrder: 100, perAddress: 100, perInstance: 10_000 };

export interface StatusWaitDeps {
  store: ClaimStore;
  pollMs: number;
  caps: WaiterCaps;
  /** Hears each request that starts (+1) or stops (-1) waiting: the waiting-requests metric. */
  onWaiting?: (delta: number) => void;
}

/** What a waiting request gets: the order, and whether it really waited (else the answer says nothing of waiting). */
export interface WaitAnswer {
  order: CheckoutOrder;
  waited: boolean;
}

type Waiter = { since: string; settle: (order: CheckoutOrder) => void; fail: (error: unknown) => void; leave: () => void };

interface Watch {
  waiters: Set<Waiter>;
  read: () => Promise<CheckoutOrder>;
  latest?: CheckoutOrder;
  reading?: Promise<void>;
  timer?: ReturnType<typeof setTimeout>;
  unsubscribe?: Promise<(() => Promise<void>) | undefined>;
}

export interface StatusWaits {
  /**
   * The order once its status differs from `wait.since`, or as it is when the wait runs out or the buyer leaves.
   * `orderRef` (the digest of the order key the buyer's token names) keeps apart two orders the service numbered the
   * same: each its own watch.
   */
  wait(idOrder: number, read: () => Promise<CheckoutOrder>, wait: StatusWaitRequest, signal: AbortSignal | undefined, address: string | undefined, orderRef?: string | null): Promise<WaitAnswer>;
  /** Requests waiting now (for tests and the bench). */
  readonly waiting: number;
  /** Whether requests wait on this order (this id and order key's digest) here now: its watch reads it, so the sweep need not. */
  watching(idOrder: number, orderRef: string): boolean;
  /**
   * Shutting down: every waiting request is answered now with the order as last read (the element then asks again,
   * through the load balancer, another instance), and a new one is answered at once without waiting.
   */
  drain(): void;
}

/** A watch is one order: its id and, where the buyer's token names it, its order key's digest. */
const watchKeyOf = (idOrder: number, orderRef: string | null | undefined) => (orderRef ? `${idOrder}.${orderRef}` : `${idOrder}`);

export function statusWaits(deps: StatusWaitDeps): StatusWaits {
  const watches = new Map<string, Watch>();
  const perAddress = new Map<string, number>();
  let waiting = 0;
  let draining = false;

  const settleChanged = (watch: Watch, order: CheckoutOrder) => {
    for (const waiter of [...watch.waiters]) if (order.status !== waiter.since) waiter.settle(order);
  };

  /** One read at a time per order; every waiter hears its answer. */
  const poll = (id: string, watch: Watch): Promise<void> =>
    (watch.reading ??= (async () => {
      clearTimeout(watch.timer);
      try {
        const order = await watch.read();
        watch.latest = order;
        settleChanged(watch, order);
      } catch (error) {
        // With an answer already read, the waiters keep waiting and the next poll tries again; without one, they fail.
        if (!watch.latest) for (const waiter of [...watch.waiters]) waiter.fail(error);
      } finally {
        watch.reading = undefined;
        if (watch.waiters.size > 0 && watches.get(id) === watch) watch.timer = setTimeout(() => void poll(id, watch), deps.pollMs);
      }
    })());

  const open = (id: string, idOrder: number, read: () => Promise<CheckoutOrder>): Watch => {
    const watch: Watch = { waiters: new Set(), read };
    watches.set(id, watch);
    // A wake-up from any instance reads the order at once (the read checks it is this watch's order); no store means polling only.
    watch.unsubscribe = deps.store.subscribe(orderChannel(idOrder), () => void poll(id, watch)).catch(() => undefined);
    return watch;
  };

  const close = (id: string, watch: Watch) => {
    if (watch.waiters.size > 0 || watches.get(id) !== watch) return;
    watches.delete(id);
    clearTimeout(watch.timer);
    void watch.unsubscribe?.then((unsubscribe) => unsubscribe?.()).catch(() => {});
  };

  return {
    get waiting() {
      return waiting;
    },

    watching: (idOrder, orderRef) => watches.has(watchKeyOf(idOrder, orderRef)) || watches.has(watchKeyOf(idOrder, null)),

    drain() {
      draining = true;
      for (const watch of [...watches.values()]) for (const waiter of [...watch.waiters]) waiter.leave();
    },

    async wait(idOrder, read, wait, signal, address, orderRef) {
      const id = watchKeyOf(idOrder, orderRef);
      const existing = watches.get(id);
      const full =
        draining ||
        waiting >= deps.caps.perInstance ||
        (existing?.waiters.size ?? 0) >= deps.caps.perOrder ||
        (address !== undefined && (perAddress.get(address) ?? 0) >= deps.caps.perAddress);
      if (full) {
        // The watch's read in flight answers these too: past the caps a request costs the service nothing more.
        if (existing && !existing.latest) await existing.reading;
        return { order: existing?.latest ?? (await read()), waited: false };
      }

      const watch = existing ?? open(id, idOrder, read);
      return new Promise<WaitAnswer>((resolve, reject) => {
        const done = (): boolean => {
          if (!watch.waiters.delete(waiter)) return false;
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          waiting -= 1;
          deps.onWaiting?.(-1);
          if (address !== undefined) {
            const left = (perAddress.get(address) ?? 1) - 1;
            if (left > 0) perAddress.set(address, left);
            else perAddress.delete(address);
          }
          close(id, watch);
          return true;
        };
        // When the wait runs out (or the buyer leaves, or the server shuts down), the answer is the latest read: at most `pollMs` old.
        const leave = () => {
          if (watch.latest) waiter.settle(watch.latest);
          else void poll(id, watch).then(() => (watch.latest ? waiter.settle(watch.latest) : waiter.fail(new Error('The order could not be read.'))));
        };
        const waiter: Waiter = {
          since: wait.since,
          settle: (order) => done() && resolve({ order, waited: true }),
          fail: (error) => done() && reject(error),
          leave,
        };
        watch.waiters.add(waiter);
        waiting += 1;
        deps.onWaiting?.(1);
        if (address !== undefined) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
        signal?.addEventListener('abort', leave, { once: true });
        const timer = setTimeout(leave, wait.seconds * 1000);
        if (signal?.aborted) leave();
        else if (!existing) void poll(id, watch);
        else if (watch.latest && watch.latest.status !== wait.since) waiter.settle(watch.latest);
      });
    },
  };
}
