// Renders markup holding <pay-checkout> with Lit SSR, in Node, as a server would: the browser test of hydration
// (test/browser/ssr-hydration.test.ts) asks the test server for it (scripts/ssr-middleware.mjs).
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import '../src/define.js';

export function renderMarkup(markup: string): Promise<string> {
  return collectResult(render(html`${unsafeHTML(markup)}`));
}
