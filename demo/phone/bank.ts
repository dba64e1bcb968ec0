/** The bank app's lookup: which transfer order a typed key or a pasted QR payload pays. */
import type { SandboxOrder } from '../../src/contract/index.js';

export type TransferLookup =
  | { kind: 'empty' }
  | { kind: 'not_found' }
  /** The transfer exists but can no longer be paid (paid, expired, cancelled). */
  | { kind: 'closed'; order: SandboxOrder }
  | { kind: 'payable'; order: SandboxOrder };

/** Keys are compared without spaces and case, as a person types them; QR payloads exactly, after trimming. */
const normalizeKey = (text: string) => text.replace(/\s+/g, '').toUpperCase();

export function keyOf(order: SandboxOrder): string | null {
  return order.transfer_key ?? order.payment_gateway?.breb?.key ?? null;
}

export function qrDataOf(order: SandboxOrder): string | null {
  const action = order.next_action;
  return (action?.type === 'transfer' ? action.qr_data : undefined) ?? order.payment_gateway?.breb?.qr_data ?? null;
}

export function findTransfer(orders: readonly SandboxOrder[], input: string): TransferLookup {
  const text = input.trim();
  if (!text) return { kind: 'empty' };
  const key = normalizeKey(text);
  const order = orders.find((o) => {
    if (o.gateway_kind !== 'transfer') return false;
    const orderKey = keyOf(o);
    return (orderKey !== null && normalizeKey(orderKey) === key) || qrDataOf(o) === text;
  });
  if (!order) return { kind: 'not_found' };
  return order.status === 'processing' || order.status === 'pending' ? { kind: 'payable', order } : { kind: 'closed', order };
}
