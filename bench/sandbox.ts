/**
 * Bench section "sandbox": order creations per second on loopback, against the budget (docs/site/contributing/architecture.md)
 * of 1,000 or more on 2 cores. The sandbox runs as its own process (as `npm run sandbox` does), so
 * it and the load generator each get a core.
 */
import { availableParallelism, loadavg } from 'node:os';
import { idempotencyKeyHeader, merchantKeyHeader } from '../src/contract/index.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../test/harness/sandbox-process.mjs';
import { runLoad, type LoadRequest, type LoadResult } from './load.js';

export const ordersPerSecondBudget = 1_000;

export interface SandboxBenchOptions {
  durationMs: number;
  concurrency: number;
  warmupMs: number;
}

interface RunningSandbox {
  baseUrl: string;
  origin: string;
  stop: () => void;
}

const json = { 'content-type': 'application/json' };

/** The buyer API: the dynamic demo link, the digital wallet, a fresh Idempotency-Key per order. */
const buyerOrder = (basePath: string) => (n: number): LoadRequest => ({
  method: 'POST',
  path: `${basePath}/checkout/links/demo-dynamic/orders`,
  headers: { ...json, [idempotencyKeyHeader]: `bench-buyer-${process.pid}-${n}` },
  body: JSON.stringify({ amount: 25_000, payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
});

/** The merchant API: `POST /orders` with the demo store's key and a distinct `order_key`. */
const merchantOrder = (basePath: string) => (n: number): LoadRequest => ({
  method: 'POST',
  path: `${basePath}/orders`,
  headers: { ...json, [merchantKeyHeader]: 'mk_test_demo' },
  body: JSON.stringify({
    amount: 50_000,
    description: 'Bench order',
    currency: 'COP',
    order_key: `bench-merchant-${process.pid}-${n}`,
    payment_gateway: { id_payment_gateway: 2 },
    shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com', phone_number: '3001234567', country: 'CO', id_number: '12345678', id_type: 1 },
  }),
});

export async function benchSandbox(options: SandboxBenchOptions): Promise<boolean> {
  console.log('\n## sandbox: order creations on loopback');
  // The figure needs both cores; other work on the machine lowers it, so say when that is the case.
  const [load = 0] = loadavg();
  if (load > availableParallelism() / 2) console.log(`note: load average ${load.toFixed(1)} on ${availableParallelism()} cores: other processes are busy, figures will be low`);
  const sandbox = (await startSandboxProcess()) as RunningSandbox | null;
  if (!sandbox) {
    console.log('skipped: src/cli.ts does not exist yet');
    return true;
  }
  try {
    const basePath = new URL(sandbox.baseUrl).pathname.replace(/\/$/, '');
    console.log(`sandbox ${sandbox.baseUrl}; ${options.concurrency} concurrent clients, ${options.durationMs / 1000} s per endpoint after ${options.warmupMs} ms warm-up`);
    const runs: [string, LoadResult][] = [];
    for (const [name, request] of [
      ['buyer    POST /v1/checkout/links/demo-dynamic/orders', buyerOrder(basePath)],
      ['merchant POST /v1/orders', merchantOrder(basePath)],
    ] as const) {
      const result = await runLoad({ origin: sandbox.origin, request, ...options });
      runs.push([name, result]);
      print(name, result);
    }
    const ok = runs.every(([, r]) => r.perSecond >= ordersPerSecondBudget && r.errorCount === 0);
    const slowest = Math.min(...runs.map(([, r]) => r.perSecond));
    console.log(`budget ≥ ${ordersPerSecondBudget.toLocaleString('en')} orders/s, no errors: ${ok ? 'PASS' : 'OVER'} (slowest ${Math.round(slowest).toLocaleString('en')} orders/s)`);
    return ok;
  } finally {
    sandbox.stop();
  }
}

export function print(name: string, r: LoadResult) {
  const figures = [
    `${Math.round(r.perSecond).toLocaleString('en')} orders/s`,
    `p50 ${r.p50Ms.toFixed(1)} ms`,
    `p99 ${r.p99Ms.toFixed(1)} ms`,
    `${r.requests.toLocaleString('en')} requests`,
    `${r.errorCount} errors`,
  ];
  console.log(`${name.padEnd(52)} ${figures.join(' · ')}`);
  for (const [status, count] of Object.entries(r.errors)) console.log(`    ${count} × ${status}: ${r.errorSamples[status]}`);
}
