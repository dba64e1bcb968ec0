// The one list of the system packages `npm test` needs, from Debian (never a downloaded browser or server), and the
// preflight that installs what is missing before any test starts. A harness that starts a system program names it
// through `systemBinary()`, which refuses a program this list does not declare; test/node/system-packages.test.ts
// fails when a test or script spawns a program by name that is not declared here.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of executable `name` on the PATH, or null. */
export function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** The newest Debian PostgreSQL's bin directory (/usr/lib/postgresql/N/bin), or null when none is installed. */
export function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => isExecutable(path.join(base, v, 'bin', 'postgres')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

/** The modules PHP's command line has loaded (`php -m`), or none when there is no php here. */
function phpModules() {
  const php = onPath('php');
  if (!php) return [];
  const listed = spawnSync(php, ['-m'], { encoding: 'utf8', timeout: 10_000 });
  return listed.status === 0 ? listed.stdout.split('\n').map((line) => line.trim().toLowerCase()) : [];
}

/** `file` when it is executable, else null. */
const at = (file) => (file && isExecutable(file) ? file : null);

/**
 * Each package: what it is for, the steps of `npm test` (test/run.mjs keys) and the engines that need it, and the
 * programs it brings, each with how to find it here (an environment override first where one exists).
 * @type {{ name: string, why: string, steps: string[], engine?: string, programs: Record<string, () => string | null> }[]}
 */
export const SYSTEM_PACKAGES = [
  {
    name: 'chromium',
    why: 'Chromium: the browser and end-to-end suites, the docs site checks and the packed tarball trials',
    steps: ['browser', 'e2e', 'docs', 'pack'],
    engine: 'chromium',
    programs: {
      chromium: () =>
        at(process.env.CHROME_PATH) ??
        at('/usr/bin/chromium') ??
        ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'].map(onPath).find(Boolean) ??
        null,
    },
  },
  {
    name: 'firefox-esr',
    why: 'Firefox ESR: the browser and end-to-end suites in Firefox, a live docs checkout',
    steps: ['browser', 'e2e', 'docs'],
    engine: 'firefox',
    programs: { 'firefox-esr': () => at(process.env.FIREFOX_PATH || '/usr/bin/firefox-esr') },
  },
  {
    name: 'webkit2gtk-driver',
    why: 'WebKitWebDriver: drives WebKitGTK for the WebKit suites',
    steps: ['browser', 'e2e', 'docs'],
    engine: 'webkit',
    programs: { WebKitWebDriver: () => at(process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver') },
  },
  {
    name: 'libwebkit2gtk-4.1-0',
    why: "WebKitGTK's MiniBrowser: the WebKit engine itself",
    steps: ['browser', 'e2e', 'docs'],
    engine: 'webkit',
    programs: { MiniBrowser: () => at(process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser') },
  },
  {
    name: 'xvfb',
    why: 'Xvfb: a screen for MiniBrowser, which has no headless mode',
    steps: ['browser', 'e2e', 'docs'],
    engine: 'webkit',
    programs: { Xvfb: () => (process.env.DISPLAY ? 'Xvfb' : onPath('Xvfb')) },
  },
  {
    name: 'redis-server',
    why: 'redis-server: the Redis claim store, limiter and multi-instance tests start their own, and the PHP shop\'s serve keeps its outbox there',
    steps: ['node', 'e2e'],
    programs: { 'redis-server': () => onPath('redis-server') },
  },
  {
    name: 'redis-sentinel',
    why: 'redis-sentinel: the failover tests run a Sentinel group',
    steps: ['node'],
    programs: { 'redis-sentinel': () => onPath('redis-sentinel') },
  },
  {
    name: 'redis-tools',
    why: 'redis-cli: the Cluster tests create a 3-master cluster with it',
    steps: ['node'],
    programs: { 'redis-cli': () => onPath('redis-cli') },
  },
  {
    name: 'postgresql',
    why: 'PostgreSQL server binaries: the PostgreSQL claim store tests run their own server',
    steps: ['node'],
    programs: {
      postgres: () => at(postgresBinDir() && path.join(postgresBinDir(), 'postgres')),
      initdb: () => at(postgresBinDir() && path.join(postgresBinDir(), 'initdb')),
    },
  },
  {
    name: 'php-cli',
    why: "php: the PHP shop example (examples/php) runs under `php -S` beside `pay-checkout serve`, and the docs' PHP signature check runs",
    steps: ['node', 'e2e'],
    programs: { php: () => onPath('php') },
  },
  {
    name: 'php-sqlite3',
    why: "PHP's SQLite driver: the PHP shop keeps its carts and notices in SQLite",
    steps: ['e2e'],
    // Not a program: PHP's module, found in `php -m`'s list.
    programs: { pdo_sqlite: () => (phpModules().includes('pdo_sqlite') ? onPath('php') : null) },
  },
  {
    name: 'python3',
    why: "python3: the docs' Python signature check runs",
    steps: ['node'],
    programs: { python3: () => onPath('python3') },
  },
  {
    name: 'prometheus',
    why: "promtool: the operator's metrics example is checked with `promtool check metrics`",
    steps: ['node'],
    programs: { promtool: () => onPath('promtool') },
  },
];

/** Programs that come with any machine that runs Node and npm (and the installer itself), so no package declares them. */
export const BASE_PROGRAMS = ['node', 'npm', 'npx', 'git', 'id', 'apt-get'];

/**
 * The path of a declared system program (`redis-server`, `Xvfb`, …), or its bare name when it is not found here (so
 * the spawn fails with ENOENT and the test says what is missing). Throws for a program no package declares.
 * @param {string} program
 */
export function systemBinary(program) {
  const owner = SYSTEM_PACKAGES.find((pkg) => Object.hasOwn(pkg.programs, program));
  if (!owner) throw new Error(`${program} is not declared in test/harness/system-packages.mjs: add its Debian package there`);
  return owner.programs[program]() ?? program;
}

/** The packages the chosen steps and engines need that are missing here. */
export function missingPackages(steps, engines) {
  // docs and pack open every engine they use whatever --engine says; browser and e2e only the chosen ones.
  const needs = (pkg) => pkg.steps.some((step) => steps.includes(step) && (!pkg.engine || ['docs', 'pack'].includes(step) || engines.includes(pkg.engine)));
  return SYSTEM_PACKAGES.filter((pkg) => needs(pkg) && Object.values(pkg.programs).some((find) => !find()));
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    child.once('error', () => resolve(127));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Before any test: installs every missing package with one `apt-get update` and one `apt-get install` when running as
 * root where apt-get exists; otherwise prints the one command to run, with what each package is for, and returns
 * false. Returns true when everything the chosen steps need is here.
 */
export async function preflight(steps, engines, log = console.log) {
  let missing = missingPackages(steps, engines);
  if (missing.length === 0) return true;
  const names = missing.map((pkg) => pkg.name);
  const command = (sudo) => `${sudo}apt-get update && ${sudo}apt-get install -y ${names.join(' ')}`;
  log(`Missing system packages for these tests:\n${missing.map((pkg) => `  ${pkg.name.padEnd(20)} ${pkg.why}`).join('\n')}`);
  if (process.getuid?.() === 0 && onPath('apt-get')) {
    log(`Installing them (running as root): ${command('')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if ((await run('apt-get', ['update'], env)) === 0) await run('apt-get', ['install', '-y', ...names], env);
    missing = missingPackages(steps, engines);
    if (missing.length === 0) return true;
    log(`Still missing after apt-get: ${missing.map((pkg) => pkg.name).join(', ')}`);
    return false;
  }
  const why = onPath('apt-get') ? 'not running as root' : 'no apt-get here (not Debian or Ubuntu)';
  log(`Not installing them (${why}). Run this, then \`npm test\` again:\n\n  ${command(process.getuid?.() === 0 ? '' : 'sudo ')}\n`);
  return false;
}
