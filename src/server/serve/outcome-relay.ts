/**
 * The relay of order outcomes to `PAY_CHECKOUT_NOTIFY_URL` (src/server/serve/relay/), made from serve's settings: its
 * outbox lives in the same shared store as the claims (Redis or PostgreSQL), or in memory for one process.
 */
import type { EventSink } from '../events.js';
import { createRelay, memoryOutbox, postgresOutbox, redisOutbox, type Outbox, type Relay } from './relay/index.js';
import type { ServeCommandSettings } from './settings.js';

export function outboxOf(store: ServeCommandSettings['store']): Outbox {
  if (store.kind === 'redis') return redisOutbox({ url: store.url });
  if (store.kind === 'postgres') return postgresOutbox({ url: store.url });
  return memoryOutbox();
}

/** The relay for these settings; undefined without a notify URL (outcomes then go nowhere but the events). */
export function relayOf(
  settings: Pick<ServeCommandSettings, 'notifyUrl' | 'appSecrets' | 'notifyRetryMs' | 'store'>,
  emit: EventSink,
  fetch?: typeof globalThis.fetch,
): Relay | undefined {
  if (!settings.notifyUrl) return undefined;
  return createRelay({
    outbox: outboxOf(settings.store),
    notifyUrl: settings.notifyUrl,
    secrets: settings.appSecrets,
    ...(settings.notifyRetryMs !== undefined ? { firstRetryMs: settings.notifyRetryMs } : {}),
    emit,
    ...(fetch ? { fetch } : {}),
  });
}
