/**
 * Bench section "vitals" (`npm run bench -- --only vitals`): what a buyer on a slow phone feels after the first paint,
 * in Debian's Chromium under the mobile profile (timing.ts: 150 ms RTT, 1.6 Mbps, 4x CPU) on a 390 × 844 screen, over
 * repeated cold loads of the hosted page the built sandbox draws and of the two-line script-tag embed on a merchant
 * page (a heading, a line of text, the element, a footer), without and with the documented reserve.
 * - Layout shift (PerformanceObserver 'layout-shift', with its sources): the sum of the shifts the buyer did not cause
 *   (no input in the 500 ms before), while loading and through every screen change up to the receipt.
 * - A tap → the next visible change: from the tap's `pointerdown` to the first frame that shows a change in the
 *   element, and to the first frame that shows the next screen; for a tap on a method right at `pay-ready` and after 3 s
 *   idle, then the pay button (→ "Creando tu pago…", → the waiting screen) and the SMS code's button (→ the receipt).
 * Budget (docs/site/contributing/architecture.md): layout shift 0 (the bare embed ≤ 0.1), a method tap at `pay-ready` ≤ 1.3× the same tap
 * after idle (median), and no tap over 100 ms to its next visible change (on a quiet machine).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { demoMerchantKey } from '../src/sandbox/fixtures.js';
import { startSandbox, type RunningSandbox } from '../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { startMerchantPage } from './merchant-page.js';
import { emulateMobile, hostedDir, median, mobileProfile } from './timing.js';

type PageKind = 'hosted' | 'embed' | 'embed + reserve';
type TapName = 'method' | 'pay' | 'code';

export { documentedReserve } from './merchant-page.js';

/**
 * Runs in the page before its own scripts. Keeps every layout shift (value, whether input came just before, and what
 * moved), and for each tap the time from its `pointerdown` to the first frame showing any change in the element (its
 * screen's text, busy state) and to the first frame showing another screen. Reads the DOM once a frame only while a
 * tap is open, and tells `pay-ready` on the console with the method button's centre, so the bench can tap at once.
 */
const watchVitals = `(() => {
  const v = (window.__payVitals = { shifts: [], taps: [], ready: null });
  const describe = (node) => {
    if (!node) return '(a node since removed)';
    if (node.nodeType !== 1) return node.nodeName.toLowerCase();
    const host = node.getRootNode().host;
    return (host ? host.localName + ' > ' : '') + node.localName + (node.id ? '#' + node.id : '') + (node.getAttribute('part') ? '[part=' + node.getAttribute('part') + ']' : '');
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) v.shifts.push({ at: e.startTime, value: e.value, input: e.hadRecentInput,
      sources: (e.sources || []).map((s) => ({ node: describe(s.node), from: [s.previousRect.y, s.previousRect.height], to: [s.currentRect.y, s.currentRect.height] })) });
  }).observe({ type: 'layout-shift', buffered: true });
  // What held a tap back, for PAY_BENCH_DEBUG: long tasks, and each tap's input delay and processing (event timing).
  v.long = [];
  v.events = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) v.long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
    // Long animation frames with the scripts in them: what exactly a tap waited behind.
    v.loaf = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) v.loaf.push([Math.round(e.startTime), Math.round(e.duration), Math.round(e.renderStart ? e.renderStart - e.startTime : 0), e.scripts.map((x) => [x.invoker.slice(0, 50), Math.round(x.startTime), Math.round(x.duration)])]); }).observe({ type: 'long-animation-frame', buffered: true });
    new PerformanceObserver((list) => { for (const e of list.getEntries()) v.events.push([e.name, Math.round(e.startTime), Math.round(e.processingStart - e.startTime), Math.round(e.processingEnd - e.processingStart), e.duration]); }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch {}
  // When the next screens' elements were defined (their chunk run), for PAY_BENCH_DEBUG.
  v.defined = {};
  for (const tag of ['pay-step-details', 'pay-step-push']) customElements.whenDefined(tag).then(() => (v.defined[tag] = Math.round(performance.now())));
  const step = () => document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]');
  const face = () => {
    const s = step();
    const root = s?.shadowRoot;
    if (!root) return '';
    // The screen, its heading, its buttons and what is busy: not the countdown, which changes by itself each second.
    const busy = root.querySelectorAll('[aria-disabled="true"],[aria-busy="true"],[readonly]').length;
    const words = [...root.querySelectorAll('h2,button')].map((n) => n.textContent.trim()).join('|');
    return s.localName + '|' + busy + '|' + words;
  };
  addEventListener('pointerdown', (e) => {
    const tap = { at: e.timeStamp, changed: null, screen: null };
    v.taps.push(tap);
    const before = face();
    const screen = step()?.localName;
    // The time in the frame's callback, just before it paints (the frame's own timestamp may precede the tap).
    const look = () => {
      const now = performance.now();
      if (tap.changed === null && face() !== before) tap.changed = now - tap.at;
      if (tap.screen === null && step()?.localName !== screen && step()?.localName !== 'pay-step-status') tap.screen = now - tap.at;
      if (tap.changed === null || tap.screen === null) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, true);
  addEventListener('pay-ready', (e) => {
    v.ready = performance.now();
    const el = e.target;
    // The element draws its own screen in the microtask after the event; its method buttons are then where they stay.
    el.updateComplete.then(() => step()?.updateComplete).then(() => {
      const button = [...(step()?.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => /Nequi/.test(b.textContent));
      const r = button?.getBoundingClientRect();
      console.debug('pay-bench ready ' + v.ready + ' ' + (r ? (r.x + r.width / 2) + ' ' + (r.y + r.height / 2) : 'none'));
    });
  }, true);
})()`;

interface Tap {
  changed: number | null;
  screen: number | null;
}
interface Load {
  /** Sum of the shifts with no input just before, before the first tap and after it. */
  loadingShift: number;
  laterShift: number;
  /** The biggest shift's sources, to say what moved. */
  worst: string;
  taps: Partial<Record<TapName, Tap>>;
}

/** A shift's score: 3 decimals, or 5 where a small one would print as 0.000. */
const shiftText = (n: number) => n.toFixed(n > 0 && n < 0.001 ? 5 : 3);

/** Taps the centre of the element's button whose text matches `name` (a click through CDP: no script in the page). */
async function tap(page: Page, name: RegExp): Promise<void> {
  const point = (await page.evaluate(`(() => {
    const root = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]')?.shadowRoot;
    const button = [...(root?.querySelectorAll('button') ?? [])].find((b) => ${name}.test(b.textContent));
    if (!button) return null;
    button.scrollIntoView({ block: 'center' });
    const r = button.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  })()`)) as [number, number] | null;
  if (!point) throw new Error(`no button ${name} on ${await page.evaluate("document.querySelector('pay-checkout')?.step + location.href")}`);
  await page.waitForTimeout(300); // the scroll settles; it is no shift (scrolling moves nothing in the layout)
  await page.mouse.click(point[0], point[1]);
}

/**
 * Polls `expression` in the page until it is truthy (15 s at most). Not `waitForFunction`: under the page's CSP
 * (no 'unsafe-eval') its string predicates cannot run; an evaluate through CDP can.
 */
async function until(page: Page, expression: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
    await page.waitForTimeout(100);
  }
}

/** Waits until the last tap has shown its next screen, and returns its figures. */
async function lastTap(page: Page): Promise<Tap> {
  await until(page, 'window.__payVitals.taps.at(-1)?.screen != null');
  return (await page.evaluate('window.__payVitals.taps.at(-1)')) as Tap;
}

const stepIs = (page: Page, step: string) => until(page, `document.querySelector('pay-checkout')?.step === '${step}'`);

/** One cold load: the first method tap at `pay-ready` or after idle, then pay; Nequi approved, or Daviplata's code. */
async function oneLoad(browser: Browser, sandbox: RunningSandbox, url: string, when: 'ready' | 'idle', gateway: 'Nequi' | 'Daviplata', phone: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  await context.addInitScript(watchVitals);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await emulateMobile(cdp);
  try {
    const ready = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('pay-bench ready '), timeout: 30_000 });
    await page.goto(url, { waitUntil: 'commit' });
    const [, , , x, y] = (await ready).text().split(' ');
    const taps: Load['taps'] = {};
    if (when === 'ready' && gateway === 'Nequi' && x !== 'none') await page.mouse.click(Number(x), Number(y));
    else {
      await page.waitForTimeout(3_000);
      await tap(page, new RegExp(gateway));
    }
    if (gateway === 'Nequi') taps.method = await lastTap(page);
    else await stepIs(page, 'details');
    const loadingShift = (await page.evaluate('window.__payVitals.shifts.filter((s) => !s.input && s.at < window.__payVitals.taps[0].at).reduce((n, s) => n + s.value, 0)')) as number;
    // Filled through Playwright (its injected script compiles once here), then left idle before the measured tap.
    await page.getByLabel('Tipo de documento').selectOption({ label: 'Cédula de Ciudadanía (CC)' });
    await page.getByLabel('Número de documento').fill('1020304050');
    const phoneField = page.getByLabel('Número de celular');
    if (await phoneField.count()) await phoneField.fill(phone);
    await page.waitForTimeout(1_000);
    await tap(page, /^\s*Pagar/);
    taps.pay = await lastTap(page);
    // Loads run one at a time: the newest order is this one.
    const orders = (await (await fetch(`${sandbox.controlUrl}/orders`)).json()) as { data: { id_order: number; otp?: string | null }[] };
    const order = orders.data.sort((a, b) => b.id_order - a.id_order)[0];
    if (!order) throw new Error('no order');
    if (gateway === 'Nequi') {
      // The service's answer changes the screen (approval on the phone): a change the buyer did not cause.
      await page.waitForTimeout(1_000);
      await fetch(`${sandbox.controlUrl}/orders/${order.id_order}/approve`, { method: 'POST' });
    } else {
      await page.getByLabel('Código de 6 dígitos').fill(order.otp ?? '');
      await page.waitForTimeout(1_000);
      await tap(page, /Confirmar pago/);
      taps.code = await lastTap(page);
    }
    await stepIs(page, 'paid');
    await page.waitForTimeout(1_000); // the receipt settles (its logo, the store link)
    const shifts = (await page.evaluate('window.__payVitals.shifts')) as { at: number; value: number; input: boolean; sources: { node: string; from: number[]; to: number[] }[] }[];
    const firstTapAt = (await page.evaluate('window.__payVitals.taps[0].at')) as number;
    const unasked = shifts.filter((s) => !s.input);
    const laterShift = unasked.filter((s) => s.at >= firstTapAt).reduce((n, s) => n + s.value, 0);
    if (process.env.PAY_BENCH_DEBUG) {
      const v = (await page.evaluate(`({ ready: window.__payVitals.ready, taps: window.__payVitals.taps, long: window.__payVitals.long, events: window.__payVitals.events, loaf: window.__payVitals.loaf, defined: window.__payVitals.defined,
        // When each script and API call was asked for and arrived: what a quick tap may wait for.
        resources: performance.getEntriesByType('resource').map((r) => [r.name.replace(/^.*\\//, '').slice(0, 24), Math.round(r.startTime), Math.round(r.responseEnd)]) })`)) as object;
      console.log(url, when, gateway, JSON.stringify(v), JSON.stringify(unasked.map((s) => [Math.round(s.at), s.value.toFixed(4), s.sources.map((x) => `${x.node} ${x.from.map(Math.round)}→${x.to.map(Math.round)}`)])));
    }
    const worst = unasked.sort((a, b) => b.value - a.value)[0];
    return {
      loadingShift,
      laterShift,
      worst: worst ? `${shiftText(worst.value)} at ${Math.round(worst.at)} ms: ${worst.sources.map((s) => `${s.node} y ${s.from.map(Math.round).join('/')} → ${s.to.map(Math.round).join('/')}`).join('; ')}` : '',
      taps,
    };
  } finally {
    await context.close();
  }
}

const fmt = (xs: number[]) => (xs.length ? `${Math.round(median(xs))} ms (worst ${Math.round(Math.max(...xs))})` : '—');

export async function benchVitals({ loads = 5 }: { loads?: number } = {}): Promise<boolean> {
  if (!existsSync(path.join(hostedDir, 'index.html'))) throw new Error('dist/hosted is missing: run `npm run build` first');
  const load = loadavg()[0] ?? 0;
  const sandbox = await startSandbox({ port: 0, hostedDir });
  const merchant = await startMerchantPage(sandbox);
  const browser = await chromium.launch(chromiumLaunchOptions());
  const urls: Record<PageKind, (link: string) => string> = { hosted: (link) => `${sandbox.checkoutUrl}/${link}`, embed: (link) => merchant.url(link), 'embed + reserve': (link) => merchant.url(link, true) };
  // PAY_BENCH_PAGES=hosted,embed picks some (for a quicker look at one change); all three by default.
  const kinds = (Object.keys(urls) as PageKind[]).filter((kind) => !process.env.PAY_BENCH_PAGES || process.env.PAY_BENCH_PAGES.split(',').includes(kind));
  // A fresh link for every load: a paid link shows its "already paid" screen.
  let links = 0;
  const fresh = async (kind: PageKind) => {
    const answer = await fetch(`${sandbox.url}/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'merchant-key': demoMerchantKey },
      body: JSON.stringify({ description: `Pedido ${(links += 1)}`, amount: 50_000 }),
    });
    const { data } = (await answer.json()) as { data: { hash: string } };
    return urls[kind](data.hash);
  };
  const results: Record<PageKind, { ready: Load[]; idle: Load[]; code: Load[] }> = {
    hosted: { ready: [], idle: [], code: [] },
    embed: { ready: [], idle: [], code: [] },
    'embed + reserve': { ready: [], idle: [], code: [] },
  };
  let phone = 3001230000;
  try {
    // In turn, so a busy moment on the machine falls on every page alike.
    for (let i = 0; i < loads; i++) {
      for (const kind of kinds) {
        results[kind].ready.push(await oneLoad(browser, sandbox, await fresh(kind), 'ready', 'Nequi', String((phone += 1))));
        results[kind].idle.push(await oneLoad(browser, sandbox, await fresh(kind), 'idle', 'Nequi', String((phone += 1))));
        // The SMS code's tap on every other round (a Daviplata flow): fewer loads keep a run to a few minutes.
        if (i % 2 === 0) results[kind].code.push(await oneLoad(browser, sandbox, await fresh(kind), 'idle', 'Daviplata', String((phone += 1))));
      }
    }
  } finally {
    await browser.close();
    await merchant.close();
    await sandbox.close();
  }
  const loadAfter = loadavg()[0] ?? 0;
  console.log(
    `\n## vitals: layout shift and tap → next visible change, ${loads} cold loads per case, in turn (${mobileProfile.latencyMs} ms RTT, ${mobileProfile.downloadBps / 1e6} Mbps, ${mobileProfile.cpuRate}x CPU, 390×844)`,
  );
  console.log(`load average ${load.toFixed(1)} → ${loadAfter.toFixed(1)} on ${(await import('node:os')).availableParallelism()} cores${Math.max(load, loadAfter) > 1.5 ? ' (LOADED: other processes share the cores; tap times are not a quiet machine\'s)' : ''}`);
  let ok = true;
  const verdict = (met: boolean) => (met ? 'PASS' : 'OVER');
  for (const kind of kinds) {
    const all = [...results[kind].ready, ...results[kind].idle, ...results[kind].code];
    const loading = Math.max(...all.map((l) => l.loadingShift));
    const later = Math.max(...all.map((l) => l.laterShift));
    const tapsOf = (runs: Load[], name: TapName, key: keyof Tap) => runs.map((l) => l.taps[name]?.[key]).filter((n): n is number => typeof n === 'number');
    // The same tap (Nequi on the method screen) at pay-ready and after 3 s idle: to its first visible change, and to the
    // details screen itself.
    const ratioOf = (key: keyof Tap) => median(tapsOf(results[kind].ready, 'method', key)) / Math.max(1, median(tapsOf(results[kind].idle, 'method', key)));
    const changes = [...tapsOf(all, 'method', 'changed'), ...tapsOf(all, 'pay', 'changed'), ...tapsOf(all, 'code', 'changed')];
    const shiftBudget = kind === 'embed' ? 0.1 : 0;
    const checks = {
      shift: loading <= shiftBudget && later <= shiftBudget,
      change: ratioOf('changed') <= 1.3,
      screen: ratioOf('screen') <= 1.3,
      within: Math.max(...changes) <= 100,
    };
    ok &&= Object.values(checks).every(Boolean);
    console.log(`\n### ${kind}`);
    console.log(
      `layout shift (no input in the 500 ms before), worst load: loading ${shiftText(loading)}, after the first tap ${shiftText(later)} (budget ${shiftBudget}${kind === 'embed' ? ': two lines, no merchant CSS' : ''}): ${verdict(checks.shift)}`,
    );
    const worst = all.map((l) => l.worst).filter(Boolean)[0];
    if (worst) console.log(`  the biggest: ${worst}`);
    console.log(`method tap → first visible change: at pay-ready ${fmt(tapsOf(results[kind].ready, 'method', 'changed'))}, after 3 s idle ${fmt(tapsOf(results[kind].idle, 'method', 'changed'))}: ${ratioOf('changed').toFixed(2)}× (budget 1.3×): ${verdict(checks.change)}`);
    console.log(`method tap → the details screen:  at pay-ready ${fmt(tapsOf(results[kind].ready, 'method', 'screen'))}, after 3 s idle ${fmt(tapsOf(results[kind].idle, 'method', 'screen'))}: ${ratioOf('screen').toFixed(2)}× (budget 1.3×): ${verdict(checks.screen)}`);
    console.log(`pay tap → first visible change ("Creando tu pago…"): ${fmt(tapsOf(all, 'pay', 'changed'))}; → the waiting screen: ${fmt(tapsOf(all, 'pay', 'screen'))}`);
    console.log(`code tap → first visible change ("Confirmando…"): ${fmt(tapsOf(all, 'code', 'changed'))}; → the receipt: ${fmt(tapsOf(all, 'code', 'screen'))}`);
    console.log(`every tap → its first visible change ≤ 100 ms (worst ${Math.round(Math.max(...changes))} ms${Math.max(load, loadAfter) > 1.5 ? ', on a loaded machine' : ''}): ${verdict(checks.within)}`);
  }
  return ok;
}
