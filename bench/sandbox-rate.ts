/**
 * The sandbox's CPU per create against the rate it is asked at: the merchant's own `POST /v1/orders` from this
 * process, as fast as 32 clients go, then paced at fractions of that rate (an open loop, as a handler in front of it
 * asks), and the handler's own request (its headers and body as it sends them: `accept`, `shopper.country`, a `pc_`
 * key) at full speed, in interleaved rounds. What the handler bench's "sandbox behind the handler" figure is made of:
 * the request, or the rate. `node --import tsx bench/sandbox-rate.ts [--rounds 3] [--seconds 3]`.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox } from '../test/harness/sandbox-process.mjs';
import { childrenCpuMs } from './cpu.js';
import { runLoad, runPaced, type LoadRequest, type LoadResult } from './load.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '3' } } });
const sandbox = (await startSandbox({ args: ['--no-order-key-dedupe'] })) as { origin: string; stop: () => void };
const durationMs = Number(values.seconds) * 1000;

const merchant = (n: number): LoadRequest => ({
  method: 'POST',
  path: '/v1/orders',
  headers: { 'content-type': 'application/json', 'merchant-key': 'mk_test_demo' },
  body: JSON.stringify({ amount: 50_000, description: 'Camiseta talla M', currency: 'COP', order_key: `rate-${process.pid}-${Date.now()}-${n}`, payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
});
/** The handler's request, header for header and field for field as a capture shows it (undici adds `host`, `connection`, the length). */
const handlerLike = (n: number): LoadRequest => ({
  method: 'POST',
  path: '/v1/orders',
  headers: { accept: 'application/json', 'merchant-key': 'mk_test_demo', 'content-type': 'application/json' },
  body: JSON.stringify({
    amount: 50_000,
    description: 'Camiseta talla M',
    currency: 'COP',
    shopper: { id_number: '12345678', id_type: 1, country: 'CO' },
    payment_gateway: { id_payment_gateway: 2 },
    order_key: `pc_${(process.pid * 1e9 + n).toString(16).padStart(32, '0')}`,
  }),
});

const reset = () => fetch(`${sandbox.origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());
const measured = async (load: () => Promise<LoadResult>) => {
  const before = childrenCpuMs('sandbox') ?? 0;
  const result = await load();
  const cpu = ((childrenCpuMs('sandbox') ?? 0) - before) / Math.max(1, result.requests);
  await reset();
  return { result, cpu };
};

try {
  await runLoad({ origin: sandbox.origin, request: merchant, concurrency: 32, durationMs, warmupMs: 500 });
  await reset();
  for (let round = 1; round <= Number(values.rounds); round++) {
    const busy = loadavg()[0] ?? 0;
    const full = await measured(() => runLoad({ origin: sandbox.origin, request: merchant, concurrency: 32, durationMs, warmupMs: 200 }));
    const same = await measured(() => runLoad({ origin: sandbox.origin, request: handlerLike, concurrency: 32, durationMs, warmupMs: 200 }));
    const rows = [
      ['merchant request, 32 clients', full],
      ["the handler's request, 32 clients", same],
    ] as const;
    const paced: [string, { result: LoadResult; cpu: number }][] = [];
    for (const share of [0.75, 0.5]) {
      const perSecond = Math.max(100, Math.round(full.result.perSecond * share));
      paced.push([`merchant request paced at ${perSecond}/s`, await measured(() => runPaced({ origin: sandbox.origin, request: merchant, perSecond, durationMs }))]);
    }
    console.log(`round ${round} (load ${busy.toFixed(1)})`);
    for (const [name, { result, cpu }] of [...rows, ...paced]) {
      console.log(`  ${name.padEnd(40)} ${result.perSecond.toFixed(0).padStart(6)}/s  sandbox CPU ${cpu.toFixed(3)} ms per create  errors ${result.errorCount}`);
    }
  }
} finally {
  sandbox.stop();
}
