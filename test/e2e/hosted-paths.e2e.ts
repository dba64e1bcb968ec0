/**
 * The built hosted page at every path shape (trailing slash, deeper prefix, query) renders the checkout in Chromium,
 * and its own CSP lets the gateway icons load from the service origin, here another origin than the page's.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startSandbox } from '../../src/sandbox/server.js';
import { Buyer, hostedDir, startWorld, type World } from './support/harness.js';

/**
 * Every gateway icon of the method screen, once each has loaded or failed. A function, not a string: Playwright
 * polls a string predicate through `eval`, which the page's own CSP (no 'unsafe-eval') refuses.
 */
const iconsLoaded = () => {
  const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]');
  const images = [...(screen?.shadowRoot?.querySelectorAll('img') ?? [])];
  if (!images.length || images.some((img) => !img.complete)) return null;
  return images.map((img) => ({ src: img.src, width: img.naturalWidth, visible: img.checkVisibility() }));
};

describe('hosted page: any path shape, icons under its own CSP', () => {
  let world: World;
  /** The page's origin: localhost, while the sandbox (API and icons) says 127.0.0.1. */
  let pageOrigin: string;
  before(async () => {
    world = await startWorld();
    pageOrigin = world.sandbox.url.replace('127.0.0.1', 'localhost');
  });
  after(() => world.close());
  beforeEach(() => world.reset());

  async function icons(buyer: Buyer): Promise<{ src: string; width: number; visible: boolean }[]> {
    const handle = await buyer.page.waitForFunction(iconsLoaded, undefined, { timeout: 15_000, polling: 50 });
    return (await handle.jsonValue()) as { src: string; width: number; visible: boolean }[];
  }

  for (const shape of ['/checkout/demo-fixed/', '/checkout/demo-fixed', '/checkout/tienda/demo-fixed/?locale=en']) {
    it(`${shape} renders the checkout and every gateway icon loads from the service origin`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.page.goto(`${pageOrigin}${shape}`);
        await buyer.waitForStep('method', 15_000);
        assert.match(await buyer.text(), shape.includes('locale=en') ? /Tienda Demo.*(Nequi|Daviplata)/ : /Tienda Demo.*Nequi/);
        const loaded = await icons(buyer);
        assert.ok(loaded.length >= 3, `expected the gateways' icons, got ${JSON.stringify(loaded)}`);
        for (const icon of loaded) {
          assert.equal(new URL(icon.src).origin, world.sandbox.url, 'the icon is on the service origin, not the page’s');
          assert.ok(icon.width > 0 && icon.visible, `icon not shown: ${JSON.stringify(icon)}`);
        }
        const { violations, errors } = await buyer.recorded();
        assert.deepEqual(violations, []);
        assert.deepEqual(errors, []);
        assert.deepEqual(buyer.pageErrors, []);
      } finally {
        await buyer.close();
      }
    });
  }

  for (const [query, words] of [['', /no tiene un enlace de pago/], ['?locale=en', /has no payment link/]] as const) {
    it(`an address that names no link says so, in its language (${query || 'es'})`, async () => {
      const buyer = await Buyer.create(world);
      try {
        await buyer.page.goto(`${pageOrigin}/checkout/index.html${query}`);
        const message = await buyer.page.waitForSelector('main .hosted-message', { timeout: 15_000 });
        assert.match((await message.textContent()) ?? '', words);
        assert.equal(await buyer.page.locator('pay-checkout').count(), 0);
        assert.deepEqual(buyer.pageErrors, []);
      } finally {
        await buyer.close();
      }
    });
  }

  it('the check can fail: the page as it was (CSP img-src without the service origin) gets its icons blocked', async () => {
    // The built page without what the sandbox now writes into it: served as is, with the old CSP and an empty API base.
    const dir = mkdtempSync(path.join(tmpdir(), 'pay-hosted-old-'));
    cpSync(hostedDir, dir, { recursive: true });
    const index = path.join(dir, 'index.html');
    writeFileSync(index, readFileSync(index, 'utf8').replace(/<meta name="pay-api-base"[^>]*>/, ''));
    const old = await startSandbox({ port: 0, hostedDir: dir, defaultReceiver: false });
    const buyer = await Buyer.create(world);
    try {
      await buyer.page.goto(`${old.url.replace('127.0.0.1', 'localhost')}/checkout/demo-fixed/`);
      await buyer.waitForStep('method', 15_000);
      await buyer.page.waitForFunction(() => window.__e2e.violations.some((v) => v.startsWith('img-src')), undefined, { timeout: 15_000 });
      const blocked = (await icons(buyer)).filter((icon) => icon.width === 0 || !icon.visible);
      assert.ok(blocked.length >= 3, 'the icons are blocked');
    } finally {
      await buyer.close();
      await old.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
