/**
 * One createCheckoutHandler() instance in its own process, for the multi-instance test and the bench.
 * Settings come as JSON in PAY_HANDLER_INSTANCE; prints `listening http://127.0.0.1:PORT` once it serves.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeFetch } from '../../src/server/node/fetch.js';
import type { RedisStoreOptions } from '../../src/server/redis/index.js';
import { stormLink } from './buyer-storm.js';
import { traceClaims, traceOrderCalls } from './claim-trace.js';

export interface InstanceSettings {
  baseUrl: string;
  /** Shared claims in Redis; without it (or `redis`, `postgresUrl`), this instance's own memory. */
  redisUrl?: string;
  /** Shared claims in Redis, any deployment: `{ url }`, `{ rootNodes }` (Cluster), `{ sentinel }`. */
  redis?: Pick<RedisStoreOptions, 'url' | 'rootNodes' | 'sentinel' | 'rememberMs'>;
  /** Shared claims in PostgreSQL. */
  postgresUrl?: string;
  /** The signing secret of forwarded webhooks (the sandbox's demo partner: `whsec_test_demo`). */
  webhookSecret: string;
  timeoutMs?: number;
  waitMs?: number;
  secret?: string | string[];
  /** The abuse limits with their defaults (in Redis with `redisUrl`), behind one proxy hop; default off (throughput runs). */
  limits?: boolean;
  /** A directory: each instance writes its claim calls there (claim-trace.ts), to explain a stuck claim. */
  traceDir?: string;
  /** The built package (`dist/server.js`, `dist/server-redis.js`, `dist/server-postgres.js`; `npm run build` first) instead of the source. */
  built?: boolean;
  /**
   * Served by `serve()` (behind the proxy: no per-address cap, and room for the storm's ~700 connections an instance
   * holds at its peak: past `maxConnections`, 512 by default, Node resets a new connection), SIGTERM a graceful `close()`, and every event printed
   * as `event {json}` on stdout; without it, a bare `http` server that SIGTERM closes at once (the bench's).
   */
  graceful?: boolean;
  /** With `graceful`: how long close() still accepts after /health/ready turned 503 (serve()'s `acceptForMs`). */
  acceptForMs?: number;
  /** Every hash is a link with the storm link's record (a load spread over many links, as the per-link limit wants). */
  anyLink?: boolean;
  /**
   * Outcomes wanted (an `onOrderStatus` that keeps nothing), every order then followed by the sweep (`'sweep'`), or
   * with `sweep: false` (`'no sweep'`): the bench's rows that put the sweep's cost beside none.
   */
  outcomes?: 'sweep' | 'no sweep';
}

const settings = JSON.parse(process.env.PAY_HANDLER_INSTANCE ?? '{}') as InstanceSettings;
const { createCheckoutHandler, memoryClaimStore, serve, toNodeListener } = (await import(settings.built ? '../../dist/server.js' : '../../src/server/index.js')) as typeof import('../../src/server/index.js');
const { createPostgresStore } = (await import(settings.built ? '../../dist/server-postgres.js' : '../../src/server/postgres/index.js')) as typeof import('../../src/server/postgres/index.js');
const { createRedisStore } = (await import(settings.built ? '../../dist/server-redis.js' : '../../src/server/redis/index.js')) as typeof import('../../src/server/redis/index.js');
const redis = settings.redis ?? (settings.redisUrl ? { url: settings.redisUrl } : undefined);
const opened = redis ? createRedisStore(redis) : settings.postgresUrl ? createPostgresStore({ connectionString: settings.postgresUrl }) : memoryClaimStore();
const store = settings.traceDir ? traceClaims(opened, `${settings.traceDir}/${process.pid}.jsonl`) : opened;
const handler = createCheckoutHandler({
  // Counters beside the claims: the Redis store's own limitStore, memory otherwise (Redis's follow Cluster and Sentinel).
  limits: settings.limits ? {} : false,
  trustProxy: 1,
  merchantKey: 'mk_test_demo',
  baseUrl: settings.baseUrl,
  resolveLink: (hash) => (hash === stormLink || settings.anyLink ? { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } : null),
  webhookSecret: settings.webhookSecret,
  store,
  ...(settings.secret ? { secret: settings.secret } : {}),
  ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  ...(settings.waitMs ? { claimTimings: { waitMs: settings.waitMs } } : {}),
  ...(settings.graceful ? { onEvent: (event) => console.log(`event ${JSON.stringify(event)}`) } : { onError: (error) => console.error('[instance]', error) }),
  // The bench resets the sandbox between phases, so the sweep meets orders the service forgot: only errors are printed.
  ...(settings.outcomes
    ? { onOrderStatus: () => {}, onEvent: (event) => event.level === 'error' && console.error('[instance]', event), ...(settings.outcomes === 'no sweep' ? { sweep: false as const } : {}) }
    : {}),
  // Traced: the service calls too, over the handler's own default fetch (the source's: the built one is left as built).
  ...(settings.traceDir && !settings.built ? { fetch: traceOrderCalls(nodeFetch() ?? globalThis.fetch, `${settings.traceDir}/${process.pid}-service.jsonl`) } : {}),
});
if (settings.graceful) {
  const running = await serve(handler, { port: 0, host: '127.0.0.1', maxConnectionsPerAddress: Infinity, maxConnections: 4_096, onEvent: (event) => console.log(`event ${JSON.stringify(event)}`) });
  console.log(`listening ${running.url}`);
  process.once('SIGTERM', () => {
    const started = Date.now();
    void running
      .close({ acceptForMs: settings.acceptForMs ?? 0 })
      .then(() => console.log(`closed ${Date.now() - started}`))
      .finally(() => void (store.close?.() ?? Promise.resolve()).finally(() => process.exit(0)));
  });
} else {
  const server = createServer({ keepAliveTimeout: 30_000 }, toNodeListener(handler));
  server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    // A memory store has no close: the process ends here either way (a sweep with a backlog would hold it).
    void (store.close?.() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}
