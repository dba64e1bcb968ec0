/**
 * Each shop's fair share of one partner-mode instance, checked before any of the request's work (no body read, no
 * store call, no decryption: a map lookup and a little arithmetic):
 * - a rate: at most `perSecond` of a shop's buyer requests (link lookups, creates, order reads and actions) a second
 *   on this instance, `burst` of them at once after a quiet spell (a token bucket);
 * - a cap: at most `maxInProgress` of them under way at once.
 * One more is refused with 429 `LIMIT_REACHED` and `Retry-After` (limits.ts's refusal), without calling the service
 * (partner mode answers it after a short pause that holds only a timer, index.ts). So a flood on one shop's links takes
 * at most its rate of the instance's work, never the event loop, the store's connection and the service's sockets
 * every other shop's buyers wait on. A waiting status request (`?wait=`) is not counted: it holds no turn while it
 * waits, and the handler caps those itself. Counted per instance, in memory: N instances let a shop N times the rate.
 */
import type { CheckoutHttpError } from '../../http/errors.js';
import { LimitRefusal, limitReached } from '../../limits/limits.js';

/**
 * A shop's buyer requests under way at once: enough for a busy shop (100 creates/s at 50 ms each is 5) through the
 * service's slow moments (at 8, a shop's 84 creates/s met it whenever answers took 100 ms).
 */
export const defaultShopInProgress = 16;

/**
 * A shop's buyer requests a second on one instance, and at once: docs/site/contributing/decisions.md says why. A sale's
 * buyers (each a link lookup as its page loads, a create as it pays, some a code: 2 to 3 requests, seconds apart) fit
 * the burst by fifty paying in the same instant and the rate by thirty-odd starting a second; a flood takes at most 100
 * a second, some 10–20% of what one instance creates on two cores (500–1,100 a second in the platform bench), where the
 * cap alone let it take 540, and holds the instance at once for 50 creates, not more.
 */
export const defaultShopRate = { perSecond: 100, burst: 50 };

export interface ShopShareOptions {
  maxInProgress?: number;
  /** The rate: requests a second (a whole number from 1), and at most this many at once; default `defaultShopRate`. */
  perSecond?: number;
  burst?: number;
  now?: () => number;
}

export interface ShopShare {
  /** Takes a turn for the shop, or throws the refusal (a `CheckoutHttpError`): call the returned function once the answer is made. */
  enter(storeId: string): () => void;
  /** The shop's requests under way now. */
  inProgress(storeId: string): number;
}

/** Buckets kept at most; past it those full again are let go (a full bucket is what a new one is). */
const maxBuckets = 10_000;

export function shopShare({ maxInProgress = defaultShopInProgress, perSecond = defaultShopRate.perSecond, burst = defaultShopRate.burst, now = Date.now }: ShopShareOptions = {}): ShopShare {
  const under = new Map<string, number>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perSecond / 1000;
  const tokensOf = (storeId: string, at: number) => {
    const bucket = buckets.get(storeId);
    return bucket ? Math.min(burst, bucket.tokens + (at - bucket.at) * perMs) : burst;
  };
  const refused = (waitMs: number, limit: string, describe: (seconds: number) => string): CheckoutHttpError => limitReached(waitMs, describe).withCause(new LimitRefusal(limit));
  return {
    enter(storeId) {
      const at = now();
      const tokens = tokensOf(storeId, at);
      if (tokens < 1) throw refused((1 - tokens) / perMs, 'shopRate', (seconds) => `Too many of this shop's payments are being started; try again in ${seconds} s.`);
      const going = under.get(storeId) ?? 0;
      if (going >= maxInProgress) throw refused(1_000, 'shopInProgress', (seconds) => `Too many of this shop's payments are being started at once; try again in ${seconds} s.`);
      if (buckets.size >= maxBuckets && !buckets.has(storeId)) {
        for (const id of buckets.keys()) if (tokensOf(id, at) >= burst) buckets.delete(id);
        if (buckets.size >= maxBuckets) buckets.clear();
      }
      buckets.set(storeId, { tokens: tokens - 1, at });
      under.set(storeId, going + 1);
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
