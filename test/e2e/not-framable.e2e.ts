/**
 * No other site can frame the hosted checkout: a page on another origin that puts `/checkout/{hash}` in an iframe (to
 * lay a fake overlay on it and have the buyer approve a push payment) gets an empty frame, whether the sandbox draws the
 * page or a merchant's server does with renderHostedPage() as the hosted-page docs' Node example does. The merchant's
 * own origin, listed in `frameAncestors`, frames it and sees the checkout: the check below can see a checkout in a
 * frame. Engine-neutral (support/driver.ts): run.mjs runs it in Chromium, Firefox and WebKit.
 */
import assert from 'node:assert/strict';
import { readFile, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { currentEngine, engineLabel } from '../harness/engines.mjs';
import { listenOnLoopback, type RunningHandler } from '../node/handler-harness.js';
import { createCheckoutHandler, toNodeListener, type CheckoutLinkInfo } from '../../src/server/index.js';
import { configureHostedPage, hostedEntryPath, hostedPageLinks, renderHostedPage } from '../../src/server/hosted-page/index.js';
import { openDriver, stopSharedDrivers, waitFor, type Driver } from './support/driver.js';
import { hostedDir, startSandboxWorld, type SandboxWorld } from './support/harness.js';

const engine = currentEngine();
const links: Record<string, CheckoutLinkInfo> = { 'tienda-1': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' } };

/**
 * A merchant's server as the hosted-page docs' Node example writes it: the handler under /v1, `/checkout/{hash}`
 * drawn by renderHostedPage() and sent with the headers it answers; the page's files from dist/hosted (the docs leave
 * them to a static host). `frameAncestors`: the origins it lets frame the page.
 */
async function docsExampleServer(world: SandboxWorld, frameAncestors?: string[]): Promise<RunningHandler> {
  const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: world.sandbox.baseUrl, resolveLink: (hash) => links[hash] ?? null, limits: false });
  const api = toNodeListener(handler);
  let origin = '';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const hash = /^\/checkout\/([^/.]+)\/?$/.exec(url.pathname)?.[1];
    if (!hash) {
      if (url.pathname.startsWith('/v1/')) return void api(req, res);
      const file = path.join(hostedDir, path.normalize(url.pathname.replace(/^\/checkout\//, '')));
      if (!url.pathname.startsWith('/checkout/') || !file.startsWith(hostedDir + path.sep)) return void res.writeHead(404).end();
      return readFile(file, (error, body) => (error ? res.writeHead(404).end() : res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(body)));
    }
    const page = configureHostedPage(readFileSync(path.join(hostedDir, 'index.html'), 'utf8'), { apiBase: `${origin}/v1` });
    const entryScript = readFileSync(path.join(hostedDir, hostedEntryPath(page)?.replace(/^\/checkout\//, '') ?? 'missing'), 'utf8');
    const locale = url.searchParams.get('locale') === 'en' ? 'en' : 'es';
    const answer = await handler(new Request(new URL(`/v1/checkout/links/${hash}`, url)));
    const { html, headers } = await renderHostedPage(page, { hash: decodeURIComponent(hash), link: answer.ok ? await answer.json() : null, locale, entryScript, url, frameAncestors, withHeaders: true });
    const named = hostedPageLinks(html, locale);
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...(named.length > 0 ? { Link: named.join(', ') } : {}) }).end(html);
  });
  const running = await listenOnLoopback(server);
  origin = running.url;
  return running;
}

/** Another site: `/?src=URL` is a page that frames URL and says when the frame has loaded. */
function framingSite(): Promise<RunningHandler> {
  return listenOnLoopback(
    createServer((req, res) => {
      const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
      const page = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Oferta</title></head><body>
<iframe title="Pago" width="420" height="640" src="${src.replace(/"/g, '&quot;')}" onload="window.framed = true"></iframe></body></html>`;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    }),
  );
}

/** What the frame holds: the checkout's store line once drawn, '' for a frame without a checkout, undefined for none the driver can read. */
const checkoutInFrame = `(() => {
  const checkout = document.querySelector('pay-checkout');
  return checkout ? (checkout.shadowRoot?.textContent ?? '').replace(/\\s+/g, ' ').includes('Tienda Demo') ? 'checkout' : 'element' : '';
})()`;

describe(`the hosted page cannot be framed by another site, in ${engineLabel[engine]}`, () => {
  let world: SandboxWorld;
  let merchant: RunningHandler;
  let framingMerchant: RunningHandler;
  let site: RunningHandler;
  let driver: Driver;

  before(async () => {
    world = await startSandboxWorld();
    site = await framingSite();
    merchant = await docsExampleServer(world);
    framingMerchant = await docsExampleServer(world, [site.url]);
    driver = await openDriver(engine);
  });
  after(async () => {
    await driver?.close();
    await stopSharedDrivers();
    await Promise.all([merchant?.close(), framingMerchant?.close(), site?.close()]);
    await world?.close();
  });

  /** Opens the other site framing `src`; the frame's reading once loaded, and again a moment later (a late draw). */
  async function framed(src: string): Promise<(string | undefined)[]> {
    await driver.goto(`${site.url}/?src=${encodeURIComponent(src)}`);
    await waitFor(driver, 'window.framed === true', 'the frame loaded', 20_000);
    const first = await driver.frameEvaluate<string>(checkoutInFrame);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return [first, await driver.frameEvaluate<string>(checkoutInFrame)];
  }

  it('the merchant’s own origin, listed in frameAncestors, frames the checkout and sees it', async () => {
    const readings = await framed(`${framingMerchant.url}/checkout/tienda-1`);
    assert.equal(readings.at(-1), 'checkout', `the frame shows the checkout (readings: ${readings.join(', ')})`);
  });

  it('a site framing the sandbox’s checkout gets an empty frame', async () => {
    for (const reading of await framed(`${world.sandbox.checkoutUrl}/demo-fixed`)) assert.ok(reading !== 'checkout' && reading !== 'element', `no checkout in the frame (read: ${reading})`);
  });

  it('a site framing a page renderHostedPage draws on a merchant’s server gets an empty frame', async () => {
    for (const reading of await framed(`${merchant.url}/checkout/tienda-1`)) assert.ok(reading !== 'checkout' && reading !== 'element', `no checkout in the frame (read: ${reading})`);
  });
});
