// A fresh clone installs with the README's commands alone: CI runs exactly those commands with nothing exported,
// no dependency downloads a browser at install, and the committed lockfile is what npm resolves.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The shell lines of a script that do something: comments and blank lines dropped. */
const commandLines = (script: string) =>
  script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

test('.ci/run is exactly the README commands: no package installed, no variable exported', () => {
  const lines = commandLines(read('.ci/run'));
  // What a newcomer types after cloning; `npm test` brings its own system packages (test/harness/system-packages.mjs).
  const commands = lines.filter((line) => !/^set\s/.test(line) && !/^cd\s/.test(line));
  assert.deepEqual(commands, ['npm install', 'npm test'], 'CI must meet what a newcomer meets');
});

test('the README names the commands CI runs', () => {
  const readme = read('README.md');
  assert.match(readme, /npm install && npm start/);
  assert.match(readme, /^npm test$/m);
});

test('no dependency that downloads a browser at install is in the lockfile', () => {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, unknown> };
  // Each of these fetches a browser build from its postinstall (the full puppeteer, playwright's browser packages…).
  const downloaders = ['puppeteer', 'playwright-chromium', 'playwright-firefox', 'playwright-webkit', 'chromedriver', 'electron'];
  const found = Object.keys(lock.packages).filter((key) => downloaders.some((name) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`)));
  assert.deepEqual(found, []);
});

test('every dependency install script is decided in allowScripts, and the driver downloaders are denied', () => {
  const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> };
  assert.ok(pkg.allowScripts, 'package.json has allowScripts');
  for (const name of ['geckodriver', 'edgedriver']) assert.equal(pkg.allowScripts[name], false, `${name} is denied`);
});

test('the committed package-lock.json is what npm resolves from package.json', { timeout: 120_000 }, async () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-lock-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(path.join(root, file), path.join(scratch, file));
    await promisify(execFile)('npm', ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: scratch,
      env: { HOME: process.env.HOME ?? '', PATH: process.env.PATH ?? '' },
    });
    const resolved = readFileSync(path.join(scratch, 'package-lock.json'), 'utf8');
    assert.ok(resolved === read('package-lock.json'), 'npm install would rewrite package-lock.json: run `npm install` and commit the lockfile');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
