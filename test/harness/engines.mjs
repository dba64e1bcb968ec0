// The three browser engines every browser suite runs in, from Debian's packages (never a downloaded browser):
// Chromium (`chromium`), Firefox ESR (`firefox-esr`, driven over WebDriver BiDi) and WebKitGTK's MiniBrowser
// (`webkit2gtk-driver` + `libwebkit2gtk-4.1-0`, driven by WebKitWebDriver under Xvfb: MiniBrowser has no headless mode).
import { spawn } from 'node:child_process';
import net from 'node:net';
import { stopWithThisProcess } from './sandbox-process.mjs';
import { isExecutable, onPath, systemBinary } from './system-packages.mjs';

export { isExecutable, onPath };

export const ENGINES = /** @type {const} */ (['chromium', 'firefox', 'webkit']);
export const engineLabel = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

/**
 * The engines asked for: `--engine=firefox,webkit` among `args`, else `$ENGINE` (same comma list), else all three.
 * Throws on an unknown name, so a typo never runs nothing and reports green.
 * @param {string[]} args
 * @returns {{ engines: ('chromium' | 'firefox' | 'webkit')[], rest: string[] }}
 */
export function chooseEngines(args = [], env = process.env) {
  const flag = args.find((arg) => arg.startsWith('--engine='));
  const wanted = (flag?.slice('--engine='.length) ?? env.ENGINE ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = wanted.filter((name) => !ENGINES.includes(name));
  if (unknown.length > 0) throw new Error(`Unknown engine(s): ${unknown.join(', ')}. Engines: ${ENGINES.join(', ')}.`);
  return { engines: wanted.length ? ENGINES.filter((name) => wanted.includes(name)) : [...ENGINES], rest: args.filter((arg) => arg !== flag) };
}

/** The one engine a single test process runs in: `$ENGINE`, Chromium when unset (so `npx wtr --files …` stays as it was). */
export function currentEngine(env = process.env) {
  const [engine, ...more] = chooseEngines([], { ENGINE: env.ENGINE || 'chromium' }).engines;
  if (more.length > 0) throw new Error(`ENGINE names one engine per process here, not ${env.ENGINE}`);
  return engine;
}

export const firefoxPath = () => process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const miniBrowserPath = () => process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const webkitDriverPath = () => process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';

/** What is missing to run `engine`, as the apt-get line that installs it; null when everything is there. */
export function missingFor(engine) {
  if (engine === 'firefox' && !isExecutable(firefoxPath())) return `apt-get install firefox-esr (or set FIREFOX_PATH)`;
  if (engine === 'webkit') {
    if (!isExecutable(webkitDriverPath()) || !isExecutable(miniBrowserPath())) return 'apt-get install webkit2gtk-driver libwebkit2gtk-4.1-0';
    if (!process.env.DISPLAY && !onPath('Xvfb')) return 'apt-get install xvfb';
  }
  return null;
}

/** Puppeteer's launch options for Debian's Firefox ESR (WebDriver BiDi, headless). */
export const firefoxLaunchOptions = () => ({
  browser: 'firefox',
  executablePath: firefoxPath(),
  headless: true,
  // No update checks, telemetry or first-run pages reaching for the network on a closed machine.
  extraPrefsFirefox: { 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false, 'browser.shell.checkDefaultBrowser': false },
});

/** WebDriver capabilities for MiniBrowser through WebKitWebDriver (classic WebDriver: it speaks no BiDi). */
export const webkitCapabilities = () => ({
  browserName: 'MiniBrowser',
  'wdio:enforceWebDriverClassic': true,
  'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: ['--automation'] },
});

/** A free loopback port: web-test-runner's own search starts at 8000 for every run, so two runs started at once would race for it. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

/** Resolves once `check()` is true, polling; rejects with `what` after `timeoutMs`. */
async function until(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a child that dies with this process. */
function child(command, args, options) {
  const proc = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
  let tail = '';
  proc.stderr?.setEncoding('utf8').on('data', (chunk) => (tail = (tail + chunk).slice(-2_000)));
  const stop = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
  };
  stopWithThisProcess(stop);
  return { proc, stop, tail: () => tail };
}

/** A private X display from Xvfb (`-displayfd` picks a free number), unless this process already has one. */
async function startDisplay() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => {} };
  const xvfb = child(systemBinary('Xvfb'), ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const display = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display within 30 s: ${xvfb.tail()}`)), 30_000);
    xvfb.proc.stdio[3].setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      if (seen.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${seen.trim()}`);
      }
    });
    xvfb.proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${xvfb.tail()}`));
    });
  });
  return { display, stop: xvfb.stop };
}

/**
 * WebKitWebDriver on a free loopback port, with its own Xvfb display when there is none. It holds one session at a
 * time, so one test process drives one MiniBrowser. Stopped when this process exits, or by `stop()`.
 * @returns {Promise<{ hostname: string, port: number, stop: () => void }>}
 */
export async function startWebKitDriver() {
  const screen = await startDisplay();
  const port = await freePort();
  const driver = child(systemBinary('WebKitWebDriver'), [`--port=${port}`], { env: { ...process.env, DISPLAY: screen.display } });
  const stop = () => {
    driver.stop();
    screen.stop();
  };
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/status`)).ok, 'WebKitWebDriver did not answer /status', 30_000);
  } catch (error) {
    stop();
    throw new Error(`${error.message}: ${driver.tail()}`);
  }
  return { hostname: '127.0.0.1', port, stop };
}
