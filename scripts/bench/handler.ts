/**
 * Bench section "handler": order creations per second through createCheckoutHandler() on 1 instance (memory store)
 * and on 3 instances sharing Redis behind a round-robin proxy, against a sandbox process that does not deduplicate
 * `order_key`; then the storm (200 buyers × 5 identical creates) on each, counting duplicate orders and
 * stuck claims, which must both be 0.
 */
import { availableParallelism, loadavg } from 'node:os';
import { idempotencyKeyHeader } from '../../src/contract/index.js';
import { startRedis } from '../../test/node/redis-harness.js';
import { buyerStorm, stormLink } from '../buyer-storm.js';
import { startCluster } from '../handler-cluster.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../sandbox-process.mjs';
import { runLoad, type LoadRequest } from './load.js';
import { print } from './sandbox.js';

export interface HandlerBenchOptions {
  durationMs: number;
  concurrency: number;
  warmupMs: number;
}

const create = (n: number): LoadRequest => ({
  method: 'POST',
  path: `/v1/checkout/links/${stormLink}/orders`,
  headers: { 'content-type': 'application/json', [idempotencyKeyHeader]: `bench-${process.pid}-${Date.now()}-${n}` },
  body: JSON.stringify({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
});

export async function benchHandler(options: HandlerBenchOptions): Promise<boolean> {
  console.log('\n## handler: order creations through createCheckoutHandler(), sandbox with --no-order-key-dedupe');
  const [busy = 0] = loadavg();
  if (busy > availableParallelism() / 2) console.log(`note: load average ${busy.toFixed(1)} on ${availableParallelism()} cores: other processes are busy, figures will be low`);
  const sandbox = (await startSandboxProcess({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  const redis = await startRedis();
  let ok = true;
  try {
    for (const [name, count, store] of [
      ['1 instance, memory store', 1, {}],
      ['3 instances, Redis, round-robin', 3, { redisUrl: redis.url }],
    ] as const) {
      const cluster = await startCluster(count, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', ...store });
      try {
        // One instance is measured directly; three through the proxy, as a load balancer would spread them.
        const origin = count === 1 ? (cluster.instances[0] ?? cluster.url) : cluster.url;
        // Cold start (loading redis, connecting, the first discovery) is not what is measured: a few creates first.
        for (let i = 0; i < 3 * count; i++) {
          const warm = create(-1 - i);
          await fetch(origin + warm.path, { method: warm.method, headers: warm.headers, body: warm.body ?? null });
        }
        const load = await runLoad({ origin, request: create, ...options });
        print(name, load);
        const storm = await buyerStorm({ origin, sandboxOrigin: sandbox.origin, buyers: 200, copies: 5, changedEvery: 4 });
        console.log(
          `${''.padEnd(52)} 200 buyers × 5: ${storm.orders} orders, ${storm.duplicateOrders} duplicate orders, ${storm.stuckClaims} stuck claims, ` +
            `${storm.buyersWithManyIds} buyers with 2+ ids, ${(storm.elapsedMs / 1000).toFixed(1)} s`,
        );
        // Errors under load (a 503 when the store answers late) are printed above; the verdict is about duplicates.
        ok &&= storm.duplicateOrders === 0 && storm.stuckClaims === 0 && storm.buyersWithManyIds === 0 && storm.buyersWithoutOrder === 0;
      } finally {
        await cluster.close();
      }
    }
  } finally {
    await redis.stop();
    sandbox.stop();
  }
  console.log(`0 duplicate orders and 0 stuck claims on 1 and 3 instances: ${ok ? 'PASS' : 'OVER'}`);
  return ok;
}
