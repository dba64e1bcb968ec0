/**
 * Where one client's create spends its time inside the handler: one handler instance (memory store, the bench's
 * settings) in its own process, in front of a sandbox with `--no-order-key-dedupe`, creates sent one after another,
 * each timed in the instance with `process.hrtime` marks from the request event to the answer's `finish`, split at
 * the claim, the service call and the reply's storing (the store and the service client are wrapped; the handler's own
 * code is not touched). Beside it, the p50 of the merchant's create on the sandbox alone and through the bench's bare
 * `node:http` proxy, and the instance's CPU per create.
 * Medians of each stage over the round. `node --import tsx bench/handler-stages.ts [--rounds 3] [--seconds 4]`.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ClaimStore } from '../src/server/index.js';
import { stormLink } from '../test/harness/buyer-storm.js';
import { startProxyProcess } from '../test/harness/handler-cluster.js';
import { runLoad, type LoadRequest } from './load.js';

/** The stages, in order; each is the time from the mark before it. */
const stages = [
  ['toClaim', 'request event → claim (body read, parse, check, order_key HMAC, digest)'],
  ['claim', 'the claim (memory store)'],
  ['toService', 'claim → service call (guards, gateways, the order built and checked)'],
  ['service', 'the service call (undici, the sandbox, the answer back)'],
  ['toComplete', 'answer → reply stored (answer check, view, order_token, buyer answer check, JSON)'],
  ['complete', 'the reply stored (memory store)'],
  ['toEnd', 'reply stored → end() (headers, the write)'],
  ['flush', "end() → 'finish'"],
  ['total', "request event → 'finish'"],
] as const;
type Stage = (typeof stages)[number][0];
type Marks = Partial<Record<'start' | 'claim0' | 'claim1' | 'service0' | 'service1' | 'complete0' | 'complete1' | 'end' | 'finish', bigint>>;

if (process.argv[2] === '--serve') await serveInstance(process.argv[3] ?? '');
else await main();

/** The instance: the handler as the bench's instances make it, its store and service client wrapped with marks. */
async function serveInstance(baseUrl: string) {
  const { createCheckoutHandler, memoryClaimStore, toNodeListener } = await import('../src/server/index.js');
  const { nodeFetch } = await import('../src/server/node/fetch.js');
  const { timesOutItself } = await import('../src/client/timed-send.js');
  let current: Marks = {};
  const now = () => process.hrtime.bigint();
  const real = nodeFetch() ?? globalThis.fetch;
  const fetch = timesOutItself(async (input: string | URL | Request, init?: RequestInit) => {
    const marks = current;
    marks.service0 = now();
    const answer = await real(input, init);
    marks.service1 = now();
    return answer;
  });
  const memory = memoryClaimStore();
  const store: ClaimStore = Object.create(memory) as ClaimStore;
  /** A store call timed into the current create's marks, before and after. */
  const timed = <A extends unknown[], R>(call: (...args: A) => Promise<R>, before: keyof Marks, after: keyof Marks) =>
    async (...args: A): Promise<R> => {
      const marks = current;
      marks[before] = now();
      const result = await call(...args);
      marks[after] = now();
      return result;
    };
  store.claim = timed(memory.claim.bind(memory), 'claim0', 'claim1');
  store.complete = timed(memory.complete.bind(memory), 'complete0', 'complete1');
  const handler = createCheckoutHandler({
    limits: false,
    trustProxy: 1,
    merchantKey: 'mk_test_demo',
    baseUrl,
    resolveLink: (hash) => (hash === stormLink ? { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } : null),
    webhookSecret: 'whsec_test_demo',
    store,
    fetch,
    onError: (error) => console.error('[stages]', error),
  });
  const listener = toNodeListener(handler);
  let taken: Marks[] = [];
  const server = createServer((req, res) => {
    // One client: the marks of this create are the current ones until its answer is written.
    const marks: Marks = { start: now() };
    current = marks;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      marks.end = now();
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      marks.finish = now();
      taken.push(marks);
    });
    listener(req, res);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
  });
  let cpu = process.cpuUsage();
  process.on('message', (message: string) => {
    if (message === 'start') {
      taken = [];
      cpu = process.cpuUsage();
      return;
    }
    const used = process.cpuUsage(cpu);
    const complete = taken.filter((m) => m.start && m.claim0 && m.claim1 && m.service0 && m.service1 && m.complete0 && m.complete1 && m.end && m.finish) as Required<Marks>[];
    const span = (from: bigint, to: bigint) => Number(to - from) / 1000;
    const of: Record<Stage, (m: Required<Marks>) => number> = {
      toClaim: (m) => span(m.start, m.claim0),
      claim: (m) => span(m.claim0, m.claim1),
      toService: (m) => span(m.claim1, m.service0),
      service: (m) => span(m.service0, m.service1),
      toComplete: (m) => span(m.service1, m.complete0),
      complete: (m) => span(m.complete0, m.complete1),
      toEnd: (m) => span(m.complete1, m.end),
      flush: (m) => span(m.end, m.finish),
      total: (m) => span(m.start, m.finish),
    };
    const medians = Object.fromEntries(stages.map(([stage]) => [stage, median(complete.map(of[stage]))]));
    process.send?.({ creates: complete.length, all: taken.length, cpuUs: (used.user + used.system) / Math.max(1, taken.length), medians });
  });
}

async function main() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' } } });
  // @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
  const { startSandbox } = (await import('../test/harness/sandbox-process.mjs')) as { startSandbox: (options: { args: string[] }) => Promise<{ baseUrl: string; origin: string; stop: () => void }> };
  const sandbox = await startSandbox({ args: ['--no-order-key-dedupe'] });
  const floor = await startProxyProcess([sandbox.origin]);
  const child = fork(fileURLToPath(import.meta.url), ['--serve', sandbox.baseUrl], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise<Record<string, unknown>>((resolve) => child.once('message', (message) => resolve(message as Record<string, unknown>)));
  const { url } = (await next()) as { url: string };
  const create = (n: number): LoadRequest => ({
    method: 'POST',
    path: `/v1/checkout/links/${stormLink}/orders`,
    headers: { 'content-type': 'application/json', 'idempotency-key': `stages-${process.pid}-${Date.now()}-${n}` },
    body: JSON.stringify({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
  });
  const direct = (n: number): LoadRequest => ({
    method: 'POST',
    path: '/v1/orders',
    headers: { 'content-type': 'application/json', 'merchant-key': 'mk_test_demo' },
    body: JSON.stringify({ amount: 50_000, description: 'Camiseta talla M', currency: 'COP', order_key: `stages-direct-${process.pid}-${Date.now()}-${n}`, payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
  });
  const reset = () => fetch(`${sandbox.origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());
  const durationMs = Number(values.seconds) * 1000;
  try {
    // Warmed as a long-running server is (V8 optimizes the create path after some thousands of creates).
    await runLoad({ origin: url, request: create, concurrency: 4, durationMs, warmupMs: 500 });
    await reset();
    console.log(`one client, creates one after another, ${values.seconds} s a phase; medians in µs`);
    for (let round = 1; round <= Number(values.rounds); round++) {
      const busy = loadavg()[0] ?? 0;
      const alone = await runLoad({ origin: sandbox.origin, request: direct, concurrency: 1, durationMs, warmupMs: 200 });
      await reset();
      const proxied = await runLoad({ origin: floor.url, request: direct, concurrency: 1, durationMs, warmupMs: 200 });
      await reset();
      child.send('start');
      const through = await runLoad({ origin: url, request: create, concurrency: 1, durationMs, warmupMs: 0 });
      const report = next();
      child.send('report');
      const { creates, cpuUs, medians } = (await report) as { creates: number; cpuUs: number; medians: Record<Stage, number> };
      await reset();
      console.log(
        `round ${round} (load ${busy.toFixed(1)}): p50 sandbox alone ${(alone.p50Ms * 1000).toFixed(0)}, through the bare proxy ${(proxied.p50Ms * 1000).toFixed(0)}, through the handler ${(through.p50Ms * 1000).toFixed(0)} ` +
          `(${creates} creates, instance CPU ${cpuUs.toFixed(0)} per create)`,
      );
      for (const [stage, label] of stages) console.log(`  ${medians[stage].toFixed(0).padStart(6)}  ${label}`);
    }
  } finally {
    child.kill();
    await floor.close();
    sandbox.stop();
  }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}
