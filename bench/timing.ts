/**
 * Bench section "timing": the built hosted page (dist/hosted) in Debian's Chromium against the sandbox, with
 * the element's production status timings. Figures: the first interactive screen (median of 20 cold loads at
 * 4x CPU throttling) and the requests before it; status checks per minute while waiting, visible and hidden,
 * and the most in flight; the delay from the sandbox confirming a payment to the receipt on screen.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../src/sandbox/server.js';
import { startMerchantPage } from './merchant-page.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { firstInteractiveBudgetGzip, gzipSize, inlineModuleScripts, kB } from '../test/size/size-check.mjs';

export const hostedDir = fileURLToPath(new URL('../dist/hosted/', import.meta.url)).replace(/\/$/, '');

export interface TimingOptions {
  /** Cold loads of the first screen (default 20). */
  loads?: number;
  /** How long each waiting phase is watched, visible and hidden (default 30 s); rates are scaled to a minute. */
  watchMs?: number;
  /** Payments confirmed at staggered moments for the receipt delay (default 5). */
  confirmations?: number;
  /** Only the first interactive screen (hosted and embed), not the waiting figures (`--only first-screen`). */
  firstScreenOnly?: boolean;
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const ms = (n: number) => `${Math.round(n)} ms`;

/** Resolves with performance.now() (ms since navigation start) once the first screen's heading is rendered. */
const firstScreenAt = (page: Page) =>
  page
    .waitForFunction(
      () => {
        const el = document.querySelector('pay-checkout');
        if (!el || el.step === 'loading') return false;
        const heading = el.shadowRoot?.querySelector('[data-step]')?.shadowRoot?.querySelector('h2')?.textContent?.trim();
        return heading ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>);

/** A phone on a mobile network (150 ms RTT, 1.6 Mbps down, 750 kbps up) with 4x CPU throttling, through CDP. */
export const mobileProfile = { latencyMs: 150, downloadBps: 1_600_000, uploadBps: 750_000, cpuRate: 4 } as const;

/** Puts a page's CDP session on `mobileProfile`. */
export async function emulateMobile(cdp: CDPSession): Promise<void> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: mobileProfile.cpuRate });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: mobileProfile.latencyMs,
    downloadThroughput: mobileProfile.downloadBps / 8,
    uploadThroughput: mobileProfile.uploadBps / 8,
  });
}

export type FirstScreenPage = 'hosted' | 'embed';

/** The chunks of the screens after the first (the details step, the later steps, a whole catalog), in either build. */
const isNextScreens = (url: string) => /\/(?:pay-checkout\.)?(?:details-steps|later-steps|es|en)-[\w-]+\.js$/.test(new URL(url).pathname);

/** The inline module scripts of a page, gzip each, as the size check measures them (its inline style is markup's). */
const inlineCodeGzip = (html: string) => inlineModuleScripts(html).reduce((n, script) => n + gzipSize(Buffer.from(script)), 0);

async function firstScreen(browser: Browser, sandbox: RunningSandbox, loads: number, which: FirstScreenPage) {
  const embed = which === 'embed' ? await startMerchantPage(sandbox) : null;
  const times: number[] = [];
  const apiCalls: number[] = [];
  const requests: number[] = [];
  const codeBytes: number[] = [];
  const earlyBytes: number[] = [];
  let firstLoad: string[] = [];
  let later: string[] = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await emulateMobile(cdp);
    // Script and style bodies as they arrive, measured gzip (level 9) each, as a server would send them.
    const bodies = new Map<string, Promise<number>>();
    page.on('response', (r) => {
      const type = r.request().resourceType();
      // The hosted page carries its first script inline: it counts, not the markup around it (the merchant's page: nothing).
      if (type === 'script' || type === 'stylesheet') bodies.set(r.url(), r.body().then(gzipSize, () => 0));
      else if (!embed && type === 'document') bodies.set(r.url(), r.text().then(inlineCodeGzip, () => 0));
    });
    // Every request by the moment it started (the epoch clock both sides share; resource timing lists only finished ones).
    const seen: { url: string; at: number }[] = [];
    page.on('request', (r) => seen.push({ url: r.url(), at: Date.now() }));
    await page.goto(embed ? embed.url('demo-fixed') : `${sandbox.checkoutUrl}/demo-fixed`, { waitUntil: 'commit' });
    const at = await firstScreenAt(page);
    const atEpoch = (await page.evaluate(() => performance.timeOrigin)) + at;
    const before = seen.filter((r) => r.at <= atEpoch);
    // The bodies of what was asked before the screen, all of them, even those still arriving.
    await page.waitForLoadState('networkidle');
    // What the first screen waits for, apart from the next screens' chunks (details, later steps, whole catalog), which
    // are fetched early on purpose (a quick tap finds its next screen) and never waited for.
    let bytes = 0;
    let early = 0;
    for (const r of before) {
      const size = (await bodies.get(r.url)) ?? 0;
      if (isNextScreens(r.url)) early += size;
      else bytes += size;
    }
    const shorten = (url: string) => url.replace(sandbox.url, '').replace(/^http:\/\/localhost:\d+/, '(merchant)').replace(/^data:.*/, 'data: URL');
    if (i === 0) {
      firstLoad = before.map((r) => shorten(r.url));
      later = seen.filter((r) => r.at > atEpoch).map((r) => shorten(r.url));
    }
    times.push(at);
    requests.push(before.length);
    codeBytes.push(bytes);
    earlyBytes.push(early);
    apiCalls.push(before.filter((r) => r.url.includes('/v1/')).length);
    await context.close();
  }
  await embed?.close();
  return {
    median: median(times),
    min: Math.min(...times),
    max: Math.max(...times),
    apiCalls: Math.max(...apiCalls),
    requests: median(requests),
    codeBytes: Math.max(...codeBytes),
    earlyBytes: Math.max(...earlyBytes),
    firstLoad,
    later,
  };
}

/** A push order waiting for approval on a fresh page (the sandbox's hosted page unless `checkoutUrl` says another). */
export async function waitingPush(browser: Browser, sandbox: RunningSandbox, phone = '3001234567', checkoutUrl = sandbox.checkoutUrl) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const checks = { count: 0, inFlight: 0, maxInFlight: 0 };
  const isCheck = (url: string, method: string) => method === 'GET' && /\/v1\/checkout\/orders\/\d+$/.test(new URL(url).pathname);
  page.on('request', (r) => {
    if (!isCheck(r.url(), r.method())) return;
    checks.count += 1;
    checks.inFlight += 1;
    checks.maxInFlight = Math.max(checks.maxInFlight, checks.inFlight);
  });
  const done = (r: { url(): string; method(): string }) => {
    if (isCheck(r.url(), r.method())) checks.inFlight -= 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  await page.goto(`${checkoutUrl}/demo-fixed`);
  await page.getByRole('button', { name: 'Nequi' }).click();
  await page.getByLabel('Tipo de documento').selectOption({ label: 'Cédula de Ciudadanía (CC)' });
  await page.getByLabel('Número de documento').fill('1020304050');
  await page.getByLabel('Número de celular').fill(phone);
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await page.waitForFunction(() => document.querySelector('pay-checkout')?.step === 'push');
  // Found by phone: other buyers may be ordering at the same moment.
  const orders = (await (await fetch(`${sandbox.controlUrl}/orders`)).json()) as { data: { id_order: number; phone: string | null }[] };
  const id = orders.data.find((o) => o.phone?.endsWith(phone))?.id_order;
  if (id === undefined) throw new Error('no order');
  return { context, page, checks, id };
}

async function statusRates(browser: Browser, sandbox: RunningSandbox, watchMs: number) {
  const { context, page, checks } = await waitingPush(browser, sandbox);
  const start = checks.count;
  await page.waitForTimeout(watchMs);
  const visible = ((checks.count - start) * 60_000) / watchMs;
  // Hidden, as when the buyer switches to the wallet app: the page is told so, as the browser would.
  // A string: tsx's keepNames would wrap the getters in a `__name` helper that the page lacks.
  await page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, value: true });
    document.dispatchEvent(new Event('visibilitychange'));`);
  await page.waitForTimeout(500); // a check already on the wire may still land
  const hiddenStart = checks.count;
  await page.waitForTimeout(watchMs);
  const hidden = ((checks.count - hiddenStart) * 60_000) / watchMs;
  const maxInFlight = checks.maxInFlight;
  await context.close();
  return { visible, hidden, maxInFlight };
}

/** From the sandbox confirming a push payment to the receipt on screen, for `confirmations` buyers. */
export async function receiptDelays(browser: Browser, sandbox: RunningSandbox, confirmations: number, checkoutUrl = sandbox.checkoutUrl) {
  // Buyers wait different lengths of time before their phone approves, so approvals land all over the backoff.
  const delays = await Promise.all(
    Array.from({ length: confirmations }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 400)); // one at a time through the form
      const { context, page, id } = await waitingPush(browser, sandbox, `30012345${String(i).padStart(2, '0')}`, checkoutUrl);
      await page.waitForTimeout(2_000 + i * 3_100);
      const approvedAt = Date.now();
      await fetch(`${sandbox.controlUrl}/orders/${id}/approve`, { method: 'POST' });
      const shownAt = await page
        .waitForFunction(() => (document.querySelector('pay-checkout')?.step === 'paid' ? performance.timeOrigin + performance.now() : false), undefined, {
          polling: 'raf',
          timeout: 30_000,
        })
        .then((h) => h.jsonValue() as Promise<number>);
      await context.close();
      return shownAt - approvedAt;
    }),
  );
  return { median: median(delays), max: Math.max(...delays), all: delays };
}

export async function benchTiming(options: TimingOptions = {}): Promise<boolean> {
  const { loads = 20, watchMs = 30_000, confirmations = 5, firstScreenOnly = false } = options;
  if (!existsSync(path.join(hostedDir, 'index.html'))) throw new Error('dist/hosted is missing: run `npm run build` first');
  const sandbox = await startSandbox({ port: 0, hostedDir });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const screen = await firstScreen(browser, sandbox, loads, 'hosted');
    const embedLoads = Math.max(1, Math.round(loads / 2));
    const embed = await firstScreen(browser, sandbox, embedLoads, 'embed');
    const rates = firstScreenOnly ? null : await statusRates(browser, sandbox, watchMs);
    const receipt = firstScreenOnly ? null : await receiptDelays(browser, sandbox, confirmations);
    const profile = `${mobileProfile.latencyMs} ms RTT, ${mobileProfile.downloadBps / 1e6} Mbps, ${mobileProfile.cpuRate}x CPU`;
    const rows: [string, string, string, boolean][] = [
      [`hosted page: first interactive screen, median of ${loads} cold loads, ${profile}`, `${ms(screen.median)} (min ${ms(screen.min)}, max ${ms(screen.max)})`, '— (none in §7)', true],
      ['hosted page: script and style it waits for (its inline script too), gzip', kB(screen.codeBytes), `${kB(firstInteractiveBudgetGzip)} (20 kB the goal)`, screen.codeBytes <= firstInteractiveBudgetGzip],
      ['hosted page: the next screens’ chunks, fetched before it but not waited for, gzip', kB(screen.earlyBytes), '— (preloaded from the top of the body, so a quick tap finds them)', true],
      ['hosted page: API calls before it', String(screen.apiCalls), '1 (GET /checkout/links/{hash})', screen.apiCalls <= 1],
      ['hosted page: all requests before it (page, script, style, API), median', String(screen.requests), '—', true],
      [`script-tag embed: first interactive screen, median of ${embedLoads} cold loads, same profile`, `${ms(embed.median)} (min ${ms(embed.min)}, max ${ms(embed.max)})`, '—', true],
      ['script-tag embed: script and style it waits for, gzip', kB(embed.codeBytes), `${kB(firstInteractiveBudgetGzip)} (20 kB the goal)`, embed.codeBytes <= firstInteractiveBudgetGzip],
      ['script-tag embed: the next screens’ chunks, fetched before it but not waited for, gzip', kB(embed.earlyBytes), '— (asked for beside the link call, not waited for)', true],
      ['script-tag embed: API calls before it', String(embed.apiCalls), '1', embed.apiCalls <= 1],
    ];
    if (rates && receipt) {
      rows.push(
        [`status checks per minute while waiting, visible (over ${watchMs / 1000} s)`, rates.visible.toFixed(1), '— (one waiting request per 25 s)', true],
        [`status checks per minute while waiting, hidden (over ${watchMs / 1000} s)`, rates.hidden.toFixed(1), '0 (none while hidden)', rates.hidden === 0],
        ['status checks in flight at once, most', String(rates.maxInFlight), '1 at most', rates.maxInFlight <= 1],
        [
          `sandbox confirms → receipt on screen, ${confirmations} buyers`,
          `median ${ms(receipt.median)}, max ${ms(receipt.max)}`,
          '≤ 1 s median (waiting request)',
          receipt.median <= 1_000,
        ],
      );
    }
    const head = ['figure', 'measured', 'budget', 'verdict'];
    const cells = rows.map(([figure, measured, budget, ok]) => [figure, measured, budget, ok ? 'PASS' : 'OVER']);
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
    const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
    console.log('\n## timing: the built hosted page in Chromium, production status timings');
    console.log(line(head));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of cells) console.log(line(row));
    console.log(`hosted page, requests before the first interactive screen (first load): ${screen.firstLoad.join(', ')}`);
    console.log(`hosted page, requested after it: ${screen.later.join(', ') || 'nothing'}`);
    console.log(`script-tag embed, requests before the first interactive screen: ${embed.firstLoad.join(', ')}`);
    console.log(`script-tag embed, requested after it: ${embed.later.join(', ') || 'nothing'}`);
    if (receipt) console.log(`receipt delays: ${receipt.all.map(ms).join(', ')}`);
    return rows.every(([, , , ok]) => ok);
  } finally {
    await browser.close();
    await sandbox.close();
  }
}
