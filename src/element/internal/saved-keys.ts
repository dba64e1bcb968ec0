// Where this device keeps a link's order and receipt, and whether it keeps either: all the first script reads of
// them (session.ts reads and checks the order with the later steps).

export const keyOf = (hash: string) => `pay-checkout:order:${hash}`;

/** Where this device keeps the receipt of a paid order of the link: what it shows, never a token (receipt-store.ts). */
export const receiptKeyOf = (hash: string) => `pay-checkout:receipt:${hash}`;

export type Kind = 'sessionStorage' | 'localStorage';

/** Storage can be disabled or full (private modes): every call is best effort. */
export function storage(kind: Kind): Storage | null {
  try {
    return globalThis[kind] ?? null;
  } catch {
    return null;
  }
}

/** Whether this device keeps an order or a receipt of the link: if so the later steps resume or restore it. */
export function keepsOrderOrReceipt(hash: string): boolean {
  try {
    const [own, shared] = [storage('sessionStorage'), storage('localStorage')];
    return Boolean(own?.getItem(keyOf(hash)) || shared?.getItem(keyOf(hash)) || shared?.getItem(receiptKeyOf(hash)));
  } catch {
    return false;
  }
}
