/**
 * `redisLimitStore({ client })`: the abuse limits' counters in Redis, shared by every handler instance. Each count
 * is one atomic Lua script (rate-limiter-flexible's `RateLimiterRedis`: SET NX with the window's expiry, INCRBY),
 * so every key expires with its window. While Redis cannot answer, an in-process limiter of the same size counts.
 * Takes a node-redis (v4 and later) client, or the `command` of `createRedisStore()` (which sets this store as its
 * `limitStore`, so counters follow the claims through Cluster slots and Sentinel failovers); loads nothing of `redis`.
 */
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import { limiterStore, windowSeconds } from '../limits/limit-store.js';
import type { LimitStore } from '../limits/limits.js';

export interface RedisLimitStoreOptions {
  /** A connected node-redis client. */
  client?: unknown;
  /** Or one routed command, as `RedisStore.command(key, args)` runs it. */
  command?: (key: string, args: string[]) => Promise<unknown>;
  /** Prefix of every counter key; default `pay-checkout:limit:`. */
  prefix?: string;
}

/** The one call RateLimiterRedis makes of a node-redis client for windowed counts (`eval` with keys and arguments). */
const evalClient = (command: (key: string, args: string[]) => Promise<unknown>) => ({
  isReady: true,
  eval: (script: string, { keys, arguments: args }: { keys: string[]; arguments: string[] }) =>
    command(keys[0] ?? '', ['EVAL', script, String(keys.length), ...keys, ...args]),
});

export function redisLimitStore(options: RedisLimitStoreOptions): LimitStore {
  if (!options.client === !options.command) throw new TypeError('redisLimitStore: give exactly one of `client` or `command`.');
  const prefix = options.prefix ?? 'pay-checkout:limit:';
  const storeClient = options.command ? evalClient(options.command) : options.client;
  return limiterStore((name, limit) => {
    const size = { points: limit.max, duration: windowSeconds(limit) };
    return new RateLimiterRedis({
      ...size,
      storeClient,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      keyPrefix: prefix + name,
      insuranceLimiter: new RateLimiterMemory({ ...size, keyPrefix: name }),
    });
  });
}
