/**
 * Each shop's fair share of one partner-mode instance: at most `maxInProgress` of a shop's buyer requests (link
 * lookups, creates, order reads and actions) are under way at once; one more is refused with 429
 * `LIMIT_REACHED` and `Retry-After: 1` without calling the service (partner mode answers it after a short pause that
 * holds only a timer, index.ts). So a flood on one shop's
 * links holds a few of the instance's turns, never the queue every other shop's buyers wait in (the event loop, the
 * store's connection, the service's sockets). A waiting status request (`?wait=`) is not counted: it holds no turn
 * while it waits, and the handler caps those itself.
 */
import { CheckoutHttpError } from '../../http/errors.js';

/**
 * A shop's buyer requests under way at once: enough for a busy shop (100 creates/s at 50 ms each is 5) through the
 * service's slow moments (at 8, a shop's 84 creates/s met it whenever answers took 100 ms).
 */
export const defaultShopInProgress = 16;

export interface ShopShare {
  /** Takes a turn for the shop, or throws the refusal: call the returned function once the answer is made. */
  enter(storeId: string): () => void;
  /** The shop's requests under way now. */
  inProgress(storeId: string): number;
}

export function shopShare(maxInProgress: number = defaultShopInProgress): ShopShare {
  const under = new Map<string, number>();
  return {
    enter(storeId) {
      const now = under.get(storeId) ?? 0;
      if (now >= maxInProgress) {
        throw CheckoutHttpError.of('LIMIT_REACHED', { description: "Too many of this shop's payments are being started at once; try again in 1 s." }, { 'Retry-After': '1' });
      }
      under.set(storeId, now + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const after = (under.get(storeId) ?? 1) - 1;
        if (after > 0) under.set(storeId, after);
        else under.delete(storeId);
      };
    },
    inProgress: (storeId) => under.get(storeId) ?? 0,
  };
}
