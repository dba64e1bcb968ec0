/**
 * One Redis store's shutdown in a process of its own (server-redis-close.test.ts): the scenario named in argv[2]
 * runs, prints `closed {"ms": N}` once close() resolved, and returns. It never calls process.exit: the process must
 * end by itself, which it does only if close() let go of every socket and retry timer.
 */
import { createCheckoutHandler, serve } from '../../src/server/index.js';
import { createRedisStore, type RedisStore } from '../../src/server/redis/index.js';
import { pushOrderBody, postOrder, resolveHandlerLink } from './handler-harness.js';
import { freePort, startRedis } from './redis-harness.js';
import { startTestSandbox } from './sandbox-harness.js';

const errors: string[] = [];
const quiet = (port: number, commandTimeoutMs = 1_000) =>
  createRedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Until the store has heard that Redis is gone (its clients are reconnecting). */
const redisGone = async () => {
  for (let i = 0; i < 100 && !errors.some((m) => /ECONNREFUSED|closed unexpectedly/i.test(m)); i++) await pause(50);
};
const timedClose = async (close: () => Promise<unknown>) => {
  const started = performance.now();
  await close();
  console.log(`closed ${JSON.stringify({ ms: Math.round(performance.now() - started) })}`);
};

const scenarios: Record<string, () => Promise<void>> = {
  /** A buyer's status request waits on Redis pub/sub; Redis goes away; the operator's graceful stop. */
  async 'handler-wait-redis-gone'() {
    const redis = await startRedis();
    const sandbox = await startTestSandbox();
    const store = quiet(redis.port);
    await store.durability;
    const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: `${sandbox.origin}/v1`, resolveLink: resolveHandlerLink, secret: 'a-test-server-secret', store, statusPollMs: 600_000, limits: false });
    const server = await serve(handler, { port: 0, host: '127.0.0.1' });
    const created = await postOrder(server.url, 'close-wait', pushOrderBody);
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const { id_order: id, order_token: token } = created.body.data as { id_order: number; order_token: string };
    const waiting = fetch(`${server.url}/v1/checkout/orders/${id}?wait=25&since=processing`, { headers: { 'X-Order-Token': token } }).then((r) => r.text());
    // Subscribed by now: the wait's pub/sub connection is open.
    await pause(500);
    await redis.stop();
    await redisGone();
    await timedClose(async () => {
      await server.close();
      await store.close?.();
    });
    await waiting.catch(() => {});
    await sandbox.close();
  },

  /** A wait's unsubscribe that arrives after close() (its subscribe answered late), then Redis stops. */
  async 'unsubscribe-after-close'() {
    const redis = await startRedis();
    const store = quiet(redis.port);
    const off = await store.subscribe('order:1', () => {});
    await timedClose(() => store.close!());
    await off().catch(() => {});
    await redis.stop();
  },

  /** A subscribe whose pub/sub connection is still connecting to a Redis that went away. */
  async 'subscribe-while-redis-gone'() {
    const redis = await startRedis();
    const store: RedisStore = quiet(redis.port);
    await store.durability;
    await redis.stop();
    await redisGone();
    const subscribing = store.subscribe('order:1', () => {}).catch(() => {});
    await pause(200);
    await timedClose(() => store.close!());
    await subscribing;
  },

  /** Redis was never there: the store's first connection is still trying when it is closed. */
  async 'redis-never-up'() {
    const store = quiet(await freePort());
    await store.inspect('warm-up').catch(() => {});
    await timedClose(() => store.close!());
  },
};

const scenario = scenarios[process.argv[2] ?? ''];
if (!scenario) throw new Error(`no scenario ${process.argv[2]}; one of ${Object.keys(scenarios).join(', ')}`);
await scenario();
