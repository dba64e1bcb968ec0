// One `npm run build` for the parts of `npm test` that need dist/ (the end-to-end suite, then the packaging check):
// the first that runs builds, the later ones reuse that build while no input of it has changed since. A build that
// completed leaves a stamp (under node_modules/.cache, never in dist/, which is packed); dist/ counts as current when
// the stamp is newer than every input and the files the parts load are there. A part run alone builds when needed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm run build` reads: its configs, the sources, the build helpers, the manifest and the lockfile. */
export const BUILD_INPUTS = [
  'src',
  'hosted',
  'build',
  'docs/tooling',
  'vite.config.ts',
  'vite.script.config.ts',
  'vite.hosted.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'custom-elements-manifest.config.mjs',
  'package.json',
  'package-lock.json',
];
/** Files every part that uses the build loads; missing, the build is not current whatever the stamp says. */
export const BUILD_OUTPUTS = ['dist/hosted/index.html', 'dist/pay-checkout.js', 'dist/index.js', 'dist/types/index.d.ts', 'custom-elements.json'];

const stamp = path.join(root, 'node_modules', '.cache', 'pay-checkout-test', 'build-stamp');

/** The newest modification time under `entry` (relative to the root), a folder walked whole; 0 when it is missing. */
export function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** True when a completed build is newer than every input, and its outputs are all there. */
export function buildIsCurrent() {
  if (!existsSync(stamp) || !BUILD_OUTPUTS.every((file) => existsSync(path.join(root, file)))) return false;
  return statSync(stamp).mtimeMs >= Math.max(...BUILD_INPUTS.map(newestMtime));
}

/** Records a build that started at `startedAt` (ms) and completed: an input edited during it leaves dist/ stale. */
export function markBuilt(startedAt) {
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, new Date(startedAt), new Date(startedAt));
}

/**
 * Runs `npm run build` unless the last completed one is current. Resolves with `{ built, code }`: `built` false when
 * the build was reused, `code` the build's exit status (0 when reused). `stdio` is passed to the child.
 */
export function ensureBuilt({ stdio = 'inherit', log = console.log } = {}) {
  if (buildIsCurrent()) {
    log('dist/ is current (built by an earlier step, no input changed since): reused');
    return Promise.resolve({ built: false, code: 0 });
  }
  log(existsSync(stamp) ? 'dist/ is older than its sources: npm run build' : 'no completed build: npm run build');
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', stdio, stdio] });
    child.once('error', (error) => {
      log(`npm: ${error.message}`);
      resolve({ built: true, code: 127 });
    });
    child.once('close', (code, signal) => {
      const status = code ?? (signal ? 128 : 1);
      if (status === 0) markBuilt(startedAt);
      resolve({ built: true, code: status });
    });
  });
}

