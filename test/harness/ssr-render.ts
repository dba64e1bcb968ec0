// Renders markup holding <pay-checkout> with Lit SSR, in Node, as a server would: the browser test of hydration
// (test/browser/ssr-hydration.test.ts) asks the test server for it (test/harness/ssr-middleware.mjs).
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import '../../src/define.js';

export function renderMarkup(markup: string): Promise<string> {
  return collectResult(render(html`${unsafeHTML(markup)}`));
}

/**
 * The hosted page's `<main>` as `renderHostedPage` (pay-checkout/server/hosted-page) draws it for `link` in `locale`:
 * the first screen and the link answer, for the browser test that takes it over.
 */
export async function renderHostedMain(hash: string, link: unknown, locale: 'es' | 'en'): Promise<string> {
  const { renderHostedPage } = await import('../../src/server/hosted-page/index.js');
  const page = '<html lang="es"><head><title>Pago</title></head><body><h1 class="sr-only" id="page-title">Pago</h1><main id="checkout"></main></body></html>';
  const html = await renderHostedPage(page, { hash, link, locale });
  return /<main id="checkout">([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
}
