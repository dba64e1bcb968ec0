// Summarizes a `node --cpu-prof` profile: share of samples by file (module), then the top functions by self time
// with their two main callers. `node bench/cpu-profile.mjs FILE.cpuprofile [TOP] [WINDOWS]` (docs/site/servers/performance.md).
// WINDOWS, a comma list of START-END on the monotonic clock in µs (`process.hrtime.bigint() / 1000n`, as the platform
// bench prints them under PAY_BENCH_PROF_DIR), keeps only the samples taken within them.
import { readFileSync } from 'node:fs';

const [file, top = '30', windowList] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/cpu-profile.mjs FILE.cpuprofile [TOP] [START-END,…]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node])));
const windows = (windowList ?? '').split(',').filter(Boolean).map((w) => w.split('-').map(Number));
const within = (at) => windows.length === 0 || windows.some(([start, end]) => at >= start && at <= end);

const selfTime = new Map();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (within(at)) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfTime.values()].reduce((sum, t) => sum + t, 0);

const moduleOf = ({ url, functionName }) =>
  (url || functionName)
    .replace(/^file:\/\/.*?\/(src|scripts|node_modules)\//, '$1/')
    .replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*/, '$1')
    .replace(/^node:internal\/deps\/undici.*/, 'undici');
const nameOf = ({ functionName, url, lineNumber }) => `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
const add = (map, key, t) => map.set(key, (map.get(key) ?? 0) + t);
const percent = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;

const byModule = new Map();
const byFunction = new Map();
const callers = new Map();
for (const [id, t] of selfTime) {
  const node = nodes.get(id);
  add(byModule, moduleOf(node.callFrame), t);
  const name = nameOf(node.callFrame);
  add(byFunction, name, t);
  const parent = parents.get(id);
  if (parent) add(callers.get(name) ?? callers.set(name, new Map()).get(name), nameOf(parent.callFrame), t);
}

const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top));
console.log(`${(total / 1000).toFixed(0)} ms sampled\n\nby module`);
for (const [name, t] of sorted(byModule)) console.log(percent(t), name);
console.log('\nby function (self time), with its main callers');
for (const [name, t] of sorted(byFunction)) {
  const from = sorted(callers.get(name) ?? new Map()).slice(0, 2).map(([caller]) => caller);
  console.log(percent(t), name, from.length ? `  ← ${from.join(' | ')}` : '');
}
