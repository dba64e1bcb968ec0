/**
 * End-to-end harness: the sandbox in this process serving the BUILT hosted page (dist/hosted), one Debian
 * Chromium per test file through playwright-core, and a fresh browser context per buyer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../../../src/sandbox/server.js';
import type { SandboxFaultBody } from '../../../src/contract/index.js';
import { chromiumLaunchOptions } from '../../harness/chromium.mjs';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const distDir = path.join(repoRoot, 'dist');
export const hostedDir = path.join(distDir, 'hosted');

/** How long a wait on a page state may take: sized for a loaded 2-core machine (load ~8), never a fixed sleep. */
export const settleMs = 30_000;


export const launchChromium = (): Promise<Browser> =>
  chromium.launch(chromiumLaunchOptions());

/** The sandbox's order as its control API shows it (the fields these tests read). */
export interface ControlOrder {
  id_order: number;
  status: string;
  total: number;
  link_hash: string | null;
  gateway_kind: string;
  otp: string | null;
  card_url: string | null;
  transfer_key: string | null;
}

/** The sandbox serving the built hosted page, and its control API: what every e2e test needs, in any engine. */
export interface SandboxWorld {
  sandbox: RunningSandbox;
  control<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  orders(hash?: string): Promise<ControlOrder[]>;
  /** Adds a sandbox fault (`POST /sandbox/faults`). */
  fault(body: SandboxFaultBody): Promise<void>;
  /** Restores fixtures and clears faults: every test starts from the same sandbox. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A sandbox world with Debian's Chromium under Playwright. */
export interface World extends SandboxWorld {
  browser: Browser;
}

export async function startWorld(): Promise<World> {
  const world = await startSandboxWorld();
  const browser = await launchChromium().catch(async (error: unknown) => {
    await world.close();
    throw error;
  });
  return {
    ...world,
    browser,
    async close() {
      await browser.close();
      await world.close();
    },
  };
}

export async function startSandboxWorld(options: Pick<StartSandboxOptions, 'dialect'> = {}): Promise<SandboxWorld> {
  // hostedDir is passed explicitly: the sandbox's own lookup of dist/hosted/ does not serve assets (see report).
  const sandbox = await startSandbox({ port: 0, hostedDir, onUnexpectedError: (e) => console.error('[sandbox]', e), ...options });
  const control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${sandbox.controlUrl}${route}`, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /sandbox${route}: ${response.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  return {
    sandbox,
    control,
    async orders(hash) {
      const all = await control<ControlOrder[]>('GET', '/orders');
      return hash === undefined ? all : all.filter((o) => o.link_hash === hash);
    },
    async fault(body) {
      await control('POST', '/faults', body);
    },
    async reset() {
      await control('POST', '/reset');
      await fetch(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
    },
    async close() {
      await sandbox.close();
    },
  };
}

/** Shortened status checks, set through the element's test hook (an @internal static); production keeps 2 s → 10 s. */
const fastStatusScript = `customElements.whenDefined('pay-checkout').then(() => {
  customElements.get('pay-checkout').statusTimings = { firstDelayMs: 150, growth: 1.3, maxDelayMs: 500, jitter: 0 };
});`;

/** Records CSP violations and uncaught errors in the page itself, from before any script of the page runs. */
const watchScript = `window.__e2e = { violations: [], errors: [], payErrors: 0 };
document.addEventListener('pay-error', () => (window.__e2e.payErrors += 1), true);
document.addEventListener('securitypolicyviolation', (e) => window.__e2e.violations.push(e.violatedDirective + ' ' + e.blockedURI), true);
window.addEventListener('error', (e) => window.__e2e.errors.push(String(e.message)));`;

/**
 * The visible text of the page, through shadow roots. A string, not a function: tsx's keepNames would wrap
 * the inner function in a `__name` helper that does not exist in the page.
 */
export const visibleTextScript = `(() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      if (parent && parent.checkVisibility() && !['STYLE', 'SCRIPT'].includes(parent.tagName)) parts.push(node.textContent || '');
      return;
    }
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ').trim();
})()`;

export interface BuyerOptions {
  /** Production status timings instead of the shortened ones (default false). */
  realTimings?: boolean;
  context?: BrowserContext;
}

/** A buyer with their own browser context (own sessionStorage), reporting what went wrong in the page. */
export class Buyer {
  readonly consoleErrors: string[] = [];
  readonly pageErrors: string[] = [];
  /** API requests the page saw fail (a dropped connection), and API answers with a 5xx status. */
  readonly failedApiRequests: string[] = [];
  readonly serverErrors: string[] = [];
  dialogs = 0;

  private constructor(
    readonly world: World,
    readonly context: BrowserContext,
    public page: Page,
  ) {}

  static async create(world: World, options: BuyerOptions = {}): Promise<Buyer> {
    const context = options.context ?? (await world.browser.newContext());
    await context.addInitScript(watchScript);
    if (!options.realTimings) await context.addInitScript(fastStatusScript);
    const buyer = new Buyer(world, context, await context.newPage());
    buyer.watch(buyer.page);
    return buyer;
  }

  /** A new tab in the same browser context (empty sessionStorage, like any new tab). */
  async newTab(): Promise<Page> {
    this.page = await this.context.newPage();
    this.watch(this.page);
    return this.page;
  }

  private watch(page: Page): void {
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
    page.on('requestfailed', (r) => {
      if (r.url().includes('/v1/')) this.failedApiRequests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    page.on('response', (r) => {
      if (r.url().includes('/v1/') && r.status() >= 500) this.serverErrors.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    page.on('dialog', (d) => {
      this.dialogs += 1;
      void d.dismiss();
    });
  }

  url(hash: string): string {
    return `${this.world.sandbox.checkoutUrl}/${hash}`;
  }

  async open(hash: string): Promise<void> {
    await this.page.goto(this.url(hash));
  }

  step(): Promise<string | undefined> {
    return this.page.evaluate(() => document.querySelector('pay-checkout')?.step);
  }

  /** Waits until the element shows one of `steps` and that screen has rendered its heading. */
  async waitForStep(steps: string | string[], timeout = settleMs): Promise<string> {
    const wanted = Array.isArray(steps) ? steps : [steps];
    try {
      await this.page.waitForFunction(
        (names) => {
          const el = document.querySelector('pay-checkout');
          if (!el || !names.includes(el.step)) return false;
          const screen = el.shadowRoot?.querySelector('[data-step]');
          return Boolean(screen?.shadowRoot?.querySelector('h2')?.textContent?.trim());
        },
        wanted,
        { timeout, polling: 25 },
      );
    } catch (error) {
      throw new Error(`expected step ${wanted.join('|')}, still "${await this.step().catch(() => '?')}": ${await this.text().catch(() => '')}`, { cause: error });
    }
    return (await this.step()) ?? '';
  }

  /** Everything a buyer can read in the checkout, shadow roots included. */
  text(): Promise<string> {
    return this.page.evaluate(visibleTextScript);
  }

  heading(): Promise<string> {
    return this.page.evaluate(
      () => document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]')?.shadowRoot?.querySelector('h2')?.textContent?.trim() ?? '',
    );
  }

  /** What the page recorded: CSP violations and uncaught errors. */
  recorded(): Promise<{ violations: string[]; errors: string[] }> {
    return this.page.evaluate(() => window.__e2e);
  }

  async chooseMethod(name: string): Promise<void> {
    await this.waitForStep('method');
    await this.page.getByRole('button', { name }).click();
    await this.waitForStep('details');
  }

  async fillDetails({ phone }: { phone?: string } = {}): Promise<void> {
    await this.page.getByLabel('Tipo de documento').selectOption({ label: 'Cédula de Ciudadanía (CC)' });
    await this.page.getByLabel('Número de documento').fill('1020304050');
    if (phone !== undefined) await this.page.getByLabel('Número de celular').fill(phone);
  }

  payButton() {
    return this.page.getByRole('button', { name: /^Pagar/ });
  }

  /** Dynamic links: types the amount and continues. */
  async enterAmount(amount: string): Promise<void> {
    await this.waitForStep('amount');
    await this.page.getByLabel('Valor en pesos').fill(amount);
    await this.page.getByRole('button', { name: 'Continuar' }).click();
  }

  /** From the method screen to the gateway's own step: push, otp, transfer or redirect. */
  async payWith(gateway: Gateway): Promise<void> {
    await this.chooseMethod(gateway.name);
    await this.fillDetails(gateway.kind === 'push' ? { phone: '300 123 4567' } : {});
    await this.payButton().click();
    await this.waitForStep(gateway.waitingStep);
  }

  async enterOtp(code: string): Promise<void> {
    await this.page.getByLabel('Código de 6 dígitos').fill(code);
    await this.page.getByRole('button', { name: 'Confirmar pago' }).click();
  }

  /** Pays the card order on the sandbox's card page, which sends the buyer back to the hosted page. */
  async payOnCardPage(cardNumber = '4242 4242 4242 4242'): Promise<void> {
    await this.page.getByRole('link', { name: 'Ir a pagar con tarjeta' }).click();
    await this.page.waitForURL(/\/sandbox\/card\//);
    await this.page.getByLabel('Número de tarjeta').fill(cardNumber);
    await this.page.getByRole('button', { name: /^Pagar/ }).click();
    await this.page.waitForURL(/\/checkout\//);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

export interface Gateway {
  id: number;
  kind: 'push' | 'otp' | 'transfer' | 'card';
  name: string;
  /** The element's step while the buyer acts on this gateway. */
  waitingStep: string;
}

export const gateways = {
  push: { id: 1, kind: 'push', name: 'Nequi', waitingStep: 'push' },
  otp: { id: 2, kind: 'otp', name: 'Daviplata', waitingStep: 'otp' },
  transfer: { id: 9, kind: 'transfer', name: 'Bre-B', waitingStep: 'transfer' },
  card: { id: 4, kind: 'card', name: 'Tarjeta', waitingStep: 'redirect' },
} as const satisfies Record<string, Gateway>;

/** Completes the payment from outside the page, as the buyer's phone, bank or the card provider would. */
export async function completeOutside(world: SandboxWorld, order: ControlOrder): Promise<void> {
  const action = order.gateway_kind === 'push' ? 'approve' : 'pay';
  await world.control('POST', `/orders/${order.id_order}/${action}`);
}

/** The only order of `hash`; fails when there is none or more than one. */
export async function onlyOrder(world: SandboxWorld, hash: string): Promise<ControlOrder> {
  const found = await world.orders(hash);
  if (found.length !== 1) throw new Error(`expected exactly one order for ${hash}, found ${found.length}`);
  return found[0] as ControlOrder;
}

/** Visible text must never be raw JSON, a stack trace or a JS error name. */
export function assertPlainText(text: string): void {
  for (const bad of ['{', '}', ' at ', 'TypeError', 'SyntaxError', 'ZodError', 'undefined', 'null', '[object']) {
    if (text.includes(bad)) throw new Error(`visible text contains ${JSON.stringify(bad)}: ${text}`);
  }
}

declare global {
  interface Window {
    /** What watchScript records in the page. */
    __e2e: { violations: string[]; errors: string[]; payErrors: number };
  }
}
