/**
 * Bench section "lighthouse" (`npm run bench -- --only lighthouse`): what an outside judge says. Lighthouse (the npm
 * package, 12.2.3, which runs on Node 20; Lighthouse 13 needs Node 22) with its default mobile settings (a Moto G
 * Power screen, simulated slow 4G, 4x CPU) in Debian's Chromium, launched by chrome-launcher from `CHROME_PATH`, on:
 * - the hosted page the built sandbox draws, for a fixed and a dynamic link, in Spanish and in English;
 * - the docs site's home and one framework page, served from dist-docs/ by the docs suite's plain static server.
 * For each it prints the four category scores, the metrics, and every audit that failed or could not run.
 * Budget (docs/site/contributing/benchmarks.md): the hosted page scores 100 for performance, accessibility and best
 * practices and fails no SEO audit but `is-crawlable` (a checkout is `noindex` on purpose); the docs pages score 100
 * for accessibility, best practices and SEO, with no layout shift.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { demoLinks } from '../src/sandbox/fixtures.js';
import { startSandbox } from '../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { serveStatic } from '../test/docs/static-server.mjs';
import { hostedDir } from './timing.js';

const docsDir = fileURLToPath(new URL('../dist-docs/', import.meta.url));

type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';
const categories: readonly Category[] = ['performance', 'accessibility', 'best-practices', 'seo'];
const categoryName: Record<Category, string> = { performance: 'performance', accessibility: 'accessibility', 'best-practices': 'best practices', seo: 'SEO' };

interface Target {
  name: string;
  url: string;
  /** Categories that must score 100. */
  full: readonly Category[];
  /** SEO audits allowed to fail, and why. */
  allowed?: Readonly<Record<string, string>>;
  /** Layout shift must be 0. */
  still?: boolean;
}

/** Scores counted as failed, as Lighthouse's report marks them (red or orange): under 0.9. */
const failing = (score: number | null) => score !== null && score < 0.9;
const scoredModes = new Set(['binary', 'numeric', 'metricSavings']);

export interface LighthouseOptions {
  /** Lighthouse runs per page (default 1); the median run by performance score is the one reported, as Lighthouse advises. */
  runs?: number;
}

export async function benchLighthouse({ runs = 1 }: LighthouseOptions = {}): Promise<boolean> {
  if (!existsSync(path.join(hostedDir, 'index.html'))) throw new Error('dist/hosted is missing: run `npm run build` first');
  if (!existsSync(path.join(docsDir, 'index.html'))) throw new Error('dist-docs is missing: run `npm run docs:build` first');
  const chromePath = process.env.CHROME_PATH || chromiumLaunchOptions().executablePath;
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless=new', ...chromiumLaunchOptions().args] });
  const sandbox = await startSandbox({ port: 0, hostedDir });
  const docs = await serveStatic(docsDir, '/');
  const noindex = { 'is-crawlable': 'the checkout is noindex on purpose: a payment link is not a page to find by search' };
  const hosted = (link: string, locale: 'es' | 'en'): Target => ({
    name: `hosted page, ${link === demoLinks.fixed ? 'fixed' : 'dynamic'} link, ${locale}`,
    url: `${sandbox.url}/checkout/${link}${locale === 'en' ? '?locale=en' : ''}`,
    full: ['performance', 'accessibility', 'best-practices'],
    allowed: noindex,
  });
  const targets: Target[] = [
    hosted(demoLinks.fixed, 'es'),
    hosted(demoLinks.fixed, 'en'),
    hosted(demoLinks.dynamic, 'es'),
    hosted(demoLinks.dynamic, 'en'),
    { name: 'docs home', url: `${docs.origin}/index.html`, full: ['accessibility', 'best-practices', 'seo'], still: true },
    { name: 'docs, React page', url: `${docs.origin}/frameworks/react.html`, full: ['accessibility', 'best-practices', 'seo'], still: true },
  ];
  console.log(`\n## lighthouse: mobile defaults (simulated slow 4G, 4x CPU) in ${chromePath}, ${runs} run(s) per page`);
  let ok = true;
  try {
    for (const target of targets) ok = (await audit(target, chrome.port, runs)) && ok;
  } finally {
    await chrome.kill();
    await docs.close();
    await sandbox.close();
  }
  return ok;
}

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
const scoreOf = (lhr: Report, category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);

async function audit(target: Target, port: number, runs: number): Promise<boolean> {
  const reports: Report[] = [];
  for (let run = 0; run < runs; run++) {
    const result = await lighthouse(target.url, { port, output: 'json', logLevel: 'error' });
    if (!result) throw new Error(`${target.name}: Lighthouse returned nothing`);
    reports.push(result.lhr);
  }
  reports.sort((a, b) => scoreOf(a, 'performance') - scoreOf(b, 'performance'));
  const lhr = reports[Math.floor((reports.length - 1) / 2)] as Report;
  const score = (category: Category) => scoreOf(lhr, category);
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '?';
  console.log(`\n${target.name} (${target.url.replace(/^https?:\/\/[^/]+/, '')})`);
  const spread = runs > 1 ? ` (performance by run: ${reports.map((r) => scoreOf(r, 'performance')).join(', ')}; the median run below)` : '';
  console.log(`  ${categories.map((c) => `${categoryName[c]} ${score(c)}`).join(' · ')}${spread}`);
  console.log(`  FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`);
  const problems: string[] = [];
  /** Audits Lighthouse could not compute, by error: this Chromium's traces can be newer than the release reads. */
  const notRun = new Map<string, string[]>();
  for (const category of categories) {
    if (target.full.includes(category) && score(category) < 100) problems.push(`${categoryName[category]} ${score(category)}, not 100`);
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const result = lhr.audits[ref.id];
      if (!result) continue;
      if (result.scoreDisplayMode === 'error') {
        const why = String(result.errorMessage ?? '').split('\n')[0] ?? '';
        notRun.set(why, [...(notRun.get(why) ?? []), `${category}/${result.id}`]);
        continue;
      }
      if (!scoredModes.has(result.scoreDisplayMode) || !failing(result.score)) continue;
      const allowed = category === 'seo' ? target.allowed?.[result.id] : undefined;
      console.log(`  failed${allowed ? ' (allowed)' : ''}  ${category}/${result.id}: ${result.title}${result.displayValue ? ` (${result.displayValue})` : ''}${allowed ? `: ${allowed}` : ''}`);
      if (category === 'seo' && !allowed) problems.push(`SEO audit ${result.id} failed`);
    }
  }
  for (const [why, ids] of notRun) console.log(`  could not run  ${ids.join(', ')}: ${why}`);
  if (target.still && Number(lhr.audits['cumulative-layout-shift']?.numericValue ?? 1) > 0) problems.push(`layout shift ${metric('cumulative-layout-shift')}, not 0`);
  for (const warning of lhr.runWarnings) console.log(`  warning: ${warning.split('\n')[0]}`);
  const ok = problems.length === 0;
  console.log(`  ${ok ? 'PASS' : `OVER: ${problems.join('; ')}`}`);
  return ok;
}
