import { CheckoutOrderSchema } from '../../contract/checkout.js';
import type { CheckoutOrder } from '../../contract/checkout.js';
import { receiptKeyOf, storage } from '../internal/saved-keys.js';

/**
 * The receipt of a paid order, kept in localStorage by link hash so a reload, a discarded tab or a new tab on this
 * device shows it again. It holds what the receipt shows (no token, no buyer data) and lapses after `receiptMaxAgeMs`.
 */
export const receiptMaxAgeMs = 7 * 24 * 60 * 60 * 1000;

interface KeptReceipt {
  saved_at: number;
  order: CheckoutOrder;
}

export function keepReceipt(hash: string, order: CheckoutOrder, now = Date.now()): void {
  const { id_order, status, amount, currency, gateway, created_at, confirmed_at, reference } = order;
  const kept: KeptReceipt = { saved_at: now, order: { id_order, status, amount, currency, gateway, created_at, confirmed_at, reference, next_action: null } };
  try {
    storage('localStorage')?.setItem(receiptKeyOf(hash), JSON.stringify(kept));
  } catch {
    // Best effort: without storage the receipt shows until the page goes.
  }
}

/** The kept receipt while it is fresh and reads as a confirmed order; anything else is forgotten. */
export function keptReceipt(hash: string, now = Date.now()): CheckoutOrder | null {
  try {
    const raw = storage('localStorage')?.getItem(receiptKeyOf(hash));
    if (!raw) return null;
    const kept = JSON.parse(raw) as Partial<KeptReceipt>;
    const order = CheckoutOrderSchema.safeParse(kept.order);
    const fresh = typeof kept.saved_at === 'number' && now - kept.saved_at <= receiptMaxAgeMs && now >= kept.saved_at - receiptMaxAgeMs;
    if (fresh && order.success && order.data.status === 'confirmed') return order.data;
  } catch {
    // Unreadable: forget it below.
  }
  forgetReceipt(hash);
  return null;
}

export function forgetReceipt(hash: string): void {
  try {
    storage('localStorage')?.removeItem(receiptKeyOf(hash));
  } catch {
    // As above.
  }
}
