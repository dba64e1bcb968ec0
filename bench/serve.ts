/**
 * Bench section "serve": order creations per second through `pay-checkout serve` (its links from a shop's app over
 * HTTP, cached) against the handler embedded in a Node app (`serve()` over createCheckoutHandler(), its links from a
 * function), in the same run, loaded in turn round after round against one sandbox process. Budget: at least 0.8×.
 * Both keep the default abuse limits and trust one proxy hop, so each create comes as a shop's buyers' would: from an
 * address and a document of its own, on one of 200 links (a limit counts per link too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { idempotencyKeyHeader } from '../src/contract/index.js';
import { startCluster } from '../test/harness/handler-cluster.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../test/harness/sandbox-process.mjs';
import { childrenCpuMs } from './cpu.js';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';
import { print } from './sandbox.js';

export interface ServeBenchOptions {
  durationMs: number;
  concurrency: number;
  warmupMs: number;
  /** Rounds of the two phases loaded in turn; default 3. */
  rounds?: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const linkCount = 200;
const record = JSON.stringify({ amount: 50_000, description: 'Camiseta talla M', store_name: 'Tienda Demo', currency: 'COP' });
/** Each create's own number across every phase of the run: its key, address and document are never reused. */
let sequence = 0;

/** A buyer's create number `n` on link `hash`: its own key, address (one proxy hop trusted) and document. */
export const createOn = (hash: string, n: number): LoadRequest => ({
  method: 'POST',
  path: `/v1/checkout/links/${hash}/orders`,
  headers: {
    'content-type': 'application/json',
    [idempotencyKeyHeader]: `serve-bench-${process.pid}-${n}`,
    'x-forwarded-for': `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`,
  },
  body: JSON.stringify({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: String(10_000_000 + n), id_type: 1 } }),
});

const create = (): LoadRequest => {
  const n = sequence++;
  return createOn(`bench-link-${n % linkCount}`, n);
};

/** The shop's app: a record for any hash, as a PHP or Java shop's links endpoint would answer; counts what it is asked. */
export async function startLinksApp(): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const server = http.createServer((_request, response) => {
    asked += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(record);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/links/{hash}`,
    asked: () => asked,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** `pay-checkout serve` from this checkout's source (as the embedded handler runs from it), once it says it listens. */
export async function startServeProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  // PAY_BENCH_PROF_DIR=DIR runs each instance under `node --cpu-prof` (a profile per instance, written as it exits on
  // SIGTERM; `node bench/cpu-profile.mjs DIR/FILE` reads it).
  const prof = process.env.PAY_BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PAY_BENCH_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...prof, ...nodeArgs, '--import', 'tsx', 'src/cli.ts', 'serve'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pay-checkout serve did not start within 60 s: ${out}`)), 60_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /"name":"listening"[^\n]*"url":"(http:\/\/[^"]+)"/.exec(out);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pay-checkout serve exited with ${code}: ${out}`));
    });
  });
  return { url, child };
}

/** CPU per create of a child process whose command line holds `match`; null off Linux. */
async function measured(match: string, origin: string, options: ServeBenchOptions): Promise<LoadResult & { cpu: number | null; busy: number; created: number }> {
  const [busy = 0] = loadavg();
  const before = childrenCpuMs(match);
  const load = await runLoad({ origin, request: create, concurrency: options.concurrency, durationMs: options.durationMs, warmupMs: options.warmupMs });
  const after = childrenCpuMs(match);
  const cpu = before === null || after === null ? null : (after - before) / Math.max(1, load.requests);
  // Only creates answered 2xx count: a refusal (a limit, a 503) is quicker than a create and would flatter either side.
  const created = load.perSecond * (1 - load.errorCount / Math.max(1, load.requests));
  return { ...load, cpu, busy, created };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const pad = ''.padEnd(52);

export async function benchServe(options: ServeBenchOptions): Promise<boolean> {
  console.log('\n## serve: order creations through `pay-checkout serve` against the handler embedded in Node, same sandbox (--no-order-key-dedupe)');
  const rounds = Math.max(1, options.rounds ?? 3);
  const sandbox = (await startSandboxProcess({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  const reset = () => fetch(`${sandbox.origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());
  const app = await startLinksApp();
  let served: ChildProcess | undefined;
  let embedded: Awaited<ReturnType<typeof startCluster>> | undefined;
  try {
    const started = await startServeProcess({
      PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
      PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
      PAY_CHECKOUT_LINKS_URL: app.url,
      PAY_CHECKOUT_APP_SECRET: 'bench-app-secret-0123456789',
      PAY_CHECKOUT_WEBHOOK_SECRET: 'whsec_test_demo',
      PAY_CHECKOUT_TRUST_PROXY: '1',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    served = started.child;
    // The same handler in a Node app: serve() with the default limits, one proxy hop trusted, links from a function.
    embedded = await startCluster(1, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', graceful: true, limits: true, anyLink: true });
    const phases = [
      { name: 'handler embedded in Node (serve())', match: 'handler-instance', origin: embedded.instances[0] ?? embedded.url },
      { name: 'pay-checkout serve, links from the app', match: 'cli.ts\u0000serve', origin: started.url },
    ];
    // Warmed as long-running servers are (V8 optimizes the create path after some thousands), every link asked once.
    for (const phase of phases) {
      await runLoad({ origin: phase.origin, request: create, concurrency: options.concurrency, durationMs: options.durationMs / 2, warmupMs: 0 });
      await reset();
    }
    const askedBefore = app.asked();
    console.log(
      `${rounds} rounds of ${(options.durationMs / 1000).toFixed(0)} s per phase, ${options.concurrency} clients, ${linkCount} links; load average (1 min) on ${availableParallelism()} cores at each phase's start`,
    );
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Each round starts with the other phase, so neither always meets the machine after the other.
      const order = round % 2 === 1 ? phases : [...phases].reverse();
      const results = new Map<string, Awaited<ReturnType<typeof measured>>>();
      for (const phase of order) {
        const result = await measured(phase.match, phase.origin, options);
        print(`round ${round}: ${phase.name}`, result);
        results.set(phase.name, result);
        await reset();
      }
      const [inNode, throughServe] = phases.map((phase) => results.get(phase.name)!);
      const ratio = throughServe!.created / inNode!.created;
      ratios.push(ratio);
      const cpu = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)} ms`);
      console.log(
        `${pad} load ${inNode!.busy.toFixed(1)} / ${throughServe!.busy.toFixed(1)}; serve ${ratio.toFixed(2)}× the embedded handler's creates/s; ` +
          `CPU per create: embedded ${cpu(inNode!.cpu)}, serve ${cpu(throughServe!.cpu)}`,
      );
    }
    const asked = app.asked() - askedBefore;
    const ratio = median(ratios);
    console.log(`serve, median of ${rounds} rounds: ${ratio.toFixed(2)}× the embedded handler's creates/s (budget ≥ 0.8×); the shop's app was asked ${asked} times while measured (records cached)`);
    return ratio >= 0.8;
  } finally {
    if (served && served.exitCode === null && served.signalCode === null) {
      const exited = once(served, 'exit');
      served.kill('SIGTERM');
      await exited;
    }
    await embedded?.close();
    await app.close();
    sandbox.stop();
  }
}
