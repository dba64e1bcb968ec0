#!/usr/bin/env node
// `npm test`: the one entry point, every check the project has, in order, with real counts. Plain ESM, no dependencies.
// The end-to-end, size, packaging and docs suites are parts (test/harness/parts.mjs) that also run alone.
// Each step prints a header and streams its output; a summary table follows, and the very last line
// is always `N passed, N failed` over all steps. Exit code 1 if anything failed.
// `npm test -- node browser` runs only the named steps: typecheck, lint, lit, openapi, node, browser, e2e, size, pack, docs.
// The browser and e2e steps run once per engine (Chromium, Firefox, WebKit), one engine after another, each its own
// row; `npm test -- browser --engine=firefox` (or ENGINE=firefox) picks engines (test/harness/engines.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseEngines, engineLabel, isExecutable, missingFor } from './harness/engines.mjs';
import { ensureBuilt } from './harness/build-once.mjs';
import { BROWSER_BESIDE, E2E_BESIDE, E2E_PART, NODE_ALONE, NODE_CONCURRENCY, PARTS, STATIC_CONCURRENCY } from './harness/parts.mjs';
import { preflight, systemBinary } from './harness/system-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-test-'));


/** @type {{ name: string, passed: number, failed: number, skipped: number, note: string, ms: number }[]} */
const results = [];
let stepNumber = 0;

/** Prints a step's header through `say` (the terminal, or a beside step's kept output). */
function header(title, say = console.log) {
  stepNumber += 1;
  say(`\n━━━ ${stepNumber}. ${title} ━━━`);
}

/** Where a step prints: the terminal, or (`kept`, a step running beside the others) a list printed whole when it ends. */
const sayTo = (kept) => (kept ? (text) => kept.push(`${text}\n`) : console.log);

function record(name, started, { passed = 0, failed = 0, skipped = 0, note = '' }) {
  results.push({ name, passed, failed, skipped, note, ms: Date.now() - started });
}

/**
 * Runs a command from the repo root. `mode`: 'inherit' (live), 'capture' (quiet), 'tee' (live and kept); `stdout` is
 * kept apart. `whole`: keep all of the output, not its tail (a beside step's, printed later).
 */
function run(command, args, { mode = 'inherit', env = process.env, whole = false } = {}) {
  return new Promise((resolve) => {
    const piped = mode !== 'inherit';
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit'] });
    let output = '';
    let stdout = '';
    const keep = (stream) => (chunk) => {
      output += chunk;
      if (!whole) output = output.slice(-200_000);
      if (stream === process.stdout) stdout = (stdout + chunk).slice(-1_000_000);
      if (mode === 'tee') stream.write(chunk);
    };
    if (piped) {
      child.stdout.on('data', keep(process.stdout));
      child.stderr.on('data', keep(process.stderr));
    }
    child.once('error', (error) => resolve({ code: 127, output: `${output}\n${command}: ${error.message}`, stdout }));
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output, stdout }));
  });
}

/** Files under `dir` (relative to the root) whose names end with `suffix`, sorted; Node 20's --test does not expand globs. */
function findFiles(dir, suffix) {
  const found = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(child);
      else if (entry.isFile() && entry.name.endsWith(suffix)) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC by definition
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');
const COUNTS_LINE = /^\s*(\d+) passed, (\d+) failed\s*$/;

// ── 1. System packages, then Chromium's path ──────────────────────────────────────────────────────
/** The Chromium every later child (web-test-runner, e2e, docs, pack) uses, through CHROME_PATH. */
function findChromium() {
  header('Chromium');
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && !isExecutable(fromEnv)) console.log(`CHROME_PATH=${fromEnv} is not an executable file; looking elsewhere.`);
  const chrome = systemBinary('chromium');
  if (!isExecutable(chrome)) {
    console.log('No Chromium: `apt-get install chromium`, or set CHROME_PATH. The browser suites count as failed until then.');
    return null;
  }
  process.env.CHROME_PATH = chrome;
  console.log(`CHROME_PATH=${chrome}`);
  return chrome;
}

// ── 2. Static checks: one test each ───────────────────────────────────────────────────────────────
async function check(title, command, args, { skipWhen } = {}, kept) {
  const say = sayTo(kept);
  header(title, say);
  const started = Date.now();
  if (skipWhen) {
    say(`skipped: ${skipWhen}`);
    return record(title, started, { note: 'skipped' });
  }
  const { code, output } = await run(command, args, { mode: 'capture' });
  if (code === 0) {
    say('ok');
    return record(title, started, { passed: 1 });
  }
  say(output.endsWith('\n') ? output.slice(0, -1) : output);
  say(`failed (exit ${code})`);
  record(title, started, { failed: 1 });
}

/**
 * Redocly's `recommended` rules (redocly.yaml) on the document the build writes, as generated clients and API portals
 * read it: 0 errors and 0 warnings, or the step fails and lists each problem. Redocly exits 0 on warnings, so its JSON
 * report's totals decide.
 */
const OPENAPI_TITLE = 'OpenAPI lint (Redocly recommended)';
async function openApiLint(kept) {
  const title = OPENAPI_TITLE;
  const say = sayTo(kept);
  header(title, say);
  const started = Date.now();
  const document = path.join(scratch, 'openapi.json');
  const built = await run(process.execPath, ['--import', 'tsx', 'build/openapi.ts', document], { mode: 'capture' });
  if (built.code !== 0) {
    say(built.output);
    return record(title, started, { failed: 1, note: 'build/openapi.ts failed' });
  }
  const env = { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' };
  const { code, output, stdout } = await run(bin('redocly'), ['lint', document, '--format=json'], { mode: 'capture', env });
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    say(output.endsWith('\n') ? output.slice(0, -1) : output);
    return record(title, started, { failed: 1, note: `redocly exited ${code} without a report` });
  }
  const { errors = 0, warnings = 0 } = report.totals ?? {};
  if (code === 0 && errors === 0 && warnings === 0) {
    say('ok: 0 errors, 0 warnings');
    return record(title, started, { passed: 1 });
  }
  for (const problem of report.problems ?? []) {
    say(`${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location?.[0]?.pointer ?? ''})`);
  }
  say(`failed: ${errors} error(s), ${warnings} warning(s)`);
  record(title, started, { failed: 1 });
}

// ── 3. Node tests ─────────────────────────────────────────────────────────────────────────────────
const NODE_TITLE = 'Node tests (node --test)';
async function nodeTests() {
  const title = NODE_TITLE;
  header(title);
  const started = Date.now();
  const files = findFiles('test/node', '.test.ts');
  if (files.length === 0) {
    console.log('skipped: no test/node/**/*.test.ts files');
    return record(title, started, { note: 'skipped' });
  }
  // Two batches: every file but NODE_ALONE side by side (NODE_CONCURRENCY at a time), then NODE_ALONE one at a time
  // with the machine to themselves. Spec to the terminal, TAP to a file per batch for the counts (its `# pass N`
  // summary is stable across Node versions).
  const alone = files.filter((file) => NODE_ALONE.includes(file.split(path.sep).join('/')));
  const batches = [
    { files: files.filter((file) => !alone.includes(file)), concurrency: NODE_CONCURRENCY },
    { files: alone, concurrency: 1 },
  ].filter((batch) => batch.files.length > 0);
  let passed = 0;
  let skipped = 0;
  let failed = 0;
  for (const [index, batch] of batches.entries()) {
    console.log(`${batch.files.length} file(s), ${batch.concurrency} at a time`);
    const batchStarted = Date.now();
    const tap = path.join(scratch, `node-${index}.tap`);
    const { code } = await run(process.execPath, [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${batch.concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...batch.files,
    ]);
    const summary = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
    const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(summary)?.[1] ?? 0);
    const batchFailed = count('fail') + count('cancelled');
    passed += count('pass');
    skipped += count('skipped') + count('todo');
    // The runner itself failed (bad flag, crash): never report green.
    failed += code !== 0 && batchFailed === 0 ? 1 : batchFailed;
    console.log(`${batch.files.length} file(s), ${batch.concurrency} at a time: ${((Date.now() - batchStarted) / 1000).toFixed(1)} s`);
  }
  record(title, started, { passed, failed, skipped });
}

// ── 4. Browser tests, then end-to-end, in each engine ────────────────────────────────────────────
/** Why `engine` cannot run here (no browser), or null. Chromium's own search is step 1. */
function engineMissing(engine, chrome) {
  if (engine === 'chromium') return chrome ? null : 'no Chromium (see step 1)';
  const install = missingFor(engine);
  return install ? `${engineLabel[engine]} is not installed: ${install}` : null;
}

const browserTitle = (engine) => `Browser tests: ${engineLabel[engine]} (web-test-runner)`;
const e2eTitle = (engine) => `${E2E_PART.name}: ${engineLabel[engine]}`;

async function browserTests(engine, chrome, kept) {
  const title = browserTitle(engine);
  const say = sayTo(kept);
  header(title, say);
  const started = Date.now();
  if (findFiles('test/browser', '.test.ts').length === 0) {
    say('skipped: no test/browser/**/*.test.ts files');
    return record(title, started, { note: 'skipped' });
  }
  const missing = engineMissing(engine, chrome);
  if (missing) {
    say(`not run: ${missing}`);
    return record(title, started, { failed: 1, note: missing });
  }
  const countFile = path.join(scratch, `wtr-${engine}.json`);
  const env = { ...process.env, ENGINE: engine, WTR_COUNT_FILE: countFile };
  const { code, output } = await run(bin('wtr'), [], kept ? { mode: 'capture', env, whole: true } : { env });
  kept?.push(output.endsWith('\n') ? output : `${output}\n`);
  let counts = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(countFile)) counts = JSON.parse(readFileSync(countFile, 'utf8'));
  if (code !== 0 && counts.failed === 0) counts.failed = 1; // e.g. the runner or the sandbox failed to start
  record(title, started, counts);
}

async function e2eTests(engine, chrome, kept) {
  const title = e2eTitle(engine);
  const missing = engineMissing(engine, chrome);
  if (missing) {
    header(title, sayTo(kept));
    sayTo(kept)(`not run: ${missing}`);
    return record(title, Date.now(), { failed: 1, note: missing });
  }
  await runPart({ name: title, file: E2E_PART.file, env: { ...process.env, ENGINE: engine } }, kept);
}

// ── 5. Parts that run alone too ───────────────────────────────────────────────────────────────────
async function runPart({ name, file, env = process.env }, kept) {
  const say = sayTo(kept);
  header(name, say);
  const started = Date.now();
  if (!existsSync(path.join(root, file))) {
    // A part the entry names is part of the suite: its file missing is a failure, never a skip.
    say(`failed: ${file} is missing`);
    return record(name, started, { failed: 1, note: `${file} is missing` });
  }
  const { code, output } = await run(process.execPath, [file], { mode: kept ? 'capture' : 'tee', env, whole: Boolean(kept) });
  kept?.push(output.endsWith('\n') ? output : `${output}\n`);
  const lastLine = stripAnsi(output).trimEnd().split('\n').at(-1) ?? '';
  const match = COUNTS_LINE.exec(lastLine);
  if (!match) return record(name, started, code === 0 ? { passed: 1 } : { failed: 1 });
  const passed = Number(match[1]);
  let failed = Number(match[2]);
  if (code !== 0 && failed === 0) failed = 1;
  record(name, started, { passed, failed });
}

// ── Summary ───────────────────────────────────────────────────────────────────────────────────────
function summary(wallMs) {
  header('Summary');
  // In the steps' own order, whichever lane ran them and whenever they ended.
  const order = (name) => stepTitles.indexOf(name);
  results.sort((a, b) => order(a.name) - order(b.name));
  const rows = results.map((r) => [
    r.name,
    r.note === 'skipped' ? 'skipped' : r.failed > 0 ? 'FAILED' : 'ok',
    String(r.passed),
    String(r.failed),
    String(r.skipped),
    `${(r.ms / 1000).toFixed(1)} s`,
  ]);
  const head = ['step', 'result', 'passed', 'failed', 'skipped', 'time'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  console.log(`\nwall time ${(wallMs / 1000).toFixed(1)} s, the two lanes together (the times above overlap)`);
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed;
}

let chosen;
try {
  chosen = chooseEngines(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(2);
}
const { engines, rest: only } = chosen;

// `beside: true`: the step runs beside the others rather than after them (see "Two lanes" below).
const STEPS = [
  // `static: true`: the static checks, each one process on one core, run STATIC_CONCURRENCY at a time.
  { key: 'typecheck', static: true, run: (kept) => check('Type-check (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], {}, kept) },
  { key: 'lint', static: true, run: (kept) => check('ESLint', bin('eslint'), ['.'], {}, kept) },
  {
    key: 'lit',
    static: true,
    run: (kept) =>
      check('lit-analyzer', bin('lit-analyzer'), ['src/element', '--strict'], {
        skipWhen: findFiles('src/element', '.ts').length === 0 ? 'no src/element/**/*.ts files' : undefined,
      }, kept),
  },
  { key: 'openapi', static: true, run: openApiLint },
  { key: 'node', run: nodeTests },
  ...engines.map((engine) => ({ key: 'browser', beside: BROWSER_BESIDE.includes(engine), run: (kept) => browserTests(engine, chrome, kept) })),
  ...engines.map((engine) => ({ key: E2E_PART.key, beside: E2E_BESIDE.includes(engine), run: (kept) => e2eTests(engine, chrome, kept) })),
  ...PARTS.map((part) => ({ key: part.key, beside: part.beside === true, run: (kept) => runPart(part, kept) })),
];

/** Every row's title, in the steps' order: the summary's order. */
const stepTitles = [
  'Type-check (tsc --noEmit)',
  'ESLint',
  'lit-analyzer',
  OPENAPI_TITLE,
  NODE_TITLE,
  ...engines.map(browserTitle),
  ...engines.map(e2eTitle),
  ...PARTS.map((part) => part.name),
];

const unknown = only.filter((key) => !STEPS.some((step) => step.key === key));
if (unknown.length > 0) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${[...new Set(STEPS.map((step) => step.key))].join(', ')}.`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(2);
}
const selected = STEPS.filter((step) => only.length === 0 || only.includes(step.key));
header('System packages (test/harness/system-packages.mjs)');
if (!(await preflight([...new Set(selected.map((step) => step.key))], engines))) {
  // Nothing runs without them: one clear command beats hundreds of tests failing one by one.
  rmSync(scratch, { recursive: true, force: true });
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
console.log('every system package the chosen tests need is here');
const needsBrowser = selected.some((step) => (['browser', 'e2e'].includes(step.key) && engines.includes('chromium')) || ['docs', 'pack'].includes(step.key));
const chrome = needsBrowser ? findChromium() : null;

// ── Two lanes ─────────────────────────────────────────────────────────────────────────────────────
// The steps marked `beside` (test/harness/parts.mjs) run one after another in a second lane, beside the main lane's
// browser and end-to-end steps: they start once the Node step is over (its NODE_ALONE files have the machine to
// themselves) and spend much of their time waiting on npm, the disk and the browsers. Their output is kept and
// printed whole, under their own headers, when the main lane is done; the summary lists every step in its usual order.
const suiteStarted = Date.now();
const main = selected.filter((step) => !step.beside);
const beside = selected.filter((step) => step.beside);
let besideLane = null;
const kepts = [];
const startBeside = async () => {
  if (besideLane || beside.length === 0) return;
  // One build for both lanes before they split (test/harness/build-once.mjs), so no two builds ever write dist/ at once.
  if (selected.some((step) => step.key === E2E_PART.key || step.key === 'pack')) {
    header('Build (npm run build, for the end-to-end and packaging steps)');
    const started = Date.now();
    const { code } = await ensureBuilt({ stdio: 'ignore' });
    console.log(code === 0 ? `ok (${((Date.now() - started) / 1000).toFixed(1)} s)` : `npm run build exited ${code}; the steps that need dist/ report it`);
  }
  console.log(`\n${beside.length} step(s) start beside the others, printed when those are done: ${beside.map((step) => step.key).join(', ')}`);
  besideLane = (async () => {
    for (const step of beside) {
      const kept = [];
      kepts.push(kept);
      await step.run(kept);
    }
  })();
};
/**
 * The static checks side by side, STATIC_CONCURRENCY at a time (tsc, ESLint, lit-analyzer and Redocly each keep one
 * core busy), their output printed in their usual order once all are done.
 */
async function staticChecks(steps) {
  const kepts = steps.map(() => []);
  let next = 0;
  const worker = async () => {
    while (next < steps.length) {
      const index = next++;
      await steps[index].run(kepts[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATIC_CONCURRENCY, steps.length) }, worker));
  for (const kept of kepts) process.stdout.write(kept.join(''));
}
if (!main.some((step) => step.key === 'node')) await startBeside();
await staticChecks(main.filter((step) => step.static));
for (const step of main.filter((step) => !step.static)) {
  await step.run();
  if (step.key === 'node') await startBeside();
}
await startBeside();
await besideLane;
for (const kept of kepts) process.stdout.write(kept.join(''));
rmSync(scratch, { recursive: true, force: true });
process.exitCode = summary(Date.now() - suiteStarted) > 0 ? 1 : 0;
