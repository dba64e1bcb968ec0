/**
 * Handler CPU per create, A/B, back to back: one handler instance from each given checkout (a directory holding this
 * repository's test/harness/handler-instance.ts, e.g. an exported older commit) in front of one sandbox, loaded in turn.
 * `node --import tsx bench/handler-ab.ts [--rounds 3] [--seconds 5] [--prof DIR] [--redis] DIR_A DIR_B ...`
 * `--prof DIR` runs the instances under `node --cpu-prof` (profiles written on exit; `bench/cpu-profile.mjs` reads them).
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
  options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' }, prof: { type: 'string' }, redis: { type: 'boolean', default: false }, clients: { type: 'string', default: '32' } },
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
const instances = [];
for (const dir of positionals) instances.push({ dir, ...(await startInstance(dir, { baseUrl: sandbox.baseUrl, webhookSecret: 'whsec_test_demo', ...(redis ? { redisUrl: redis.url } : {}) })) });
try {
  for (const instance of instances) {
    await runLoad({ origin: instance.url, request: create, concurrency, durationMs: seconds, warmupMs: 500 });
    await reset();
  }
  for (let round = 1; round <= Number(values.rounds); round++) {
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
