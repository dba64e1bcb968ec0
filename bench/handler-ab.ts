/**
 * Handler CPU per create, A/B, back to back: one handler instance from each given checkout (a directory holding this
 * repository's test/harness/handler-instance.ts, e.g. an exported older commit) in front of one sandbox, loaded in turn.
 * `node --import tsx bench/handler-ab.ts [--rounds 3] [--seconds 5] [--prof DIR] [--redis] DIR_A DIR_B ...`; `DIR:built` runs that
 * checkout's built package (dist/, as `pay-checkout/server` ships) instead of its source under tsx.
 * `--prof DIR` runs the instances under `node --cpu-prof` (profiles written on exit; `bench/cpu-profile.mjs` reads them).
 * `--pairs N [--phase-ms 2000]`: on a loaded machine, N pairs of short phases instead of the rounds, the order within a
 * pair alternating, and each checkout's CPU per create divided by the first's within the pair (median and quartiles):
 * a load that drifts over the run meets both sides of a pair alike.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { idempotencyKeyHeader } from '../src/contract/index.js';
import { startRedis } from '../test/node/redis-harness.js';
import { stormLink } from '../test/harness/buyer-storm.js';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox } from '../test/harness/sandbox-process.mjs';
import { runLoad, type LoadRequest } from './load.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, pairs: { type: 'string' }, 'phase-ms': { type: 'string', default: '2000' }, seconds: { type: 'string', default: '5' }, prof: { type: 'string' }, redis: { type: 'boolean', default: false }, clients: { type: 'string', default: '32' } },
});

const create = (n: number): LoadRequest => ({
  method: 'POST',
  path: `/v1/checkout/links/${stormLink}/orders`,
  headers: { 'content-type': 'application/json', [idempotencyKeyHeader]: `ab-${process.pid}-${Date.now()}-${n}` },
  body: JSON.stringify({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }),
});

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

function startInstance(dir: string, settings: object): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const prof = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'test/harness/handler-instance.ts'], {
    cwd: dir,
    env: { ...process.env, PAY_HANDLER_INSTANCE: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${dir}: exited ${code}`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const url = /listening (\S+)/.exec(chunk)?.[1];
      if (url)
        resolve({
          url,
          pid: child.pid ?? 0,
          stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))),
        });
    });
  });
}

const sandbox = (await startSandbox({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void };
const redis = values.redis ? await startRedis() : undefined;
const reset = () => fetch(`${sandbox.origin}/sandbox/reset`, { method: 'POST' }).then((r) => r.body?.cancel());
const seconds = Number(values.seconds) * 1000;
const concurrency = Number(values.clients);
const instances: { dir: string; url: string; pid: number; stop: () => Promise<void> }[] = [];
// `DIR:built`: that checkout's built package (its dist/, `npm run build` first) instead of its source under tsx.
for (const given of positionals) {
  const built = given.endsWith(':built');
  const dir = built ? given.slice(0, -':built'.length) : given;
  instances.push({ dir: given, ...(await startInstance(dir, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', ...(redis ? { redisUrl: redis.url } : {}), ...(built ? { built: true } : {}) })) });
}
/** `pairs` pairs of short phases, alternating which checkout goes first; CPU per create relative to the first checkout. */
async function alternate(pairs: number, phaseMs: number) {
  const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? NaN;
  const figures = instances.map(() => ({ cpu: [] as number[], rate: [] as number[], ratio: [] as number[] }));
  const loads: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    loads.push(loadavg()[0] ?? 0);
    const order = pair % 2 ? [...instances.keys()].reverse() : [...instances.keys()];
    const cpu: number[] = [];
    for (const i of order) {
      const instance = instances[i]!;
      const before = cpuMs(instance.pid);
      const load = await runLoad({ origin: instance.url, request: create, concurrency, durationMs: phaseMs, warmupMs: 100 });
      cpu[i] = (cpuMs(instance.pid) - before) / Math.max(1, load.requests);
      figures[i]!.rate.push(load.perSecond);
    }
    for (const [i, figure] of figures.entries()) {
      figure.cpu.push(cpu[i]!);
      figure.ratio.push(cpu[i]! / cpu[0]!);
    }
    if (pair % 4 === 3) await reset();
  }
  console.log(`${pairs} pairs of ${phaseMs} ms phases, ${concurrency} client(s), load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
  for (const [i, { cpu, rate, ratio }] of figures.entries()) {
    console.log(
      `${instances[i]!.dir.padEnd(24)} handler CPU per create median ${quantile(cpu, 0.5).toFixed(3)} ms (best ${Math.min(...cpu).toFixed(3)}), ` +
        `${quantile(rate, 0.5).toFixed(0)}/s; × the first per pair: median ${quantile(ratio, 0.5).toFixed(2)}, quartiles ${quantile(ratio, 0.25).toFixed(2)}–${quantile(ratio, 0.75).toFixed(2)}`,
    );
  }
}

try {
  for (const instance of instances) {
    await runLoad({ origin: instance.url, request: create, concurrency, durationMs: seconds, warmupMs: 500 });
    await reset();
  }
  if (values.pairs) await alternate(Number(values.pairs), Number(values['phase-ms']));
  for (let round = 1; round <= (values.pairs ? 0 : Number(values.rounds)); round++) {
    for (const instance of instances) {
      const [busy = 0] = loadavg();
      const before = cpuMs(instance.pid);
      const load = await runLoad({ origin: instance.url, request: create, concurrency, durationMs: seconds, warmupMs: 300 });
      const cpu = (cpuMs(instance.pid) - before) / Math.max(1, load.requests);
      await reset();
      const beforeOne = cpuMs(instance.pid);
      const one = await runLoad({ origin: instance.url, request: create, concurrency: 1, durationMs: seconds / 2, warmupMs: 200 });
      const cpuOne = (cpuMs(instance.pid) - beforeOne) / Math.max(1, one.requests);
      await reset();
      console.log(
        `round ${round} ${instance.dir.padEnd(24)} load ${busy.toFixed(1)}: ${load.perSecond.toFixed(0)}/s, handler CPU ${cpu.toFixed(3)} ms per create, ` +
          `errors ${load.errorCount}; one client: p50 ${one.p50Ms.toFixed(2)} ms, CPU ${cpuOne.toFixed(3)} ms per create`,
      );
    }
  }
} finally {
  for (const instance of instances) await instance.stop();
  await redis?.stop();
  sandbox.stop();
}
