import type { ClientOptions } from '../../client/send.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { isRetryable, toFlowError } from '../../flow/errors.js';
import { isOrderNotFound } from '../../flow/order-not-found.js';
import type { FlowError, FlowEvent, FlowState } from '../../flow/types.js';
import { statusDelay } from '../internal/status-timings.js';
import { clearSavedOrder } from './keep-order.js';
import { readSavedOrder } from './session.js';
import type { SavedOrder } from './session.js';
import { requestLink } from '../internal/link-request.js';
import type { OrderTracker } from './order-tracker.js';

/** What `<pay-checkout>` lends a resume: the saved order, its run, and the ways back into the flow. */
export interface ResumeContext {
  saved: SavedOrder;
  signal: AbortSignal;
  /** Whether this run is still the element's (a restart drops older answers). */
  current(): boolean;
  options: ClientOptions;
  /** The order tracker, and through it the status checks' timings. */
  tracker: OrderTracker;
  send(event: FlowEvent): void;
  /** Loads the link afresh (the saved order is gone). */
  loadLink(): void;
  /** The link as the checkout shows it (the page's `methods`). */
  shown?: (link: CheckoutLink) => CheckoutLink;
}

/**
 * The saved order and its link, read together. Only ORDER_NOT_FOUND forgets the order. A failure that may pass (a
 * 5xx burst on the return from the card page, offline) is retried quietly for a while, then shows the error screen
 * whose retry resumes again: never "already paid" or a second order instead of the buyer's receipt. Arrives with
 * the later steps: a fresh load needs none of it before its first screen.
 */
export async function resumeOrder(ctx: ResumeContext, link: Promise<CheckoutLink>, since = Date.now(), tries = 0): Promise<void> {
  const { saved, signal } = ctx;
  const [linkAnswer, order] = await Promise.allSettled([link, ctx.tracker.savedOrder(saved, signal)]);
  if (!ctx.current()) return;
  if (linkAnswer.status === 'fulfilled' && order.status === 'fulfilled') {
    ctx.send({ type: 'resumed', link: linkAnswer.value, order: order.value, orderToken: saved.order_token, returnedFromCard: saved.handed_off === true });
    return;
  }
  const orderError = order.status === 'rejected' ? toFlowError(order.reason) : null;
  if (orderError && isOrderNotFound(orderError)) {
    // The saved order is gone or not ours any more: forget it and start fresh.
    clearSavedOrder(saved.hash);
    ctx.loadLink();
    return;
  }
  const error = linkAnswer.status === 'rejected' ? toFlowError(linkAnswer.reason) : (orderError as FlowError);
  const timings = ctx.tracker.timings;
  const delay = statusDelay(timings, tries);
  if (isRetryable(error) && Date.now() + delay - since <= (timings.resumePatienceMs ?? 10_000)) {
    const again = () => {
      const next = requestLink(ctx.options, saved.hash, signal).then((l) => (ctx.shown ? ctx.shown(l) : l));
      void resumeOrder(ctx, next, since, tries + 1);
    };
    // Said once, then retried quietly: what is happening, not a bare "loading".
    if (tries === 0) ctx.send({ type: 'resume_retrying', card: saved.handed_off === true });
    const timer = setTimeout(again, delay);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    return;
  }
  ctx.send(linkAnswer.status === 'rejected' ? { type: 'link_failed', error } : { type: 'resume_failed', error });
}

/**
 * No order in progress, but this device kept the receipt of the link (a reload after paying): the receipt again with
 * the link, not a fresh form. A receipt that lapsed or does not check out is forgotten: the link's first screen.
 */
export async function restoreReceipt(ctx: Pick<ResumeContext, 'current' | 'tracker' | 'send'>, link: Promise<CheckoutLink>): Promise<void> {
  const answer = await link.then((value) => ({ ok: true as const, value }), (reason: unknown) => ({ ok: false as const, reason }));
  if (!ctx.current()) return;
  if (!answer.ok) return ctx.send({ type: 'link_failed', error: toFlowError(answer.reason) });
  const order = ctx.tracker.keptReceipt();
  ctx.send(order ? { type: 'receipt_restored', link: answer.value, order } : { type: 'link_loaded', link: answer.value });
}

/**
 * The saved order resumed, or else this device's receipt of the link restored, or else (a stale or unreadable copy)
 * the link's first screen: the element's resume, past its chunk.
 */
export function resumeSaved(ctx: Omit<ResumeContext, 'saved'>, hash: string, link: Promise<CheckoutLink>): void {
  const saved = readSavedOrder(hash);
  void (saved ? resumeOrder({ ...ctx, saved }, link) : restoreReceipt(ctx, link));
}

/**
 * The element's resume of a saved order or receipt: the link is on its way, the later steps' chunk (this one) and the
 * tracker here. `loadLink` starts afresh when the saved order is gone.
 */
export function resumeRun(run: Omit<ResumeContext, 'saved' | 'tracker' | 'loadLink'>, tracker: OrderTracker, hash: string, link: Promise<CheckoutLink>, loadLink: () => void): void {
  if (run.current()) resumeSaved({ ...run, tracker, loadLink }, hash, link);
}

/** `pageshow` from the back/forward cache on the card page's hand-off: the buyer came back from the card page. */
export function returnedFromCard(flow: FlowState, hash: string, back: () => void): void {
  if (flow.step === 'redirect' && readSavedOrder(hash)?.handed_off) back();
}
