// The system packages `npm test` needs are declared in one place (test/harness/system-packages.mjs), and a test or script
// that starts a system program by name fails here until that program's package is declared there.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { BASE_PROGRAMS, SYSTEM_PACKAGES, missingPackages, systemBinary } from '../harness/system-packages.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const declared = new Set([...BASE_PROGRAMS, ...SYSTEM_PACKAGES.flatMap((pkg) => Object.keys(pkg.programs))]);

/** Calls that start a program given as their first argument: node:child_process, and this repo's thin wrappers. */
const STARTERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'run', 'child', 'launch']);

/** The program names a source text starts, as written: string literals, `path.join(dir, 'name')`, `systemBinary('name')`. */
function programsStarted(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const named = (node: ts.Expression | undefined): void => {
    if (!node) return;
    if (ts.isStringLiteralLike(node)) found.push(path.basename(node.text.split(/\s+/)[0] ?? ''));
    else if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (callee === 'systemBinary' || callee === 'path.join') named(node.arguments.at(-1));
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : node.expression.getText(source);
      if (STARTERS.has(callee)) named(node.arguments[0]);
      if (callee === 'systemBinary') named(node.arguments[0]);
    }
    // A wrapper's default program (`command = 'redis-server'`).
    if (ts.isParameter(node) && node.name.getText(source) === 'command') named(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter(Boolean);
}

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory() && !['node_modules', 'dist', 'projects'].includes(entry.name)) walk(child);
      else if (entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.mts')) out.push(child);
    }
  };
  walk(dir);
  return out;
}

test('every program a test, script or example starts by name is declared with its Debian package', () => {
  const undeclared: string[] = [];
  for (const file of [...sources('test'), ...sources('build'), ...sources('bench'), ...sources('docs/tooling'), ...sources('examples')]) {
    for (const program of programsStarted(file, readFileSync(path.join(root, file), 'utf8'))) {
      if (!declared.has(program)) undeclared.push(`${file}: ${program}`);
    }
  }
  assert.deepEqual(undeclared, [], 'declare each program in test/harness/system-packages.mjs (its package, what it is for, the steps that need it)');
});

test('the checker sees a program started by name, through a path, a wrapper or its default', () => {
  const text = [
    "import { spawn, execFile } from 'node:child_process';",
    "spawn('promtool', ['check', 'metrics']);",
    "execFile(path.join(bin, 'pg_ctl'), []);",
    "await run('redis-cli', ['ping']);",
    "export function launch(port, command = 'memcached') {}",
    "spawn(process.execPath, ['--import', 'tsx']);",
  ].join('\n');
  assert.deepEqual(programsStarted('sample.ts', text), ['promtool', 'pg_ctl', 'redis-cli', 'memcached']);
});

test('systemBinary refuses a program no package declares, and finds a declared one', () => {
  const undeclaredProgram = 'memcached';
  assert.throws(() => systemBinary(undeclaredProgram), /not declared in test\/harness\/system-packages\.mjs/);
  assert.match(systemBinary('redis-server'), /redis-server$/);
});

test('every package says what it is for and which steps need it; the preflight asks only for what the chosen steps need', () => {
  const steps = new Set(['node', 'browser', 'e2e', 'docs', 'pack']);
  for (const pkg of SYSTEM_PACKAGES) {
    assert.ok(pkg.why.length > 10, `${pkg.name} says what it is for`);
    assert.ok(pkg.steps.length > 0 && pkg.steps.every((step) => steps.has(step)), `${pkg.name} names known steps`);
  }
  // Type-checking and linting need no system package, wherever they run.
  assert.deepEqual(missingPackages(['typecheck', 'lint'], ['chromium', 'firefox', 'webkit']), []);
});

test('where a package is missing and apt-get cannot run, `npm test` names it, prints the one command and runs no test', { timeout: 60_000 }, async () => {
  // A PATH holding node alone: redis-server, promtool and apt-get are all out of sight.
  const { execFile } = await import('node:child_process');
  const bin = mkdtempSync(path.join(tmpdir(), 'pay-checkout-path-'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    execFile(process.execPath, ['test/run.mjs', 'node'], { cwd: root, env: { PATH: bin, HOME: process.env.HOME ?? '' }, timeout: 50_000 }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout }),
    );
  }).finally(() => rmSync(bin, { recursive: true, force: true }));
  assert.equal(result.code, 1);
  assert.match(result.stdout, /redis-server\s+redis-server: the Redis claim store/);
  assert.match(result.stdout, /no apt-get here/);
  assert.match(result.stdout, /apt-get update && (sudo )?apt-get install -y redis-server redis-sentinel redis-tools php-cli python3 prometheus/);
  assert.doesNotMatch(result.stdout, /Node tests/, 'no test step started');
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 1 failed');
});
