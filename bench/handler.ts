/**
 * Bench section "handler": order creations per second through createCheckoutHandler() against a sandbox process that
 * does not deduplicate `order_key`, side by side with the sandbox's own merchant API (the budget: at least half its
 * creates/s, ≤ 2 ms overhead per create at one client), with the CPU each process spent per create. The machine is
 * shared, so the phases are loaded in turn, round after round, and each round's ratio is taken within the round; a
 * bare node:http proxy in front of the sandbox shows what any Node hop costs here. Then 1 and 3 instances sharing
 * Redis behind the same round-robin proxy (its own process), and the storm (200 buyers × 5 identical
 * creates) on each, counting duplicate orders and stuck claims, which must both be 0. In rounds of their own, with
 * outcomes wanted (`onOrderStatus`), an instance whose sweep follows every order against one with `sweep: false`:
 * creates/s and CPU per create at most 5% apart. One thing measured at a time: every phase starts on a clean sandbox,
 * and an instance runs only while it is measured or idles (no sweep polls the sandbox behind another phase).
 */
import { availableParallelism, loadavg } from 'node:os';
import { idempotencyKeyHeader } from '../src/contract/index.js';
import { startRedis } from '../test/node/redis-harness.js';
import { buyerStorm, stormLink } from '../test/harness/buyer-storm.js';
import { startCluster, startProxyProcess, type Cluster } from '../test/harness/handler-cluster.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../test/harness/sandbox-process.mjs';
import { childrenCpuMs, processCpuMs } from './cpu.js';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
import { print } from './sandbox.js';

export interface HandlerBenchOptions {
  durationMs: number;
  concurrency: number;
  warmupMs: number;
  /** Rounds of the phases loaded in turn; default 3. */
  rounds?: number;
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

const processes = ['sandbox', 'handler-instance', 'round-robin-proxy'] as const;
/** Milliseconds of CPU per request in each process; `client`: this one, the load generator. */
type Cpu = Record<(typeof processes)[number], number | null> & { client: number };

/** A load, with the CPU the sandbox, handler and proxy processes spent per request during it, and the load average. */
async function measured(options: Parameters<typeof runLoad>[0]): Promise<LoadResult & { cpu: Cpu; busy: number }> {
  const [busy = 0] = loadavg();
  const before = processes.map((name) => childrenCpuMs(name));
  const own = process.cpuUsage();
  const load = await runLoad(options);
  const { user, system } = process.cpuUsage(own);
  const after = processes.map((name) => childrenCpuMs(name));
  const per = (i: number) => (before[i] == null || after[i] == null ? null : ((after[i] ?? 0) - (before[i] ?? 0)) / Math.max(1, load.requests));
  const client = (user + system) / 1000 / Math.max(1, load.requests);
  return { ...load, busy, cpu: { sandbox: per(0), 'handler-instance': per(1), 'round-robin-proxy': per(2), client } };
}

/** Thousands of bench orders make every sandbox request slower (its sweeps walk them all): each phase starts clean. */
const resetSandbox = (origin: string) => fetch(`${origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());

const ms = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)} ms`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const pad = ''.padEnd(52);

/** Warm-up creates: cold start (loading, connecting, the first discovery) is not what is measured. */
async function warm(origin: string, count: number) {
  for (let i = 0; i < count; i++) {
    const request = create(-1 - i);
    await fetch(origin + request.path, { method: request.method, headers: request.headers, body: request.body ?? null }).then((r) => r.body?.cancel());
  }
}

export async function benchHandler(options: HandlerBenchOptions): Promise<boolean> {
  console.log('\n## handler: order creations through createCheckoutHandler(), sandbox with --no-order-key-dedupe');
  const cores = availableParallelism();
  const rounds = Math.max(1, options.rounds ?? 3);
  const sandbox = (await startSandboxProcess({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  const redis = await startRedis();
  const stops: (() => Promise<void>)[] = [];
  let ok = true;
  try {
    const floor = await startProxyProcess([sandbox.origin]);
    stops.push(floor.close);
    const one = await startCluster(1, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo' });
    stops.push(one.close);
    const handler = one.instances[0] ?? one.url;
    await warm(handler, 3);
    // Warmed as a long-running server is: V8 optimizes the create path only after some thousands of creates.
    for (const [origin, request] of [[sandbox.origin, merchantCreate], [handler, create]] as const) {
      await runLoad({ origin, request, ...options, durationMs: options.durationMs / 2 });
      await resetSandbox(sandbox.origin);
    }

    // Loaded in turn, round after round: each round's ratio compares phases that met about the same load.
    console.log(`${rounds} rounds of ${(options.durationMs / 1000).toFixed(0)} s per phase, ${options.concurrency} clients; load average (1 min) on ${cores} cores at each phase's start`);
    const ratios: number[] = [];
    const floorRatios: number[] = [];
    const overheads: number[] = [];
    const floorOverheads: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const direct = await measured({ origin: sandbox.origin, request: merchantCreate, ...options });
      print(`round ${round}: sandbox merchant API (no handler)`, direct);
      await resetSandbox(sandbox.origin);
      const bare = await measured({ origin: floor.url, request: merchantCreate, ...options });
      print(`round ${round}: bare node:http proxy → sandbox`, bare);
      await resetSandbox(sandbox.origin);
      const through = await measured({ origin: handler, request: create, ...options });
      print(`round ${round}: 1 handler instance, memory store`, through);
      await resetSandbox(sandbox.origin);
      // One client each, each on a clean sandbox too (the orders of the one before would slow the next one's creates).
      const oneClient = async (origin: string, request: typeof create) => {
        const load = await runLoad({ origin, request, ...options, durationMs: options.durationMs / 2, concurrency: 1 });
        await resetSandbox(sandbox.origin);
        return load;
      };
      const directOne = await oneClient(sandbox.origin, merchantCreate);
      const bareOne = await oneClient(floor.url, merchantCreate);
      const handlerOne = await oneClient(handler, create);
      ratios.push(through.perSecond / direct.perSecond);
      floorRatios.push(bare.perSecond / direct.perSecond);
      overheads.push(handlerOne.p50Ms - directOne.p50Ms);
      floorOverheads.push(bareOne.p50Ms - directOne.p50Ms);
      console.log(
        `${pad} load ${direct.busy.toFixed(1)} / ${bare.busy.toFixed(1)} / ${through.busy.toFixed(1)}; handler ${(through.perSecond / direct.perSecond).toFixed(2)}× the sandbox, bare proxy ${(bare.perSecond / direct.perSecond).toFixed(2)}×`,
      );
      console.log(
        `${pad} CPU per create: sandbox ${ms(direct.cpu.sandbox)} alone, ${ms(bare.cpu.sandbox)} behind the bare proxy, ${ms(through.cpu.sandbox)} behind the handler; handler ${ms(through.cpu['handler-instance'])}; ` +
          `bare proxy ${ms(bare.cpu['round-robin-proxy'])}; load generator ${ms(direct.cpu.client)}`,
      );
      console.log(
        `${pad} one client: p50 sandbox ${directOne.p50Ms.toFixed(2)} ms, handler ${handlerOne.p50Ms.toFixed(2)} ms: ${(handlerOne.p50Ms - directOne.p50Ms).toFixed(2)} ms over ` +
          `(bare proxy ${(bareOne.p50Ms - directOne.p50Ms).toFixed(2)} ms over)`,
      );
    }
    const ratio = median(ratios);
    const overhead = median(overheads);
    console.log(
      `1 instance, median of ${rounds} rounds: ${ratio.toFixed(2)}× the sandbox's creates/s (budget ≥ 0.5×; the bare proxy ${median(floorRatios).toFixed(2)}×), ` +
        `one-client overhead ${overhead.toFixed(2)} ms (budget ≤ 2 ms; the bare proxy ${median(floorOverheads).toFixed(2)} ms)`,
    );
    ok &&= ratio >= 0.5 && overhead <= 2;
    // Outcomes wanted, with the sweep following every order and without it: its cost on a create, side by side, in
    // rounds of their own. Each instance runs only for its own phase (started, warmed, measured, stopped): a sweep
    // polls the sandbox for every order it follows, so an instance left running would load the phases of the others.
    const sweepRates: number[] = [];
    const sweepCpus: number[] = [];
    const sweepPhase = async (outcomes: 'sweep' | 'no sweep', round: number) => {
      const name = outcomes === 'sweep' ? 'sweep on' : 'sweep off';
      const cluster = await startCluster(1, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', outcomes });
      try {
        const origin = cluster.instances[0] ?? cluster.url;
        const pid = cluster.pids[0] ?? 0;
        await warm(origin, 3);
        await runLoad({ origin, request: create, ...options, durationMs: options.durationMs / 2 });
        await resetSandbox(sandbox.origin);
        const before = processCpuMs(pid);
        const load = await runLoad({ origin, request: create, ...options });
        const after = processCpuMs(pid);
        const cpu = before === null || after === null ? null : (after - before) / Math.max(1, load.requests);
        print(`round ${round}: 1 handler instance, outcomes wanted, ${name}`, load);
        return { rate: load.perSecond, cpu };
      } finally {
        await cluster.close();
        await resetSandbox(sandbox.origin);
      }
    };
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? (['sweep', 'no sweep'] as const) : (['no sweep', 'sweep'] as const);
      const first = await sweepPhase(order[0], round);
      const second = await sweepPhase(order[1], round);
      const [on, off] = order[0] === 'sweep' ? [first, second] : [second, first];
      sweepRates.push(on.rate / off.rate);
      if (on.cpu !== null && off.cpu !== null) sweepCpus.push(on.cpu / off.cpu);
      console.log(`${pad} sweep on against off: ${(on.rate / off.rate).toFixed(2)}× the creates/s, CPU per create ${ms(on.cpu)} against ${ms(off.cpu)}`);
    }
    const apart = (values: number[]) => Math.abs(median(values) - 1);
    console.log(
      `the sweep, median of ${rounds} rounds: on against off ${median(sweepRates).toFixed(2)}× the creates/s, ${median(sweepCpus).toFixed(2)}× the CPU per create (budget: at most 5% apart)`,
    );
    ok &&= apart(sweepRates) <= 0.05 && apart(sweepCpus) <= 0.05;

    // 1 and 3 instances sharing Redis, both behind the same proxy in its own process, loaded in turn.
    const behind: Cluster[] = [];
    for (const count of [1, 3]) {
      const cluster = await startCluster(count, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', redisUrl: redis.url }, { proxyProcess: true });
      stops.push(cluster.close);
      behind.push(cluster);
      await warm(cluster.url, 3 * count);
    }
    const scaling: number[] = [];
    for (let round = 1; round <= Math.min(rounds, 2); round++) {
      const figures: number[] = [];
      for (const [i, cluster] of behind.entries()) {
        const load = await measured({ origin: cluster.url, request: create, ...options });
        print(`round ${round}: ${i === 0 ? '1 instance' : '3 instances'}, Redis, behind the proxy`, load);
        console.log(`${pad} load ${load.busy.toFixed(1)}; CPU per create: handlers ${ms(load.cpu['handler-instance'])}, proxy ${ms(load.cpu['round-robin-proxy'])}, sandbox ${ms(load.cpu.sandbox)}`);
        figures.push(load.perSecond);
        await resetSandbox(sandbox.origin);
      }
      scaling.push((figures[1] ?? 0) / (figures[0] ?? 1));
    }
    const scale = median(scaling);
    console.log(`3 instances behind the proxy: ${scale.toFixed(2)}× 1 instance behind it (budget ≥ 1×)`);
    ok &&= scale >= 1;

    for (const [name, origin] of [
      ['1 instance, memory store', handler],
      ['3 instances, Redis, round-robin', behind[1]?.url ?? ''],
    ] as const) {
      const storm = await buyerStorm({ origin, sandboxOrigin: sandbox.origin, buyers: 200, copies: 5, changedEvery: 4 });
      console.log(
        `${name.padEnd(52)} 200 buyers × 5: ${storm.orders} orders, ${storm.duplicateOrders} duplicate orders, ${storm.stuckClaims} stuck claims, ` +
          `${storm.buyersWithManyIds} buyers with 2+ ids, ${(storm.elapsedMs / 1000).toFixed(1)} s`,
      );
      // Errors under load (a 503 when the store answers late) are printed above; the verdict is about duplicates.
      ok &&= storm.duplicateOrders === 0 && storm.stuckClaims === 0 && storm.buyersWithManyIds === 0 && storm.buyersWithoutOrder === 0;
      await resetSandbox(sandbox.origin);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await redis.stop();
    sandbox.stop();
  }
  console.log(`creates/s, overhead, the sweep within 5%, 3 instances ≥ 1, 0 duplicate orders and 0 stuck claims: ${ok ? 'PASS' : 'OVER'}`);
  return ok;
}
