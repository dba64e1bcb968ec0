/**
 * A relay in a process of its own, for relay-outbox.test.ts to kill with SIGKILL: argv `STORE URL NOTIFY_URL`. It
 * records one paid order's notice, starts sending, prints `recorded ID` and runs until killed.
 */
import { createRelay, postgresOutbox, redisOutbox } from '../../src/server/serve/relay/index.js';

const [store, url, notifyUrl] = process.argv.slice(2) as [string, string, string];
const relay = createRelay({
  outbox: store === 'redis' ? redisOutbox({ url }) : postgresOutbox({ url }),
  notifyUrl,
  secrets: ['relay-crash-app-secret'],
  firstRetryMs: 100,
  timeoutMs: 60_000,
  leaseMs: 1_500,
  pollMs: 50,
  emit: () => {},
});
const recorded = await relay.record({ link: 'camiseta', id_order: 9_001, id_external: 'pc_crash', status: 'confirmed', amount: 20_000, currency: 'COP', gateway: 'push', cancel_reason: null, order_uid: 'crash-scope.pc_crash', found_by: 'webhook' });
relay.start();
console.log(`recorded ${recorded?.id}`);
