/**
 * The hosted page served by the sandbox arrives with its first screen drawn (declarative shadow DOM) and
 * the link answer in it, so the amount and the methods show with no script at all; the element then takes over
 * without asking for the link again, under the page's strict CSP. A static copy of dist/hosted still fetches it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { configureHostedPage } from '../../src/server/hosted-page/deploy.js';
import { Buyer, completeOutside, gateways, hostedDir, onlyOrder, startWorld, type World } from './support/harness.js';

const linkRequest = /\/v1\/checkout\/links\/[^/]+$/;

/** No CSP violation and no uncaught error on the buyer's page. */
async function assertNothingWrong(buyer: Buyer): Promise<void> {
  const { violations, errors } = await buyer.recorded();
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(buyer.pageErrors, []);
}

/**
 * A browser with scripts off: the page's own inline scripts too (the entry is carried in the page). Blocking only the
 * .js files let the inline entry run: with the English catalog's chunk refused, the element fell back to the bundled
 * Spanish screens and replaced the drawn English one, sooner or later after the load event as the machine's load
 * decided, so the page's text was read in either language. The test harness's own watcher still runs.
 */
const noScriptContext = (world: World) => world.browser.newContext({ javaScriptEnabled: false });

describe('hosted page: server-rendered first screen', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.close());
  beforeEach(() => world.reset());

  it('the HTML carries the first screen and the link answer', async () => {
    const page = await (await fetch(`${world.sandbox.checkoutUrl}/demo-fixed`)).text();
    assert.match(page, /<template shadowroot="open" shadowrootmode="open">/);
    assert.match(page, /50\.000/);
    assert.match(page, /Elige cómo pagar/);
    assert.match(page, /<script type="application\/json">\{"data":\{"hash":"demo-fixed"/);
    assert.match(page, /style-src 'self' 'sha256-/, 'the shadow roots’ styles are allowed by hash, not unsafe-inline');
  });

  it('shows the amount and the methods with every script blocked, under its CSP', async () => {
    const buyer = await Buyer.create(world, { context: await noScriptContext(world) });
    try {
      await buyer.open('demo-fixed');
      const text = await buyer.text();
      assert.match(text, /Tienda Demo.*50\.000.*Elige cómo pagar.*Nequi.*Daviplata.*Bre-B/);
      assert.deepEqual((await buyer.recorded()).violations, []);
      assert.deepEqual(buyer.consoleErrors, [], 'no style refused by the CSP');
    } finally {
      await buyer.close();
    }
  });

  it('the element takes over without a link request, and the buyer pays', async () => {
    const buyer = await Buyer.create(world);
    const requests: string[] = [];
    buyer.page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    try {
      await buyer.open('demo-fixed');
      await buyer.payWith(gateways.push);
      await completeOutside(world, await onlyOrder(world, 'demo-fixed'));
      await buyer.waitForStep('paid');
      assert.deepEqual(requests.filter((r) => linkRequest.test(r)), [], 'the link came with the page');
      assert.ok(requests.some((r) => r.startsWith('POST /v1/checkout/links/demo-fixed/orders')));
      // The server's copy of the first screen is gone: one screen in the element.
      assert.equal(await buyer.page.evaluate(() => document.querySelector('pay-checkout')?.shadowRoot?.querySelectorAll('[data-step]').length), 1);
      await assertNothingWrong(buyer);
    } finally {
      await buyer.close();
    }
  });

  for (const [query, heading, other] of [
    ['', 'Elige cómo pagar', 'Choose how to pay'],
    ['?locale=en', 'Choose how to pay', 'Elige cómo pagar'],
  ] as const) {
    it(`${query || 'Spanish'}: the element takes over the drawn screen in its language, with no other screen in between and no link request`, async () => {
      const buyer = await Buyer.create(world);
      const requests: string[] = [];
      buyer.page.on('request', (request) => requests.push(new URL(request.url()).pathname));
      // Every screen heading the element shows, frame by frame from the first: a re-render flash would add one.
      // A string: tsx's keepNames would wrap the functions in a `__name` helper that the page lacks.
      await buyer.page.addInitScript(`(() => {
        const seen = (window.seenHeadings = []);
        const look = () => {
          for (const step of document.querySelector('pay-checkout')?.shadowRoot?.querySelectorAll('[data-step]') ?? []) {
            const text = step.shadowRoot?.querySelector('h2')?.textContent?.trim();
            if (text && seen.at(-1) !== text) seen.push(text);
          }
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      })()`);
      try {
        await buyer.page.goto(`${buyer.url('demo-fixed')}${query}`);
        await buyer.waitForStep('method');
        await buyer.page.waitForFunction(() => document.querySelector('pay-checkout')?.shadowRoot?.querySelectorAll('[data-step]').length === 1);
        const seen = await buyer.page.evaluate(() => (window as unknown as { seenHeadings: string[] }).seenHeadings);
        assert.deepEqual(seen, [heading], 'only the first screen, from the first frame on');
        assert.equal(await buyer.page.evaluate(() => document.documentElement.lang), query ? 'en' : 'es');
        assert.doesNotMatch(await buyer.text(), new RegExp(other));
        assert.deepEqual(requests.filter((r) => linkRequest.test(r)), [], 'the link came with the page');
        assert.deepEqual(requests.filter((r) => /\/assets\/main-/.test(r)), [], 'the entry script came with the page');
        // The drawn screen's logo tiles were empty; the element's own render brings the logos.
        await buyer.page.waitForFunction(() => {
          const images = [...(document.querySelector('pay-checkout')?.shadowRoot?.querySelector('pay-step-method')?.shadowRoot?.querySelectorAll('img') ?? [])];
          return images.length === 4 && images.every((image) => image.complete && image.naturalWidth > 0);
        });
        // The screen on show is the element's own: a method goes on to the details.
        await buyer.page.locator('button[data-gateway="1"]').click();
        await buyer.waitForStep('details');
        await assertNothingWrong(buyer);
      } finally {
        await buyer.close();
      }
    });
  }

  it('English shows its amount and methods with every script blocked', async () => {
    const buyer = await Buyer.create(world, { context: await noScriptContext(world) });
    try {
      await buyer.page.goto(`${buyer.url('demo-fixed')}?locale=en`);
      assert.match(await buyer.text(), /Tienda Demo.*COP\s50,000.*Choose how to pay.*Nequi.*Daviplata.*Bre-B/);
      assert.deepEqual((await buyer.recorded()).violations, []);
      assert.deepEqual(buyer.consoleErrors, [], 'no style refused by the CSP');
    } finally {
      await buyer.close();
    }
  });

  it('a first screen arriving in pieces is painted whole, never half (no row moves when the rest comes)', async () => {
    // The page as the sandbox draws it, sent in two parts: up to the middle of the method list, then the rest a second
    // later, as a slow line may deliver it. Without the page's render-blocking mark, Chromium paints the first part.
    const page = await (await fetch(`${world.sandbox.checkoutUrl}/demo-fixed`)).text();
    const cut = page.lastIndexOf('<li', page.indexOf('data-gateway="2"'));
    assert.ok(cut > 0 && page.indexOf('id="checkout-end"') > cut, 'the methods come before the mark after <main>');
    const restAfterMs = 1_000;
    const server = http.createServer((req, res) => {
      if (req.url !== '/checkout/demo-fixed') return void res.writeHead(404).end();
      // Blank text after it past the parser's first read, so the first part is parsed (and could be painted) alone.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).write(page.slice(0, cut) + ' '.repeat(8_192));
      setTimeout(() => res.end(page.slice(cut)), restAfterMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const buyer = await Buyer.create(world);
    try {
      const started = Date.now();
      await buyer.page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout/demo-fixed`);
      const arrived = Date.now() - started;
      await buyer.page.waitForTimeout(300);
      const paint = (await buyer.page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1")) as number;
      assert.ok(arrived >= restAfterMs, `the page took ${arrived} ms to arrive`);
      assert.ok(paint >= restAfterMs, `first paint at ${Math.round(paint)} ms, before the rest of the screen came at ${restAfterMs} ms`);
    } finally {
      await buyer.close();
      server.close();
    }
  });

  it('a method tapped on the drawn screen before the entry script has come opens its details once the element takes over', async () => {
    // The page sent in two parts: everything up to the entry script (the drawn screen, and the small script that keeps
    // a tap), then the entry 1.5 s later, as a slow line delivers the page's largest part last. Everything else (the
    // chunks, the API) from the sandbox, on this origin.
    const page = await (await fetch(`${world.sandbox.checkoutUrl}/demo-fixed`)).text();
    const cut = page.indexOf('<script type="module">');
    assert.ok(cut > page.indexOf('addEventListener("click"'), 'the tap-keeping script comes before the entry');
    const restAfterMs = 1_500;
    const sandbox = new URL(world.sandbox.checkoutUrl).origin;
    const server = http.createServer((req, res) => {
      if (req.url === '/checkout/demo-fixed') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).write(page.slice(0, cut) + ' '.repeat(8_192));
        return void setTimeout(() => res.end(page.slice(cut)), restAfterMs);
      }
      const body: Buffer[] = [];
      req.on('data', (chunk: Buffer) => body.push(chunk)).on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
        void fetch(`${sandbox}${req.url}`, { method: req.method, headers, body: body.length ? Buffer.concat(body) : undefined }).then(async (answer) => {
          const kept = [...answer.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name));
          res.writeHead(answer.status, Object.fromEntries(kept)).end(Buffer.from(await answer.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const buyer = await Buyer.create(world);
    try {
      const started = Date.now();
      const loaded = buyer.page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout/demo-fixed`);
      const nequi = buyer.page.getByRole('button', { name: /Nequi/ });
      await nequi.waitFor();
      await nequi.click();
      const tappedAt = Date.now() - started;
      assert.equal(await buyer.page.evaluate(() => customElements.get('pay-checkout') === undefined), true, `tapped at ${tappedAt} ms, with no element code yet`);
      await loaded;
      await buyer.waitForStep('details');
      assert.equal(await buyer.heading(), 'Tus datos');
      assert.ok(Date.now() - started >= restAfterMs, 'the details after the entry came');
      await assertNothingWrong(buyer);
    } finally {
      await buyer.close();
      server.close();
    }
  });

  it('a static copy of dist/hosted is unchanged: no first screen in its HTML, the element fetches the link', async () => {
    const index = configureHostedPage(readFileSync(path.join(hostedDir, 'index.html'), 'utf8'), { apiBase: `${world.sandbox.url}/v1` });
    // A static host with one rewrite rule: files under /checkout/ as they are, every other path index.html.
    const server = http.createServer((req, res) => {
      const rel = (req.url ?? '/').split('?')[0]?.replace(/^\/checkout\//, '') ?? '';
      const file = path.join(hostedDir, rel);
      if (rel.startsWith('assets/') && file.startsWith(hostedDir)) {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
      } else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(index);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const buyer = await Buyer.create(world);
    const requests: string[] = [];
    buyer.page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    try {
      await buyer.page.goto(`http://localhost:${(server.address() as AddressInfo).port}/checkout/demo-fixed`);
      await buyer.waitForStep('method');
      assert.ok(requests.some((r) => linkRequest.test(r)), 'a static page asks for its link');
      assert.ok(requests.some((r) => /\/assets\/main-/.test(r)), 'and its entry script');
      assert.doesNotMatch(index, /shadowrootmode/);
      // The later steps' chunk takes what it shares with the entry from the entry loaded by URL.
      await buyer.page.locator('button[data-gateway="1"]').click();
      await buyer.waitForStep('details');
      assert.deepEqual(buyer.pageErrors, []);
      assert.deepEqual((await buyer.recorded()).violations, []);
    } finally {
      await buyer.close();
      server.close();
    }
  });
});
