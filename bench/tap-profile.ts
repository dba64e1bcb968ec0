/**
 * Where a method tap's time goes after idle, on the hosted page under the mobile profile: a CPU profile of the tap
 * (Nequi) to the details screen, summarised by self time per function and per script. Not part of `npm run bench`.
 * Usage: `npx tsx bench/tap-profile.ts [rounds]`; writes the last profile to /tmp/tap.cpuprofile.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { demoMerchantKey } from '../src/sandbox/fixtures.js';
import { startSandbox } from '../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { emulateMobile, hostedDir } from './timing.js';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const rounds = Number(process.argv[2] ?? 3);
const sandbox = await startSandbox({ port: 0, hostedDir });
const browser = await chromium.launch(chromiumLaunchOptions());
const byFunction = new Map<string, number>();
const byScript = new Map<string, number>();
let profile: Profile | undefined;
try {
  for (let i = 0; i < rounds; i++) {
    const answer = await fetch(`${sandbox.url}/v1/links`, { method: 'POST', headers: { 'content-type': 'application/json', 'merchant-key': demoMerchantKey }, body: JSON.stringify({ description: 'Pedido', amount: 50_000 }) });
    const { data } = (await answer.json()) as { data: { hash: string } };
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await emulateMobile(cdp);
    await page.goto(`${sandbox.checkoutUrl}/${data.hash}`);
    await page.waitForTimeout(3_000);
    // The button's centre read before profiling; the tap by coordinates and a plain wait, so no Playwright script runs.
    const [x, y] = (await page.evaluate(`(() => {
      const root = document.querySelector('pay-checkout').shadowRoot.querySelector('[data-step]').shadowRoot;
      const r = [...root.querySelectorAll('button')].find((b) => /Nequi/.test(b.textContent)).getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2];
    })()`)) as [number, number];
    await page.mouse.move(x, y);
    await page.waitForTimeout(300);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.mouse.click(x, y);
    await page.waitForTimeout(600);
    if ((await page.evaluate("document.querySelector('pay-checkout').step")) !== 'details') throw new Error('the tap did not open the details');
    profile = (await cdp.send('Profiler.stop')).profile as unknown as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, k) => {
      const node = nodes.get(id);
      if (!node) return;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      if (functionName === '(idle)' || functionName === '(program)') return;
      const dt = (profile!.timeDeltas[k] ?? 0) / 1000;
      const script = url.replace(/^.*\//, '') || '(native)';
      byFunction.set(`${functionName || '(anonymous)'} ${script}:${lineNumber}:${columnNumber}`, (byFunction.get(`${functionName || '(anonymous)'} ${script}:${lineNumber}:${columnNumber}`) ?? 0) + dt);
      byScript.set(script, (byScript.get(script) ?? 0) + dt);
    });
    await context.close();
  }
} finally {
  await browser.close();
  await sandbox.close();
}
if (profile) writeFileSync('/tmp/tap.cpuprofile', JSON.stringify(profile));
const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${(v / rounds).toFixed(1).padStart(6)} ms  ${k}`).join('\n');
console.log(`self time per tap (mean of ${rounds}, profiler time, 4x CPU):\nby script:\n${top(byScript, 10)}\nby function:\n${top(byFunction, 30)}`);
