/**
 * `npm run screenshots`: every screen of <pay-checkout>, light and dark, 375 and 1280 px wide, shot on the BUILT
 * hosted page with playwright-core and Debian's Chromium, each reached like a buyer (clicks, typing) against the
 * sandbox, with the control API deciding outcomes. Writes docs/screenshots/{screen}-{theme}-{width}.png and the
 * gallery docs/screenshots.md. Options: `--only NAME[,NAME]` re-shoots some screens (the gallery lists them all).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { merchantKeyHeader } from '../../src/contract/index.js';
import type { SandboxClock } from '../../src/sandbox/clock.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { chromiumLaunchOptions } from '../../test/harness/chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shotsDir = path.join(root, 'docs/screenshots');
const galleryFile = path.join(root, 'docs/screenshots.md');

/** Everything shows the same instant: Sat 14 Mar 2026, 10:30 in Bogotá (the sandbox and the page agree). */
const fixedNow = Date.parse('2026-03-14T15:30:00.000Z');
const themes = ['light', 'dark'] as const;
const widths = { 375: { width: 375, height: 812 }, 1280: { width: 1280, height: 800 } } as const;
type Theme = (typeof themes)[number];
type Width = keyof typeof widths;


/** Quick status checks so outcomes show at once; set through the element's public static, as the e2e tests do. */
const fastStatusScript = `customElements.whenDefined('pay-checkout').then(() => {
  customElements.get('pay-checkout').statusTimings = { firstDelayMs: 100, growth: 1.3, maxDelayMs: 300, jitter: 0 };
});`;

/**
 * True once fonts are loaded and every image, shadow roots included, has arrived (gateway icons, the QR).
 * A string, not a function: tsx's keepNames would wrap inner functions in a `__name` helper the page lacks.
 */
const settledScript = `(() => {
  if (document.fonts.status !== 'loaded') return false;
  const images = [];
  const walk = (root) => {
    images.push(...root.querySelectorAll('img'));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return images.every((img) => img.complete);
})()`;

/** A sandbox clock the script sets back to `fixedNow` before every shot, so ids, dates and countdowns repeat. */
function resettableClock(): SandboxClock & { restart(): void } {
  let now = fixedNow;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    restart() {
      now = fixedNow;
    },
  };
}

// ---------------------------------------------------------------------------
// One buyer on one page

class Buyer {
  constructor(
    readonly page: Page,
    readonly sandbox: RunningSandbox,
  ) {}

  async open(hash: string): Promise<void> {
    await this.page.goto(`${this.sandbox.checkoutUrl}/${encodeURIComponent(hash)}`);
  }

  /** Waits until the element shows `step` and that screen has rendered its heading. */
  async waitForStep(step: string): Promise<void> {
    try {
      await this.page.waitForFunction(
        (wanted) => {
          const el = document.querySelector('pay-checkout');
          if (!el || el.step !== wanted) return false;
          const screen = el.shadowRoot?.querySelector('[data-step]');
          return Boolean(screen?.shadowRoot?.querySelector('h2')?.textContent?.trim());
        },
        step,
        { timeout: 10_000, polling: 25 },
      );
    } catch (error) {
      const now = await this.page.evaluate(() => document.querySelector('pay-checkout')?.step).catch(() => '?');
      throw new Error(`expected step "${step}", still "${now}"`, { cause: error });
    }
  }

  /** A part of the current screen (CSS locators pierce open shadow roots). */
  part(name: string): Locator {
    return this.page.locator(`[part~="${name}"]`);
  }

  async control<T = unknown>(route: string, body?: unknown): Promise<T> {
    return call<T>(`${this.sandbox.controlUrl}${route}`, 'POST', body);
  }

  async latestOrderId(): Promise<number> {
    const [order] = await call<{ id_order: number }[]>(`${this.sandbox.controlUrl}/orders`, 'GET');
    if (!order) throw new Error('no order in the sandbox');
    return order.id_order;
  }

  /** A standard link of the demo store, made through the merchant API. */
  async createLink(body: { description: string; amount?: number; ttl_minutes?: number }): Promise<string> {
    const created = await call<{ hash: string }>(`${this.sandbox.baseUrl}/links`, 'POST', body, { [merchantKeyHeader]: 'mk_test_demo' });
    return created.hash;
  }

  async chooseMethod(name: string): Promise<void> {
    await this.waitForStep('method');
    await this.page.getByRole('button', { name }).click();
    await this.waitForStep('details');
  }

  async fillDetails(phone?: string): Promise<void> {
    await this.page.getByLabel('Tipo de documento').selectOption({ label: 'Cédula de Ciudadanía (CC)' });
    await this.page.getByLabel('Número de documento').fill('1020304050');
    if (phone !== undefined) await this.page.getByLabel('Número de celular').fill(phone);
  }

  /** demo-fixed through method and details to the gateway's own screen. */
  async payWith(method: 'Nequi' | 'Daviplata' | 'Bre-B' | 'Tarjeta'): Promise<void> {
    await this.open('demo-fixed');
    await this.chooseMethod(method);
    await this.fillDetails(method === 'Nequi' ? '300 123 4567' : undefined);
    await this.page.getByRole('button', { name: /^Pagar/ }).click();
    await this.waitForStep({ Nequi: 'push', Daviplata: 'otp', 'Bre-B': 'transfer', Tarjeta: 'redirect' }[method]);
  }

  /** A push order settled from outside (the buyer's phone), then the screen it leads to. */
  async pushOutcome(action: 'approve' | 'decline' | 'expire', step: string): Promise<void> {
    await this.payWith('Nequi');
    await this.control(`/orders/${await this.latestOrderId()}/${action}`);
    await this.waitForStep(step);
  }
}

async function call<T>(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers = { ...headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

// ---------------------------------------------------------------------------
// The screens, in the order a buyer meets them

interface Screen {
  name: string;
  title: string;
  /** Brings the buyer to the screen; the shot is taken once it resolves. */
  reach(buyer: Buyer): Promise<void>;
}

const linkRequests = '**/v1/checkout/links/**';

const screens: Screen[] = [
  {
    name: 'loading',
    title: 'Loading (the link is on its way)',
    async reach(b) {
      // The link request is held and never answered, so the first screen stays up.
      await b.page.route(linkRequests, () => undefined);
      await b.open('demo-fixed');
      await b.waitForStep('loading');
    },
  },
  {
    name: 'link-not-found',
    title: 'Link not found',
    async reach(b) {
      await b.open('no-such-link');
      await b.waitForStep('unavailable');
    },
  },
  {
    name: 'link-paid',
    title: 'Link already paid',
    async reach(b) {
      const hash = await b.createLink({ description: 'Camiseta talla M', amount: 89_900 });
      const order = await b.control<{ id_order: number }>('/orders', {
        hash,
        payment_gateway: { id_payment_gateway: 9 },
        shopper: { id_type: 1, id_number: '1020304050' },
      });
      await b.control(`/orders/${order.id_order}/pay`);
      await b.open(hash);
      await b.waitForStep('unavailable');
    },
  },
  {
    name: 'link-expired',
    title: 'Link expired',
    async reach(b) {
      const hash = await b.createLink({ description: 'Reserva de mesa', amount: 30_000, ttl_minutes: 1 });
      await b.control('/clock', { advance_ms: 2 * 60_000 });
      await b.open(hash);
      await b.waitForStep('unavailable');
    },
  },
  {
    name: 'amount',
    title: 'Amount (dynamic link)',
    async reach(b) {
      await b.open('demo-dynamic');
      await b.waitForStep('amount');
      await b.page.getByLabel('Valor en pesos').fill('25000');
    },
  },
  {
    name: 'amount-error',
    title: 'Amount with an error',
    async reach(b) {
      await b.open('demo-dynamic');
      await b.waitForStep('amount');
      await b.page.getByLabel('Valor en pesos').fill('500');
      await b.page.getByRole('button', { name: 'Continuar' }).click();
      await b.part('error').first().waitFor();
    },
  },
  {
    name: 'method',
    title: 'Payment method',
    async reach(b) {
      await b.open('demo-fixed');
      await b.waitForStep('method');
    },
  },
  {
    name: 'details',
    title: 'Buyer details (Nequi: document and phone)',
    async reach(b) {
      await b.open('demo-fixed');
      await b.chooseMethod('Nequi');
    },
  },
  {
    name: 'details-errors',
    title: 'Buyer details with errors and their summary',
    async reach(b) {
      await b.open('demo-fixed');
      await b.chooseMethod('Nequi');
      await b.page.getByLabel('Número de documento').fill('10.203.04a');
      await b.page.getByLabel('Número de celular').fill('601 234 5678');
      await b.page.getByRole('button', { name: /^Pagar/ }).click();
      await b.part('error-summary').first().waitFor();
    },
  },
  {
    name: 'push',
    title: 'Push approval (Nequi), waiting',
    async reach(b) {
      await b.payWith('Nequi');
    },
  },
  {
    name: 'otp',
    title: 'SMS code (Daviplata)',
    async reach(b) {
      await b.payWith('Daviplata');
    },
  },
  {
    name: 'otp-wrong',
    title: 'SMS code, wrong code',
    async reach(b) {
      await b.payWith('Daviplata');
      await b.page.getByLabel('Código de 6 dígitos').fill('654321');
      await b.page.getByRole('button', { name: 'Confirmar pago' }).click();
      await b.part('error').first().waitFor();
      await b.page.getByRole('button', { name: 'Confirmar pago' }).waitFor();
    },
  },
  {
    name: 'transfer',
    title: 'Transfer (Bre-B): QR and key',
    async reach(b) {
      await b.payWith('Bre-B');
      await b.page.waitForFunction(() => {
        const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]');
        const img = screen?.shadowRoot?.querySelector('[part~="qr"] img');
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
      });
    },
  },
  {
    name: 'card',
    title: 'Card hand-off',
    async reach(b) {
      await b.payWith('Tarjeta');
    },
  },
  {
    name: 'card-page',
    title: "The sandbox's card page (the provider's page in production)",
    async reach(b) {
      await b.payWith('Tarjeta');
      await b.page.getByRole('link', { name: 'Ir a pagar con tarjeta' }).click();
      await b.page.waitForURL(/\/sandbox\/card\//);
      await b.page.getByLabel('Número de tarjeta').waitFor();
    },
  },
  {
    name: 'paid',
    title: 'Paid: the receipt',
    reach: (b) => b.pushOutcome('approve', 'paid'),
  },
  {
    name: 'declined',
    title: 'Declined',
    reach: (b) => b.pushOutcome('decline', 'declined'),
  },
  {
    name: 'cancelled',
    title: 'Cancelled by the buyer',
    async reach(b) {
      await b.payWith('Nequi');
      await b.page.getByRole('button', { name: 'Cancelar pago' }).click();
      await b.waitForStep('cancelled');
    },
  },
  {
    name: 'expired',
    title: 'Expired (the time to pay ran out)',
    reach: (b) => b.pushOutcome('expire', 'expired'),
  },
  {
    name: 'error',
    title: 'Error with "try again" (the service answered 502 with an HTML page)',
    async reach(b) {
      await b.page.route(linkRequests, (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
      );
      await b.open('demo-fixed');
      await b.waitForStep('error');
    },
  },
];

// ---------------------------------------------------------------------------
// Running

const fileOf = (screen: string, theme: Theme, width: Width) => `${screen}-${theme}-${width}.png`;

async function buildHostedPage(): Promise<string> {
  // A scratch folder, never dist/: other people run `npm run build` at the same time.
  const outDir = await mkdtemp(path.join(tmpdir(), 'pay-checkout-shots-'));
  await build({
    configFile: path.join(root, 'vite.hosted.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

async function shoot(browser: Browser, sandbox: RunningSandbox, clock: ReturnType<typeof resettableClock>, screen: Screen, theme: Theme, width: Width): Promise<void> {
  // Same start for every shot: fixtures, order ids, the clock, an empty sessionStorage (a new context).
  await call(`${sandbox.controlUrl}/reset`, 'POST');
  clock.restart();
  const context = await browser.newContext({
    viewport: widths[width],
    colorScheme: theme,
    reducedMotion: 'reduce',
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
  });
  try {
    await context.addInitScript(fastStatusScript);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    // Date.now() is the sandbox's instant, so countdowns read their full time; timers still run.
    await page.clock.setFixedTime(fixedNow);
    await screen.reach(new Buyer(page, sandbox));
    // The pointer off every button (no hover), fonts and images in, then a few frames for focus to settle.
    await page.mouse.move(0, 0);
    await page.waitForFunction(settledScript, undefined, { timeout: 10_000 });
    await page.waitForTimeout(150);
    const png = await page.screenshot({ fullPage: true, scale: 'css', animations: 'disabled', caret: 'hide' });
    const file = path.join(shotsDir, fileOf(screen.name, theme, width));
    const previous = await readFile(file).catch(() => null);
    // Chromium antialiases a few rounded-corner pixels differently from run to run: keep the old file then, so a re-run changes no PNG in git.
    if (!previous || (await differingPixels(browser, previous, png)) > samePicturePixels) await writeFile(file, png);
    if (problems.length) console.warn(`  ${screen.name}: page errors: ${problems.join(' | ')}`);
  } finally {
    await context.close();
  }
}

/** At most this many differing pixels is the same picture (corner antialiasing); a changed word is hundreds. */
const samePicturePixels = 40;

/** How many pixels differ between two PNGs (decoded by Chromium itself); Infinity when the sizes differ. */
async function differingPixels(browser: Browser, a: Buffer, b: Buffer): Promise<number> {
  const page = await browser.newPage();
  try {
    const compare = await page.evaluateHandle(compareScript);
    const count: unknown = await compare.evaluate((fn, pngs) => (fn as unknown as (p: string[]) => Promise<number>)(pngs), [a.toString('base64'), b.toString('base64')]);
    if (typeof count !== 'number') throw new Error('could not compare the screenshots');
    return count;
  } finally {
    await page.close();
  }
}

/** Runs in a blank page; a string for the same keepNames reason as `settledScript`. */
const compareScript = `(async ([a, b]) => {
  const load = (data) => new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = reject;
    img.src = 'data:image/png;base64,' + data;
  });
  const [imgA, imgB] = await Promise.all([load(a), load(b)]);
  if (imgA.width !== imgB.width || imgA.height !== imgB.height) return Infinity;
  const pixels = (img) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return ctx.getImageData(0, 0, img.width, img.height).data;
  };
  const [pa, pb] = [pixels(imgA), pixels(imgB)];
  let count = 0;
  for (let i = 0; i < pa.length; i += 4) if (pa[i] !== pb[i] || pa[i + 1] !== pb[i + 1] || pa[i + 2] !== pb[i + 2]) count += 1;
  return count;
})`;

function gallery(): string {
  const lines = [
    '# Screenshots',
    '',
    'Every screen of `<pay-checkout>` on the hosted page, in Spanish (the default), light and dark, on a 375 px phone and a',
    '1280 px desktop. Each is reached like a buyer would against the sandbox, with its control API deciding outcomes.',
    'Made by `npm run screenshots` (`docs/tooling/screenshots.ts`, playwright-core and Chromium); re-run it after a UI change.',
    '',
    ...screens.map((s) => `- [${s.title}](#${s.name})`),
    '',
  ];
  for (const s of screens) {
    const img = (theme: Theme, width: Width) => `![${s.title}, ${theme}, ${width} px](screenshots/${fileOf(s.name, theme, width)})`;
    lines.push(
      `<h2 id="${s.name}">${s.title}</h2>`,
      '',
      '| width | light | dark |',
      '|---|---|---|',
      ...(Object.keys(widths) as unknown as Width[]).map((w) => `| ${w} px | ${img('light', w)} | ${img('dark', w)} |`),
      '',
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((name) => !screens.some((s) => s.name === name)) ?? [];
  if (unknown.length) throw new Error(`unknown screen(s) ${unknown.join(', ')}; known: ${screens.map((s) => s.name).join(', ')}`);

  await mkdir(shotsDir, { recursive: true });
  const hostedDir = await buildHostedPage();
  const clock = resettableClock();
  const sandbox = await startSandbox({ port: 0, hostedDir, clock, onUnexpectedError: (e) => console.error('[sandbox]', e) });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const failed: string[] = [];
  try {
    for (const screen of screens) {
      if (only && !only.includes(screen.name)) continue;
      for (const width of Object.keys(widths).map(Number) as Width[]) {
        for (const theme of themes) {
          try {
            await shoot(browser, sandbox, clock, screen, theme, width);
          } catch (error) {
            failed.push(fileOf(screen.name, theme, width));
            console.error(`✗ ${fileOf(screen.name, theme, width)}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
      console.log(`✓ ${screen.name}`);
    }
  } finally {
    await browser.close();
    await sandbox.close();
    await rm(hostedDir, { recursive: true, force: true });
  }

  await writeFile(galleryFile, gallery());
  const files = (await readdir(shotsDir)).filter((f) => f.endsWith('.png'));
  const bytes = (await Promise.all(files.map((f) => stat(path.join(shotsDir, f))))).reduce((sum, s) => sum + s.size, 0);
  console.log(`${files.length} screenshots, ${(bytes / 1024 / 1024).toFixed(2)} MB in docs/screenshots/; gallery: docs/screenshots.md`);
  if (failed.length) {
    console.error(`${failed.length} failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
