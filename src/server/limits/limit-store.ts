/**
 * The memory limit store, and what it shares with the Redis one (redis/limits.ts): one rate-limiter-flexible
 * limiter per distinct limit, every hit of a request counted at once, the longest refusal answered.
 */
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { Limit, LimitHit, LimitStore } from './limits.js';

/** The part of a rate-limiter-flexible limiter a limit store uses. */
export interface Consumer {
  consume(key: string, points?: number): Promise<unknown>;
}

/** rate-limiter-flexible counts in whole seconds. */
export const windowSeconds = (limit: Limit) => Math.max(1, Math.ceil(limit.windowMs / 1000));

/** A limit store over rate-limiter-flexible limiters made by `make`, one per limit name and size. */
export function limiterStore(make: (name: string, limit: Limit) => Consumer): LimitStore {
  const limiters = new Map<string, Consumer>();
  const limiterOf = ({ name, limit }: LimitHit) => {
    const id = `${name}:${limit.max}:${windowSeconds(limit)}`;
    let limiter = limiters.get(id);
    if (!limiter) limiters.set(id, (limiter = make(name, limit)));
    return limiter;
  };
  return {
    async hit(hits) {
      // All at once: over Redis, node-redis writes them in one pipeline, so a create costs one round trip.
      const results = await Promise.allSettled(hits.map((hit) => limiterOf(hit).consume(hit.key)));
      let waitMs = 0;
      for (const [i, result] of results.entries()) {
        if (result.status === 'fulfilled') continue;
        // A refusal rejects with the counter's state; anything else is the store failing.
        if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
        (hits[i] as LimitHit).refused = true;
        waitMs = Math.max(waitMs, result.reason.msBeforeNext, 1);
      }
      return waitMs;
    },
  };
}

/** Counters in this process: right for one instance; a fleet shares `redisLimitStore()` instead. */
export function memoryLimitStore(): LimitStore {
  return limiterStore((name, limit) => new RateLimiterMemory({ keyPrefix: name, points: limit.max, duration: windowSeconds(limit) }));
}
