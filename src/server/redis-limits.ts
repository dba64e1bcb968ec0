/**
 * `redisLimitStore({ client })`: the abuse limits' counters in Redis, shared by every handler instance. Each count
 * is one atomic Lua script (rate-limiter-flexible's `RateLimiterRedis`: SET NX with the window's expiry, INCRBY),
 * so every key expires with its window. While Redis cannot answer, an in-process limiter of the same size counts.
 * Takes a node-redis (v4 and later) client; loads nothing of `redis` itself.
 */
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import { limiterStore, windowSeconds } from './limit-store.js';
import type { LimitStore } from './limits.js';

export interface RedisLimitStoreOptions {
  /** A connected node-redis client (the one given to `createRedisStore({ client })` does). */
  client: unknown;
  /** Prefix of every counter key; default `pay-checkout:limit:`. */
  prefix?: string;
}

export function redisLimitStore(options: RedisLimitStoreOptions): LimitStore {
  const prefix = options.prefix ?? 'pay-checkout:limit:';
  return limiterStore((name, limit) => {
    const size = { points: limit.max, duration: windowSeconds(limit) };
    return new RateLimiterRedis({
      ...size,
      storeClient: options.client,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      keyPrefix: prefix + name,
      insuranceLimiter: new RateLimiterMemory({ ...size, keyPrefix: name }),
    });
  });
}
