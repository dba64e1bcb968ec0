/**
 * `npm run bench`: prints measured figures against the budgets of docs/site/contributing/architecture.md. A script, not a test:
 * each section lives in `bench/*.ts` and returns whether it met its budget.
 * Options: `--duration SECONDS` (per measured run, default 5), `--concurrency N` (default 32), `--only NAME`
 * (sandbox, handler, serve, platform, size, timing, first-paint, first-screen, vitals, package, confirm, abuse, lighthouse), `--runs N`
 * (Lighthouse runs per page, default 1: the median is reported).
 */
import { parseArgs } from 'node:util';
import { benchSandbox } from './sandbox.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '32' },
    only: { type: 'string' },
    loads: { type: 'string', default: '20' },
    runs: { type: 'string', default: '1' },
  },
});

const durationMs = Math.max(0.5, Number(values.duration) || 5) * 1000;
const loads = Math.max(1, Math.floor(Number(values.loads) || 20));
const concurrency = Math.max(1, Math.floor(Number(values.concurrency) || 32));

/** Add a section here: a name and a function that prints its figures and returns PASS (true) or OVER. */
const sections: [string, () => Promise<boolean>][] = [
  ['sandbox', () => benchSandbox({ durationMs, concurrency, warmupMs: 500 })],
  ['handler', async () => (await import('./handler.js')).benchHandler({ durationMs, concurrency, warmupMs: 500 })],
  // `pay-checkout serve` (links from a shop's app over HTTP) against the handler embedded in Node, same run.
  ['serve', async () => (await import('./serve.js')).benchServe({ durationMs, concurrency, warmupMs: 500 })],
  // `pay-checkout serve` in partner mode with 1,000 connected shops against single-shop serve, same run: only with
  // `--only platform` (about 2 min; it starts a redis-server).
  ['platform', async () => (await import('./platform.js')).benchPlatform({ durationMs, concurrency, warmupMs: 500 })],
  ['size', async () => (await import('./size.js')).benchSize()],
  ['timing', async () => (await import('./timing.js')).benchTiming({ loads })],
  // The hosted page static and server-rendered against a plain page with the amount in its HTML.
  ['first-paint', async () => (await import('./first-paint.js')).benchFirstPaint({ loads: Math.max(1, Math.round(loads / 2)) })],
  // The first interactive screen alone (hosted page and script-tag embed): bytes and time, without the waiting figures.
  ['first-screen', async () => (await import('./timing.js')).benchTiming({ loads, firstScreenOnly: true })],
  // Layout shift and tap → next visible change, hosted page and embed, mobile profile.
  ['vitals', async () => (await import('./vitals.js')).benchVitals({ loads: Math.max(1, Math.round(loads / 6)) })],
  ['package', async () => (await import('./package.js')).benchPackage()],
  ['confirm', async () => (await import('./confirm.js')).benchConfirm()],
  // Lighthouse's four scores and failed audits, hosted page and docs site: only with `--only lighthouse` (about 2 min).
  ['lighthouse', async () => (await import('./lighthouse.js')).benchLighthouse({ runs: Math.max(1, Math.floor(Number(values.runs) || 1)) })],
  // 10,000 waiting requests: only with `--only abuse` (it needs `ulimit -n` above 10,000).
  ['abuse', async () => (await import('./abuse.js')).benchAbuse({ durationMs })],
];

console.log(`# pay-checkout bench (Node ${process.version}, ${(await import('node:os')).availableParallelism()} cores)`);
const verdicts: [string, boolean][] = [];
for (const [name, run] of sections) {
  if (values.only ? values.only !== name : name === 'first-screen' || name === 'abuse' || name === 'lighthouse' || name === 'platform') continue;
  try {
    verdicts.push([name, await run()]);
  } catch (error) {
    console.log(`${name}: could not run: ${error instanceof Error ? error.message : String(error)}`);
    verdicts.push([name, false]);
  }
}
console.log(`\n${verdicts.map(([name, ok]) => `${name} ${ok ? 'PASS' : 'OVER'}`).join(' · ')}`);
