/**
 * Bench section "first-paint": when the amount is on screen, and when the first screen answers the buyer, for the
 * hosted page served statically (dist/hosted, one rewrite rule) and server-rendered by the sandbox (Spanish, and
 * English with `?locale=en`), against a plain page of the same HTML bytes with the amount in its HTML and no script
 * (the physical limit; one per language), and against the moment each page's HTML had arrived. Loaded in turn, cold, in Debian's Chromium under the mobile profile (timing.ts).
 * Budget (docs/site/contributing/architecture.md): server-rendered amount within 1.25× the plain page's, interactive ≤ 2 round trips later.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { configureHostedPage } from '../src/server/hosted-page/deploy.js';
import { startSandbox, type RunningSandbox } from '../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { emulateMobile, hostedDir, median, mobileProfile } from './timing.js';

type Kind = 'plain' | 'static' | 'server-rendered' | 'plain (en)' | 'server-rendered (en)';
interface Load {
  html: number;
  amount: number;
  interactive: number;
}

/**
 * Runs in the page before its own scripts, checking once a frame: the first frame where the amount is visible
 * (through shadow roots), then the first where the element's own method screen is up (one screen, with its h2: the
 * server's copy has been replaced and answers the buyer). Each moment is told on the console, which costs the page
 * nothing; Playwright's `waitForFunction` would compile its injected script in the page, ≈ 100 ms of main thread at
 * 4x CPU landing just as the element's script arrives, and count that against the page.
 */
export const watchFirstScreen = `(() => {
  const shows = (node) => {
    if (node.nodeType === 3) return /50[.,]000/.test(node.textContent) && node.parentElement?.checkVisibility();
    if (node.shadowRoot && shows(node.shadowRoot)) return true;
    for (const child of node.childNodes) if (shows(child)) return true;
    return false;
  };
  const interactive = () => {
    const el = document.querySelector('pay-checkout');
    const screens = el?.shadowRoot?.querySelectorAll('[data-step]') ?? [];
    return el?.step === 'method' && screens.length === 1 && screens[0]?.shadowRoot?.querySelector('h2');
  };
  const look = () => {
    if (document.body && shows(document.body)) {
      console.debug('pay-bench amount ' + performance.now());
      requestAnimationFrame(lookInteractive);
    } else requestAnimationFrame(look);
  };
  const lookInteractive = () => {
    if (interactive()) console.debug('pay-bench interactive ' + performance.now());
    else requestAnimationFrame(lookInteractive);
  };
  requestAnimationFrame(look);
})()`;

/** performance.now() of each moment `watchFirstScreen` tells, as the page's console says it. */
export function firstScreenMoments(page: Page): { amount: Promise<number>; interactive: Promise<number> } {
  const moment = (name: string) =>
    page
      .waitForEvent('console', { predicate: (message) => message.text().startsWith(`pay-bench ${name} `), timeout: 30_000 })
      .then((message) => Number(message.text().split(' ')[2]));
  return { amount: moment('amount'), interactive: moment('interactive') };
}

/**
 * The server-rendered HTML with no script, padded to the same bytes: what was taken out goes back in a comment at the
 * end, so the padding compresses as the page's own script does (a run of one letter would be nearly free over gzip).
 */
async function plainOf(url: string): Promise<string> {
  const rendered = await (await fetch(url)).text();
  const removed: string[] = [];
  // Every module script, named or carried in the page (renderHostedPage's inline entry), and every preload.
  const stripped = rendered.replace(/<script type="module"[^>]*>[\s\S]*?<\/script>|<link rel="modulepreload"[^>]*>/g, (element) => {
    removed.push(element);
    return '';
  });
  return `${stripped}<!--${removed.join('').replace(/-/g, '_')}-->`;
}

/** The static host, and the plain pages (Spanish, English). */
async function startPages(sandbox: RunningSandbox): Promise<{ origin: string; close: () => Promise<void> }> {
  const staticIndex = configureHostedPage(readFileSync(path.join(hostedDir, 'index.html'), 'utf8'), { apiBase: `${sandbox.url}/v1` });
  const plain = { '/plain': await plainOf(`${sandbox.checkoutUrl}/demo-fixed`), '/plain-en': await plainOf(`${sandbox.checkoutUrl}/demo-fixed?locale=en`) };
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    // gzip where the browser takes it, as the sandbox sends the server-rendered page: an uncompressed plain page would
    // arrive later and flatter the ratio.
    const send = (type: string, body: string | Buffer) =>
      /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
        ? res.writeHead(200, { 'Content-Type': type, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' }).end(gzipSync(body))
        : res.writeHead(200, { 'Content-Type': type, Vary: 'Accept-Encoding' }).end(body);
    if (pathname === '/plain' || pathname === '/plain-en') return send('text/html; charset=utf-8', plain[pathname]);
    const rel = pathname.replace(/^\/checkout\//, '');
    const file = path.join(hostedDir, rel);
    if (rel.startsWith('assets/') && file.startsWith(hostedDir) && existsSync(file)) {
      return send('text/javascript; charset=utf-8', readFileSync(file));
    }
    send('text/html; charset=utf-8', staticIndex);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function load(browser: Browser, url: string, kind: Kind): Promise<Load> {
  const context = await browser.newContext();
  await context.addInitScript(watchFirstScreen);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await emulateMobile(cdp);
  try {
    const moments = firstScreenMoments(page);
    // The plain page is never interactive.
    if (kind.startsWith('plain')) moments.interactive.catch(() => {});
    await page.goto(url, { waitUntil: 'commit' });
    const amount = await moments.amount;
    const interactive = kind.startsWith('plain') ? amount : await moments.interactive;
    const html = (await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd)) as number;
    return { html, amount, interactive };
  } finally {
    await context.close();
  }
}

export async function benchFirstPaint({ loads = 10 }: { loads?: number } = {}): Promise<boolean> {
  if (!existsSync(path.join(hostedDir, 'index.html'))) throw new Error('dist/hosted is missing: run `npm run build` first');
  const sandbox = await startSandbox({ port: 0, hostedDir });
  const pages = await startPages(sandbox);
  const browser = await chromium.launch(chromiumLaunchOptions());
  const urls: Record<Kind, string> = {
    plain: `${pages.origin}/plain`,
    static: `${pages.origin}/checkout/demo-fixed`,
    'server-rendered': `${sandbox.checkoutUrl}/demo-fixed`,
    'plain (en)': `${pages.origin}/plain-en`,
    'server-rendered (en)': `${sandbox.checkoutUrl}/demo-fixed?locale=en`,
  };
  const results: Record<Kind, Load[]> = { plain: [], static: [], 'server-rendered': [], 'plain (en)': [], 'server-rendered (en)': [] };
  try {
    // In turn, so a busy moment on the machine falls on all three alike.
    for (let i = 0; i < loads; i++) for (const kind of Object.keys(urls) as Kind[]) results[kind].push(await load(browser, urls[kind], kind));
  } finally {
    await browser.close();
    await pages.close();
    await sandbox.close();
  }
  const rtt = mobileProfile.latencyMs;
  const of = (kind: Kind, key: keyof Load) => median(results[kind].map((r) => r[key]));
  console.log(`\n## first-paint: amount on screen and interactive, median of ${loads} cold loads each, in turn (${rtt} ms RTT, ${mobileProfile.downloadBps / 1e6} Mbps, ${mobileProfile.cpuRate}x CPU)`);
  console.log(`${'page'.padEnd(20)} ${'HTML arrived'.padStart(13)} ${'amount shown'.padStart(13)} ${'× plain'.padStart(8)} ${'interactive'.padStart(12)} ${'after amount'.padStart(13)}`);
  // Each page against the plain page in its own language.
  const plainOfKind = (kind: Kind): Kind => (kind.endsWith('(en)') ? 'plain (en)' : 'plain');
  for (const kind of Object.keys(urls) as Kind[]) {
    const amount = of(kind, 'amount');
    const interactive = of(kind, 'interactive');
    const plain = kind.startsWith('plain');
    const after = plain ? '—' : `${Math.round(interactive - amount)} ms (${((interactive - amount) / rtt).toFixed(1)} RTT)`;
    console.log(
      `${kind.padEnd(20)} ${`${Math.round(of(kind, 'html'))} ms`.padStart(13)} ${`${Math.round(amount)} ms`.padStart(13)} ${`${(amount / of(plainOfKind(kind), 'amount')).toFixed(2)}×`.padStart(8)} ${(plain ? '—' : `${Math.round(interactive)} ms`).padStart(12)} ${after.padStart(13)}`,
    );
  }
  let ok = true;
  for (const kind of ['server-rendered', 'server-rendered (en)'] as const) {
    const ssrAmount = of(kind, 'amount');
    const plainAmount = of(plainOfKind(kind), 'amount');
    const ssrAfter = of(kind, 'interactive') - ssrAmount;
    const met = ssrAmount <= 1.25 * plainAmount && ssrAfter <= 2 * rtt;
    ok &&= met;
    console.log(
      `${kind}: amount ${(ssrAmount / plainAmount).toFixed(2)}× the plain page's (budget 1.25×), interactive ${Math.round(ssrAfter)} ms after it (budget ${2 * rtt} ms, 2 round trips): ${met ? 'PASS' : 'OVER'}`,
    );
  }
  return ok;
}
