/**
 * Waiting status requests in the sandbox: every status change (orders.ts `apply`) wakes the requests waiting on that
 * order at once; a 1 s tick also lets timed events (push expiry, auto-decline) happen while a request waits.
 */
import type { OrderStatus, StatusWaitRequest } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import type { SandboxOrder } from './model.js';
import type { SandboxState } from './state.js';

const waiters = new WeakMap<SandboxState, Map<number, Set<() => void>>>();
/** Sandboxes shutting down: their waiting requests were answered, and a new one is answered at once. */
const draining = new WeakSet<SandboxContext>();

/** Shutting down: every waiting status request is answered now with the order as it is. */
export function answerWaitsNow(ctx: SandboxContext): void {
  draining.add(ctx);
  for (const set of waiters.get(ctx.state)?.values() ?? []) for (const wake of [...set]) wake();
}

/** Called on each status change. */
export function orderChanged(state: SandboxState, idOrder: number): void {
  for (const wake of waiters.get(state)?.get(idOrder) ?? []) wake();
}

/**
 * Resolves when `order.status` differs from `since`, when `seconds` have passed, or when the request is aborted
 * (the buyer left). `sweep` runs the sandbox's timed events each tick.
 */
export async function waitForStatus(ctx: SandboxContext, order: SandboxOrder, wait: StatusWaitRequest, signal: AbortSignal, sweep: () => void): Promise<void> {
  const changed = (since: OrderStatus) => order.status !== since;
  if (changed(wait.since) || wait.seconds === 0 || draining.has(ctx)) return;
  const byOrder = waiters.get(ctx.state) ?? new Map<number, Set<() => void>>();
  waiters.set(ctx.state, byOrder);
  const set = byOrder.get(order.id_order) ?? new Set();
  byOrder.set(order.id_order, set);
  let wake = () => {};
  const woken = new Promise<void>((resolve) => (wake = resolve));
  set.add(wake);
  signal.addEventListener('abort', wake, { once: true });
  const deadline = setTimeout(wake, wait.seconds * 1000);
  const tick = setInterval(() => {
    sweep();
    if (changed(wait.since)) wake();
  }, 1000);
  try {
    await woken;
  } finally {
    clearTimeout(deadline);
    clearInterval(tick);
    signal.removeEventListener('abort', wake);
    set.delete(wake);
    if (set.size === 0) byOrder.delete(order.id_order);
  }
}
