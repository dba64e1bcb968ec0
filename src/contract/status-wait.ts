/**
 * The waiting status request (long poll) of the buyer API: `GET /checkout/orders/{id}?wait=25&since=processing`
 * answers as soon as the status differs from `since`, or after `wait` seconds with the order as it is. A server
 * that waited says so with `Order-Status-Wait: N` on the answer; a server that ignores the parameters answers at
 * once without it, and the element keeps polling. Plain data and functions, no zod: the element loads it early.
 */
import { orderStatuses, type OrderStatus } from './orders.js';

/** The longest wait a server grants, in seconds: under the 30 s that proxies and load balancers commonly allow. */
export const maxStatusWaitSeconds = 25;
export const statusWaitHeader = 'Order-Status-Wait';

export type StatusWaitRequest = { seconds: number; since: OrderStatus };

/**
 * Reads `wait` and `since` from a status request's query. `undefined` when no wait was asked for;
 * a list of problems (for VALIDATION_FAILED) when the parameters are wrong.
 */
export function readStatusWait(query: URLSearchParams): StatusWaitRequest | undefined | { field: string; message: string }[] {
  const wait = query.get('wait');
  const since = query.get('since');
  if (wait === null && since === null) return undefined;
  const problems: { field: string; message: string }[] = [];
  if (wait === null || !/^\d{1,6}$/.test(wait)) problems.push({ field: 'wait', message: `must be a whole number of seconds (at most ${maxStatusWaitSeconds} are granted)` });
  if (since === null || !(orderStatuses as readonly string[]).includes(since)) problems.push({ field: 'since', message: `must be one of ${orderStatuses.join(', ')}` });
  if (problems.length) return problems;
  return { seconds: Math.min(Number(wait), maxStatusWaitSeconds), since: since as OrderStatus };
}
