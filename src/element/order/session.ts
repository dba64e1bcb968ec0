import { keyOf, storage } from '../internal/saved-keys.js';
import type { Kind } from '../internal/saved-keys.js';

/**
 * The order in progress, kept by link hash as soon as it is created, so a reload or a return from the card page
 * resumes the same order. sessionStorage is per tab, so a copy also goes to localStorage: a new tab (the buyer
 * closed the first one during a push approval) resumes the same order instead of offering a second one. The copy
 * holds only what reads or cancels that one order, lapses with the order, and goes when a result is shown.
 * The first script only asks whether a copy is kept (saved-keys.ts); reading it here, keeping and forgetting it
 * (internal/keep-order.ts) come with the later steps.
 */
export interface SavedOrder {
  hash: string;
  id_order: number;
  order_token: string;
  /** The buyer was sent to the card page; coming back means "check, don't send again". Never shared with other tabs. */
  handed_off?: boolean;
  /** Server clock minus the device's, so a resumed countdown stays right. */
  skew_ms?: number;
  /** When this device saved it (ms since the epoch): a shared copy lapses `sharedMaxAgeMs` after. */
  saved_at?: number;
  /** The order's own deadline (server time), when its step has one: a shared copy lapses `sharedGraceMs` after. */
  expires_at?: string | null;
}

/** How long after the order's `expires_at` another tab still resumes it: the final status is worth showing. */
export const sharedGraceMs = 30 * 60 * 1000;
/** The most a shared copy lives, whatever the order's deadline (a card hand-off has none). */
export const sharedMaxAgeMs = 24 * 60 * 60 * 1000;

export function write(kind: Kind, hash: string, value: SavedOrder): void {
  try {
    storage(kind)?.setItem(keyOf(hash), JSON.stringify(value));
  } catch {
    // Nothing to do: without storage a reload starts over, which is still safe.
  }
}

export function remove(kind: Kind, hash: string): void {
  try {
    storage(kind)?.removeItem(keyOf(hash));
  } catch {
    // As above.
  }
}

function read(kind: Kind, hash: string): SavedOrder | null {
  try {
    const raw = storage(kind)?.getItem(keyOf(hash));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<SavedOrder>;
    if (value.hash !== hash || typeof value.id_order !== 'number' || typeof value.order_token !== 'string') return null;
    const saved: SavedOrder = { hash, id_order: value.id_order, order_token: value.order_token, handed_off: value.handed_off === true };
    if (typeof value.skew_ms === 'number' && Number.isFinite(value.skew_ms)) saved.skew_ms = value.skew_ms;
    if (typeof value.saved_at === 'number' && Number.isFinite(value.saved_at)) saved.saved_at = value.saved_at;
    if (typeof value.expires_at === 'string') saved.expires_at = value.expires_at;
    return saved;
  } catch {
    return null;
  }
}

/** Whether another tab's copy is still worth resuming at `now` (this device's clock). */
export function isFreshShared(saved: SavedOrder, now: number): boolean {
  if (saved.saved_at === undefined || now - saved.saved_at > sharedMaxAgeMs || now < saved.saved_at - sharedMaxAgeMs) return false;
  const deadline = saved.expires_at ? Date.parse(saved.expires_at) : NaN;
  return Number.isNaN(deadline) || now + (saved.skew_ms ?? 0) <= deadline + sharedGraceMs;
}

/** This tab's saved order, else another tab's while it is fresh (this tab then takes it up). */
export function readSavedOrder(hash: string, now = Date.now()): SavedOrder | null {
  const own = read('sessionStorage', hash);
  if (own) return own;
  const shared = read('localStorage', hash);
  if (!shared) return null;
  if (!isFreshShared(shared, now)) {
    remove('localStorage', hash);
    return null;
  }
  write('sessionStorage', hash, shared);
  return shared;
}
