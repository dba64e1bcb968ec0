/**
 * One cold load of a hosted page under the mobile profile (timing.ts), traced, to see what happens between the HTML
 * and the first interactive screen: each request's start and end (resource timing), long tasks, when each element is
 * defined, the element's step frame by frame, and the bench's amount and interactive moments. Not part of `npm run
 * bench`. Usage: `npx tsx bench/first-paint-trace.ts [/checkout/demo-fixed?locale=en]`; PROFILE=1 writes a
 * CPU profile to /tmp/first-paint.cpuprofile, TRACE=1 a Chromium trace to /tmp/first-paint-trace.json; HOSTED_DIR=…
 * serves another build of the page (an A/B against dist/hosted).
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startSandbox } from '../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { firstScreenMoments, watchFirstScreen } from './first-paint.js';
import { emulateMobile, hostedDir } from './timing.js';

const url = process.argv[2] ?? '/checkout/demo-fixed';
const sandbox = await startSandbox({ port: 0, hostedDir: process.env.HOSTED_DIR ?? hostedDir });
await (await fetch(sandbox.url + url)).text(); // Lit SSR loads on the first page
const browser = await chromium.launch(chromiumLaunchOptions());
const context = await browser.newContext();
await context.addInitScript(watchFirstScreen);
// Long tasks, when each element is defined, and the element's step and screens at every frame that changes them.
await context.addInitScript(`(() => {
  window.__tasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  window.__log = [];
  const define = customElements.define.bind(customElements);
  customElements.define = (name, ctor, o) => { window.__log.push([Math.round(performance.now()), 'define ' + name]); return define(name, ctor, o); };
  let last = '';
  const sample = () => {
    const el = document.querySelector('pay-checkout');
    const screens = el?.shadowRoot?.querySelectorAll('[data-step]') ?? [];
    const now = [el ? 'el' : '-', el?.step, screens.length, [...screens].map((s) => s.localName + (s.shadowRoot?.querySelector('h2') ? '+h2' : '')).join(',')].join(' ');
    if (now !== last) window.__log.push([Math.round(performance.now()), last = now]);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
})()`);
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await emulateMobile(cdp);
const trace = process.env.TRACE ? '/tmp/first-paint-trace.json' : undefined;
if (trace)
  await browser.startTracing(page, {
    path: trace,
    screenshots: false,
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.compile', 'blink.user_timing', 'loading'],
  });
if (process.env.PROFILE) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}
const moments = firstScreenMoments(page);
await page.goto(sandbox.url + url, { waitUntil: 'commit' });
const [amount, interactive] = await Promise.all([moments.amount, moments.interactive]);
if (process.env.PROFILE) {
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/first-paint.cpuprofile', JSON.stringify(profile));
}
await page.waitForTimeout(1500);
if (trace) await browser.stopTracing();
const r = await page.evaluate(() => ({
  ...(({ __log, __tasks }) => ({ __log, __tasks }))(
    window as unknown as {
      __log: [number, string][];
      __tasks: [number, number][];
    },
  ),
  nav: (({ requestStart, responseStart, responseEnd, domInteractive, domContentLoadedEventEnd }) => ({
    requestStart,
    responseStart,
    responseEnd,
    domInteractive,
    dcl: domContentLoadedEventEnd,
  }))(performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming),
  resources: performance.getEntriesByType('resource').map((e) => {
    const t = e as PerformanceResourceTiming;
    return {
      name: t.name.replace(/^https?:\/\/[^/]+/, ''),
      start: Math.round(t.startTime),
      reqStart: Math.round(t.requestStart),
      resStart: Math.round(t.responseStart),
      end: Math.round(t.responseEnd),
      bytes: t.transferSize,
      initiator: t.initiatorType,
    };
  }),
}));
const { __log: log, __tasks: tasks, nav, resources } = r;
console.log(
  JSON.stringify(
    {
      interactive: Math.round(interactive as number),
      amount,
      log,
      tasks,
      nav,
      resources,
    },
    null,
    1,
  ),
);
if (trace) console.log('trace', trace);
await browser.close();
await sandbox.close();
