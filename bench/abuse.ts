/**
 * Bench section "abuse": 10,000 waiting status requests on one handler instance (100 orders × 100, from
 * 100 client addresses: every default waiter cap reached, none passed), opened by another process. Prints the
 * handler's memory per waiter, the service reads per order per poll interval, and other buyers' p50/p99 meanwhile.
 * Needs `ulimit -n` above 10,000 (each waiter holds a socket in the handler).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createCheckoutHandler, toNodeListener } from '../src/server/index.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../test/harness/sandbox-process.mjs';
import { runLoad, type LoadRequest } from './load.js';

export interface AbuseBenchOptions {
  durationMs: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const ordersCount = 100;
const perOrder = 100;
const pollMs = 2_000;
const p99BudgetMs = 200;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settledMemory = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage();
};

export async function benchAbuse(options: AbuseBenchOptions): Promise<boolean> {
  console.log(`\n## abuse: ${(ordersCount * perOrder).toLocaleString('en')} waiting status requests on one handler instance`);
  const [busy = 0] = loadavg();
  if (busy > availableParallelism() / 2) console.log(`note: load average ${busy.toFixed(1)} on ${availableParallelism()} cores: other processes are busy, latencies will be high`);
  const sandbox = (await startSandboxProcess()) as { baseUrl: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  let orderReads = new Map<string, number>();
  const counting: typeof fetch = (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if ((init?.method ?? 'GET') === 'GET' && /\/orders\/\d+$/.test(path)) orderReads.set(path, (orderReads.get(path) ?? 0) + 1);
    return fetch(input, init);
  };
  const handler = createCheckoutHandler({
    merchantKey: 'mk_test_demo',
    baseUrl: sandbox.baseUrl,
    resolveLink: (hash) => (hash === 'camiseta-m' ? { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } : null),
    fetch: counting,
    statusPollMs: pollMs,
    // The bench's own orders come from one address; the waiting requests meet the defaults.
    limits: { ordersPerAddress: { max: 1_000, windowMs: 600_000 } },
  });
  const listener = toNodeListener(handler);
  // Requests the handler holds now: the bench measures once all the waiters are in.
  let held = 0;
  const server = createServer((req, res) => {
    held++;
    res.once('close', () => held--);
    listener(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let waiters: ReturnType<typeof spawn> | undefined;
  try {
    const create = async (n: number) => {
      const response = await fetch(`${origin}/v1/checkout/links/camiseta-m/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': `abuse-${process.pid}-${n}` },
        body: JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: String(10_000_000 + n), id_type: 1, phone_number: `3${String(500_000_000 + n)}` } }),
      });
      const body = (await response.json()) as { data: { id_order: number; order_token: string } };
      if (response.status !== 201) throw new Error(`create ${n}: ${response.status} ${JSON.stringify(body)}`);
      return { id: body.data.id_order, token: body.data.order_token };
    };
    const orders = [];
    for (let n = 0; n < ordersCount; n++) orders.push(await create(n));
    const other = await create(ordersCount);

    const before = await settledMemory();
    waiters = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./abuse-waiters.ts', import.meta.url))], {
      cwd: root,
      env: { ...process.env, PAY_BENCH_WAITERS: JSON.stringify({ origin, orders, perOrder, addresses: 100 }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`waiters not connected in 20 s: ${out}`)), 20_000);
      waiters?.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (process.env.PAY_BENCH_VERBOSE) process.stdout.write(chunk);
        if (out.includes('connected')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const deadline = Date.now() + 30_000;
    while (held < ordersCount * perOrder && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await settledMemory();
    const holding = held;
    orderReads = new Map();
    const { durationMs } = options;
    const load = await runLoad({
      origin,
      concurrency: 8,
      durationMs,
      warmupMs: 200,
      request: (n): LoadRequest =>
        n % 2
          ? { method: 'GET', path: '/v1/checkout/links/camiseta-m', headers: {} }
          : { method: 'GET', path: `/v1/checkout/orders/${other.id}`, headers: { 'X-Order-Token': other.token } },
    });
    const waited = [...orderReads].filter(([path]) => path !== `/v1/orders/${other.id}`).reduce((sum, [, count]) => sum + count, 0);
    // A watch reads at its start and then once per interval: over the window, at most ceil(window / interval) each.
    const allowed = Math.ceil((durationMs + 200) / pollMs);
    const readsPerOrder = waited / ordersCount;
    const waiterCount = holding;
    const heapPer = (during.heapUsed - before.heapUsed) / waiterCount;
    const rssPer = (during.rss - before.rss) / waiterCount;
    console.log(`requests waiting in the handler                      ${holding.toLocaleString('en')}`);
    console.log(`memory per waiter (handler process)                  heap ${Math.round(heapPer).toLocaleString('en')} B · rss ${Math.round(rssPer).toLocaleString('en')} B (sockets included)`);
    console.log(`service reads per order over the window                ${readsPerOrder.toFixed(2)} in ${Math.round(durationMs + 200)} ms (budget ≤ ${allowed}: one per ${pollMs / 1000} s interval)`);
    console.log(`other buyers meanwhile (8 clients)                   p50 ${load.p50Ms.toFixed(1)} ms · p99 ${load.p99Ms.toFixed(1)} ms (budget < ${p99BudgetMs}) · ${load.requests.toLocaleString('en')} requests · ${load.errorCount} errors`);
    return load.p99Ms < p99BudgetMs && readsPerOrder <= allowed && load.errorCount === 0;
  } finally {
    waiters?.kill('SIGTERM');
    server.closeAllConnections();
    server.close();
    sandbox.stop();
  }
}
