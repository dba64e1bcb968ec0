/**
 * One createCheckoutHandler() instance in its own process, for the multi-instance test and the bench.
 * Settings come as JSON in PAY_HANDLER_INSTANCE; prints `listening http://127.0.0.1:PORT` once it serves.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCheckoutHandler, memoryClaimStore, toNodeListener, type LimitsOption } from '../src/server/index.js';
import { createRedisStore } from '../src/server/redis/index.js';
import { redisLimitStore } from '../src/server/redis-limits.js';
import { stormLink } from './buyer-storm.js';

export interface InstanceSettings {
  baseUrl: string;
  /** Shared claims in Redis; without it, this instance's own memory. */
  redisUrl?: string;
  /** The signing secret of forwarded webhooks (the sandbox's demo partner: `whsec_test_demo`). */
  webhookSecret: string;
  timeoutMs?: number;
  waitMs?: number;
  secret?: string | string[];
  /** The abuse limits with their defaults (in Redis with `redisUrl`), behind one proxy hop; default off (throughput runs). */
  limits?: boolean;
}

const settings = JSON.parse(process.env.PAY_HANDLER_INSTANCE ?? '{}') as InstanceSettings;
const store = settings.redisUrl ? createRedisStore({ url: settings.redisUrl }) : memoryClaimStore();
async function limitsOf(): Promise<LimitsOption> {
  if (!settings.limits) return false;
  if (!settings.redisUrl) return {};
  const { createClient } = await import('redis');
  const client = createClient({ url: settings.redisUrl, disableOfflineQueue: true });
  client.on('error', (error: unknown) => console.error('[instance] redis limits:', error));
  await client.connect();
  return { store: redisLimitStore({ client }) };
}
const handler = createCheckoutHandler({
  limits: await limitsOf(),
  trustProxy: 1,
  merchantKey: 'mk_test_demo',
  baseUrl: settings.baseUrl,
  resolveLink: (hash) => (hash === stormLink ? { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } : null),
  webhookSecret: settings.webhookSecret,
  store,
  ...(settings.secret ? { secret: settings.secret } : {}),
  ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  ...(settings.waitMs ? { claimTimings: { waitMs: settings.waitMs } } : {}),
  onError: (error) => console.error('[instance]', error),
});
const server = createServer({ keepAliveTimeout: 30_000 }, toNodeListener(handler));
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void store.close?.().finally(() => process.exit(0));
});
