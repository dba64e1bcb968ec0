/**
 * Waiting status requests in the handler: the answer goes out as soon as the order's status differs from the one
 * the buyer last saw. A signed `order_payment` received by any instance publishes on `order:{id}` in the shared
 * store (webhook-intake.ts), which wakes the waiting request on every instance; without webhooks, the handler
 * asks `GET /orders/{id}` every `pollMs` while it waits.
 */
import type { CheckoutOrder, StatusWaitRequest } from '../contract/index.js';
import type { ClaimStore } from './claims.js';
import { orderChannel } from './once.js';

/** Server-side polling while a request waits: gentle on the service, and only the fallback to webhooks. */
export const defaultStatusPollMs = 2_000;

export interface StatusWaitDeps {
  store: ClaimStore;
  pollMs: number;
  /** The order as the merchant API has it now. */
  read: () => Promise<CheckoutOrder>;
}

/** The order once its status differs from `wait.since`, or as it is when `wait.seconds` run out or the buyer leaves. */
export async function waitForOrderStatus(deps: StatusWaitDeps, idOrder: number, wait: StatusWaitRequest, signal: AbortSignal | undefined): Promise<CheckoutOrder> {
  const deadline = Date.now() + wait.seconds * 1000;
  let wake = () => {};
  let woken = false;
  const onWake = () => {
    woken = true;
    wake();
  };
  // Subscribed before the first read, so a payment confirmed in between is not missed; no store, polling only.
  const unsubscribe = await deps.store.subscribe(orderChannel(idOrder), onWake).catch(() => undefined);
  signal?.addEventListener('abort', onWake, { once: true });
  try {
    for (;;) {
      woken = false;
      const order = await deps.read();
      const left = deadline - Date.now();
      if (order.status !== wait.since || left <= 0 || signal?.aborted) return order;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(deps.pollMs, left));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  } finally {
    signal?.removeEventListener('abort', onWake);
    await unsubscribe?.().catch(() => {});
  }
}
