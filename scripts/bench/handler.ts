/**
 * Bench section "handler": order creations per second through createCheckoutHandler() on 1 instance (memory store)
 * and on 3 instances sharing Redis behind a round-robin proxy, against a sandbox process that does not deduplicate
 * `order_key`, side by side with the sandbox's own merchant API in the same run (design.md §7: at least half its
 * creates/s, ≤ 2 ms overhead per create at one client), with the CPU each process spent per create; then the issue's
 * storm (200 buyers × 5 identical creates) on each, counting duplicate orders and stuck claims, which must both be 0.
 */
import { availableParallelism, loadavg } from 'node:os';
import { idempotencyKeyHeader } from '../../src/contract/index.js';
import { startRedis } from '../../test/node/redis-harness.js';
import { buyerStorm, stormLink } from '../buyer-storm.js';
import { startCluster } from '../handler-cluster.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../sandbox-process.mjs';
import { childrenCpuMs } from './cpu.js';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
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

/** The same create as the merchant's server makes it: `POST /v1/orders` with the merchant key. */
const merchantCreate = (n: number): LoadRequest => ({
  method: 'POST',
  path: '/v1/orders',
  headers: { 'content-type': 'application/json', 'merchant-key': 'mk_test_demo' },
  body: JSON.stringify({
    amount: 50_000,
    description: 'Camiseta talla M',
    currency: 'COP',
    order_key: `bench-direct-${process.pid}-${Date.now()}-${n}`,
    payment_gateway: { id_payment_gateway: 2 },
    shopper: { id_number: '12345678', id_type: 1 },
  }),
});

/** A load, with the CPU the sandbox and the handler processes spent per request during it. */
async function measured(options: Parameters<typeof runLoad>[0]): Promise<LoadResult & { sandboxCpu: number | null; handlerCpu: number | null }> {
  const before = [childrenCpuMs('sandbox'), childrenCpuMs('handler-instance')];
  const load = await runLoad(options);
  const after = [childrenCpuMs('sandbox'), childrenCpuMs('handler-instance')];
  const per = (i: number) => (before[i] === null || after[i] === null ? null : ((after[i] ?? 0) - (before[i] ?? 0)) / Math.max(1, load.requests));
  return { ...load, sandboxCpu: per(0), handlerCpu: per(1) };
}

/** Thousands of bench orders make every sandbox request slower (its sweeps walk them all): each phase starts clean. */
const resetSandbox = (origin: string) => fetch(`${origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());

const cpuText = (ms: number | null) => (ms === null ? 'n/a' : `${ms.toFixed(2)} ms`);

export async function benchHandler(options: HandlerBenchOptions): Promise<boolean> {
  console.log('\n## handler: order creations through createCheckoutHandler(), sandbox with --no-order-key-dedupe');
  const [busy = 0] = loadavg();
  if (busy > availableParallelism() / 2) console.log(`note: load average ${busy.toFixed(1)} on ${availableParallelism()} cores: other processes are busy, figures will be low`);
  const sandbox = (await startSandboxProcess({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  const redis = await startRedis();
  let ok = true;
  let oneInstance = 0;
  try {
    const direct = await measured({ origin: sandbox.origin, request: merchantCreate, ...options });
    print('sandbox merchant API (no handler)', direct);
    const directOne = await runLoad({ origin: sandbox.origin, request: merchantCreate, ...options, concurrency: 1 });
    console.log(`${''.padEnd(52)} CPU per create: sandbox ${cpuText(direct.sandboxCpu)}; one client: p50 ${directOne.p50Ms.toFixed(2)} ms`);
    await resetSandbox(sandbox.origin);
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
        const load = await measured({ origin, request: create, ...options });
        print(name, load);
        const ratio = load.perSecond / direct.perSecond;
        let line = `${''.padEnd(52)} ${ratio.toFixed(2)}× the sandbox's creates/s (budget ≥ 0.5× on 1 instance); CPU per create: handler ${cpuText(load.handlerCpu)}, sandbox ${cpuText(load.sandboxCpu)}`;
        if (count === 1) {
          const one = await runLoad({ origin, request: create, ...options, concurrency: 1 });
          const overhead = one.p50Ms - directOne.p50Ms;
          line += `; one client: p50 ${one.p50Ms.toFixed(2)} ms, ${overhead.toFixed(2)} ms over the sandbox (budget ≤ 2 ms)`;
          ok &&= ratio >= 0.5 && overhead <= 2;
          oneInstance = load.perSecond;
        } else {
          line += `; ${(load.perSecond / oneInstance).toFixed(2)}× one instance (budget ≥ 1×)`;
          ok &&= load.perSecond >= oneInstance;
        }
        console.log(line);
        await resetSandbox(sandbox.origin);
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
  console.log(`creates/s, overhead, 3 instances ≥ 1, 0 duplicate orders and 0 stuck claims: ${ok ? 'PASS' : 'OVER'}`);
  return ok;
}
