/**
 * `pay-checkout/server/redis`: the claim store shared through Redis. Its own subpath, so a server without Redis
 * (a route handler, an edge function) never makes its bundler resolve `redis`, an optional peer dependency.
 */
export { createRedisStore } from './store.js';
export type { RedisStore, RedisStoreOptions } from './store.js';
export type { RedisDurability } from './durability.js';
export type { RedisSentinelConfig } from './connect.js';
export type { AnyRedisClient, RedisClientLike, RedisClusterLike, RedisSentinelLike, RedisTopology } from './link.js';
export { redisLimitStore } from './limits.js';
export type { RedisLimitStoreOptions } from './limits.js';
