#!/usr/bin/env node
// The end-to-end suite: the built hosted page (dist/hosted) served by the sandbox, driven in the engine $ENGINE names
// (test/harness/engines.mjs; Chromium when unset). Builds first unless an earlier build is current
// (test/harness/build-once.mjs). In Chromium: every test/e2e/*.e2e.ts (Playwright). In Firefox and WebKit: the files in EVERY_ENGINE, which
// drive the page through support/driver.ts (Playwright cannot drive Debian's Firefox or WebKit; the other files use
// its Chromium-only routing, CDP offline mode and request events). One file at a time (node:test), spec output
// streamed, and as the LAST line `N passed, N failed`; exit 1 on any failure. `node test/e2e/run.mjs FILE…` runs those.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, newestMtime } from '../harness/build-once.mjs';
import { currentEngine, engineLabel } from '../harness/engines.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const engine = currentEngine();
/** The files that run in every engine; the rest are Chromium-only. */
const EVERY_ENGINE = ['flows.e2e.ts', 'live-dialect.e2e.ts', 'not-framable.e2e.ts', 'upgrade.e2e.ts'];
const here = path.join(root, 'test', 'e2e');

/** What the hosted page and dist/pay-checkout.js are built from; the sandbox and the server handler run from source. */
const browserSources = ['hosted', 'vite.hosted.config.ts', 'build', 'src/server/hosted-page/deploy.ts', 'src/element', 'src/flow', 'src/i18n', 'src/client', 'src/contract', 'src/define.ts', 'src/script-tag.ts', 'src/index.ts'];
const builtFiles = ['dist/hosted/index.html', 'dist/pay-checkout.js'];

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    child.once('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(127);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function finish(passed, failed, note = '') {
  if (note) console.log(note);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

// 1. A current build: the one an earlier step made when no input changed since (test/harness/build-once.mjs).
const { built, code: buildCode } = await ensureBuilt();
if (built && buildCode !== 0) {
  // The bundles come first in the build; a later step (types, manifest) failing leaves them fresh, and the
  // type-check step of `npm test` reports that failure on its own.
  const sourcesAt = Math.max(...browserSources.map(newestMtime));
  const rebuiltAt = Math.min(...builtFiles.map((file) => (existsSync(path.join(root, file)) ? statSync(path.join(root, file)).mtimeMs : 0)));
  if (rebuiltAt < sourcesAt) finish(0, 1, `npm run build failed (exit ${buildCode}) before writing dist/hosted and dist/pay-checkout.js.`);
  console.log(`npm run build exited ${buildCode} after writing the bundles; testing those bundles.`);
}

// 2. The suites, one file (one sandbox, one browser) at a time.
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(here)
      .filter((name) => name.endsWith('.e2e.ts') && (engine === 'chromium' || EVERY_ENGINE.includes(name)))
      .sort()
      .map((name) => path.join('test', 'e2e', name));
if (files.length === 0) finish(0, 1, 'no test/e2e/*.e2e.ts files');
console.log(`${engineLabel[engine]}: ${files.join(', ')}`);

const scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-e2e-'));
const tap = path.join(scratch, 'e2e.tap');
const code = await run(process.execPath, [
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=1',
  '--test-timeout=120000',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...files,
]);
const summary = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
rmSync(scratch, { recursive: true, force: true });
const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(summary)?.[1] ?? 0);
const passed = count('pass');
let failed = count('fail') + count('cancelled');
const todo = count('todo');
if (code !== 0 && failed === 0) failed = 1; // the runner itself failed: never report green
finish(passed, failed, todo > 0 ? `${todo} known gap(s) marked todo: see the "# TODO" lines above.` : '');
