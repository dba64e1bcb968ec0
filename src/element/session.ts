/**
 * The order in progress, kept in sessionStorage by link hash as soon as it is
 * created, so a reload or a return from the card page resumes the same order.
 */
export interface SavedOrder {
  hash: string;
  id_order: number;
  order_token: string;
  /** The buyer was sent to the card page; coming back means "check, don't send again". */
  handed_off?: boolean;
  /** Server clock minus the device's, so a resumed countdown stays right. */
  skew_ms?: number;
}

const keyOf = (hash: string) => `pay-checkout:order:${hash}`;

/** Storage can be disabled or full (private modes): every call is best effort. */
function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function readSavedOrder(hash: string): SavedOrder | null {
  try {
    const raw = storage()?.getItem(keyOf(hash));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<SavedOrder>;
    if (value.hash !== hash || typeof value.id_order !== 'number' || typeof value.order_token !== 'string') return null;
    const saved: SavedOrder = { hash, id_order: value.id_order, order_token: value.order_token, handed_off: value.handed_off === true };
    if (typeof value.skew_ms === 'number' && Number.isFinite(value.skew_ms)) saved.skew_ms = value.skew_ms;
    return saved;
  } catch {
    return null;
  }
}

export function saveOrder(saved: SavedOrder): void {
  try {
    storage()?.setItem(keyOf(saved.hash), JSON.stringify(saved));
  } catch {
    // Nothing to do: without storage a reload starts over, which is still safe.
  }
}

export function clearSavedOrder(hash: string): void {
  try {
    storage()?.removeItem(keyOf(hash));
  } catch {
    // As above.
  }
}
