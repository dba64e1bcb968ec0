import { PayCheckout } from '../../../src/element/pay-checkout.js';
import { resetSandbox } from './checkout.js';

/**
 * The hosted page's server-drawn first screen for `demo-fixed` (renderHostedPage through the dev server's `/ssr-hosted`),
 * put in the page with no inline script run: the element takes over the drawn screen in place.
 */
export async function serverDrawn(locale: 'es' | 'en' = 'es'): Promise<{ host: PayCheckout; drawn: Element; container: HTMLElement }> {
  const link: unknown = await (await fetch('/v1/checkout/links/demo-fixed')).json();
  const response = await fetch(`/ssr-hosted?hash=demo-fixed&locale=${locale}&link=${encodeURIComponent(JSON.stringify(link))}`);
  const container = document.createElement('div');
  document.body.append(container);
  container.setHTMLUnsafe(await response.text());
  const host = container.querySelector('pay-checkout')!;
  host.setAttribute('api-base', '/v1');
  return { host, drawn: host.shadowRoot!.querySelector('[data-step]')!, container };
}

/** Holds `path` (the end of a module's URL) at the dev server until `releaseHeld()` (test/harness/slow-chunk-middleware.mjs). */
export function holdModule(path: string): void {
  document.cookie = `pay-test-hold=${path}; path=/`;
}

export async function releaseHeld(): Promise<void> {
  await fetch('/test/release', { method: 'POST' });
  document.cookie = 'pay-test-hold=; path=/; max-age=0';
}

/** The flow's own step, which the screen (`step`) may not show yet. */
export const flowStep = (el: PayCheckout) => (el as unknown as { _runner: { flow: { step: string } } })._runner.flow.step;

/** The drawn screen's button whose text holds `text`. */
export const drawnButton = (drawn: Element, text: string) => [...drawn.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.includes(text))!;

/**
 * Whether this engine asks the dev server again for a module an earlier test page fetched, so that it can be held:
 * Chromium does; Firefox and WebKit reuse their copy without a request (seen even with `Cache-Control: no-store`), so
 * the tests that hold a chunk run in Chromium only (the element's logic is the same in every engine).
 */
export const canHoldModules = /Chrome\//.test(navigator.userAgent);

/**
 * The hooks of a file whose tests hold a module: Chromium only (`canHoldModules`); each test on a fresh sandbox, with
 * nothing saved and no marks; after it, the element's wait as it ships and no hold asked for. The tests release what
 * they hold themselves (a release from a page holding nothing is ignored; one held request goes after 10 s anyway).
 */
export function heldModuleHooks(): void {
  before(function () {
    if (!canHoldModules) this.skip();
  });
  beforeEach(async () => {
    await resetSandbox();
    sessionStorage.clear();
    localStorage.clear();
    performance.clearMarks();
  });
  afterEach(() => {
    PayCheckout.detailsWaitMs = undefined;
    document.cookie = 'pay-test-hold=; path=/; max-age=0';
  });
}

/** The script-tag embed for `demo-fixed` in Spanish, with the moment it said `pay-ready` (performance.now()), once it does. */
export function embed(): { el: PayCheckout; ready: Promise<number> } {
  const el = document.createElement('pay-checkout');
  for (const [name, value] of Object.entries({ link: 'demo-fixed', 'api-base': '/v1', locale: 'es' })) el.setAttribute(name, value);
  const ready = new Promise<number>((resolve) => el.addEventListener('pay-ready', () => resolve(performance.now())));
  document.body.append(el);
  return { el, ready };
}

/** How many `pay-checkout:interactive` marks the page has. */
export const interactiveMarks = () => performance.getEntriesByName('pay-checkout:interactive').length;
