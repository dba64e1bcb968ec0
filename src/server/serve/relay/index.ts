/**
 * The relay of order outcomes to the shop's notify URL (`pay-checkout serve`): the relay, its outboxes (memory,
 * Redis, PostgreSQL) and the `deliveries` command.
 */
export { createRelay, defaultRelayTimings, retryDelayMs } from './relay.js';
export type { AttemptResult, Relay, RelayedNotice, RelayOptions } from './relay.js';
export { memoryOutbox } from './outbox.js';
export type { DeliveryState, MemoryOutboxOptions, Outbox, OutboxEntry } from './outbox.js';
export { redisOutbox } from './redis-outbox.js';
export type { RedisOutboxOptions } from './redis-outbox.js';
export { postgresOutbox } from './postgres-outbox.js';
export type { PostgresOutboxOptions } from './postgres-outbox.js';
export { runDeliveries, deliveriesUsage } from './deliveries.js';
export type { RunDeliveriesInput } from './deliveries.js';
export { noticeTypeOf } from './notice.js';
export type { Notice, NoticeData, NoticeType } from './notice.js';
