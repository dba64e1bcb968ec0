/**
 * `order_key` on `POST /v1/orders` as the idempotency key the live docs call it: per store, the same key
 * and the same body replay the first order; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED.
 */
import type { CreateOrderBody } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { ApiError, canonicalJson } from './http.js';
import type { SandboxOrder } from './model.js';

const slotOf = (idStore: number, orderKey: string) => `${idStore}\n${orderKey}`;

/** The whole request after parsing, key order and legacy shopper names aside: a changed field is another order. */
export function orderKeyFingerprint(body: CreateOrderBody): string {
  return canonicalJson(body);
}

/** The order an earlier create with this key made, to replay; undefined when the key is new. Throws 409 for another body. */
export function earlierOrder(ctx: SandboxContext, idStore: number, orderKey: string, fingerprint: string): SandboxOrder | undefined {
  if (!ctx.orderKeyDedupe) return undefined;
  const record = ctx.state.orderKeys.get(slotOf(idStore, orderKey));
  const order = record && ctx.state.orders.get(record.id_order);
  if (!record || !order) return undefined;
  if (record.fingerprint !== fingerprint) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', {
      message: 'This order_key was already used with a different request body.',
      description: 'Send a new order_key for a new order, or repeat the first request exactly to get its order back.',
    });
  }
  return order;
}

/** Must run in the same synchronous turn as `earlierOrder` and the create, so concurrent creates cannot both pass. */
export function rememberOrderKey(ctx: SandboxContext, idStore: number, orderKey: string, fingerprint: string, idOrder: number): void {
  ctx.state.orderKeys.set(slotOf(idStore, orderKey), { fingerprint, id_order: idOrder });
}
