import { remove, write } from './session.js';
import type { SavedOrder } from './session.js';

// Keeping and forgetting the order in progress (session.ts reads it): only the later steps do either.

export function saveOrder(saved: SavedOrder, now = Date.now()): void {
  const stamped: SavedOrder = { ...saved, saved_at: saved.saved_at ?? now };
  write('sessionStorage', saved.hash, stamped);
  const { handed_off: _handedOff, ...shared } = stamped;
  write('localStorage', saved.hash, shared);
}

/** Forgets the order in this tab and for every other: a result was shown, or the service no longer knows it. */
export function clearSavedOrder(hash: string): void {
  remove('sessionStorage', hash);
  remove('localStorage', hash);
}
