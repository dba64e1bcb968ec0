// <pay-checkout> rendered on a server with Lit SSR (@lit-labs/ssr), as a framework or the hosted page would: it never
// throws, reads no browser global, starts no request, writes no default `theme` onto the host, and emits its loading
// shell as declarative shadow DOM. The client's take-over is test/browser/ssr-hydration.test.ts.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LitElementRenderer, render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import '../../src/define.js';

/** Every request the API server below receives: it must stay empty. */
const received: string[] = [];
const api = http.createServer((req, res) => {
  received.push(`${req.method} ${req.url}`);
  res.writeHead(500).end();
});
/** What the server process does with `fetch` and rejections while the element renders, and a little after. */
const fetched: string[] = [];
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
let apiBase = '';
const realFetch = globalThis.fetch;

before(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  // Records only: a request to production from a test would be a bug, so it fails here instead of leaving.
  globalThis.fetch = (input: string | URL | Request) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return Promise.reject(new Error('no request may start on the server'));
  };
  process.on('unhandledRejection', onRejection);
});

after(async () => {
  globalThis.fetch = realFetch;
  process.off('unhandledRejection', onRejection);
  await new Promise((resolve) => api.close(resolve));
});

/** Renders the markup through Lit SSR, then waits long enough for any stray timer or promise to go off. */
async function ssr(markup: string): Promise<string> {
  const out = await collectResult(render(html`${unsafeHTML(markup)}`));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return out;
}

/** The host's start tag as rendered. */
const hostTag = (out: string) => /<pay-checkout\b[^>]*>/.exec(out)?.[0] ?? '';

describe('<pay-checkout> under Lit SSR', () => {
  const cases = [
    ['link only', '<pay-checkout link="demo-fixed"></pay-checkout>'],
    ['locale and api-base', `<pay-checkout link="demo-fixed" locale="en" api-base="API"></pay-checkout>`],
    ['a relative api-base and a lang around it', '<div lang="en"><pay-checkout link="demo-dynamic" api-base="/v1"></pay-checkout></div>'],
    ['no link at all', '<pay-checkout></pay-checkout>'],
  ] as const;

  for (const [name, markup] of cases) {
    it(`${name}: the loading shell as declarative shadow DOM, no request, no rejection`, async () => {
      const out = await ssr(markup.replace('API', apiBase));
      assert.match(out, /<pay-checkout\b[^>]*><template shadowroot="open" shadowrootmode="open">/);
      assert.match(out, /<section class="base" part="base"/);
      // The first step's own shadow root, deferred until the host hydrates it.
      assert.match(out, /<pay-step-status[^>]*defer-hydration[^>]*><template shadowroot="open" shadowrootmode="open">/);
      assert.match(out, /part="loading"/);
      assert.doesNotMatch(hostTag(out), /theme=/, 'the default theme is not written onto the host');
      assert.deepEqual(received, []);
      assert.deepEqual(fetched, []);
      assert.deepEqual(rejections, []);
    });
  }

  it('keeps a theme the page set, and survives connectedCallback being called on the server', async () => {
    const callConnected = (element: HTMLElement) => (element.localName === 'pay-checkout' ? { connectedCallback: true } : undefined);
    LitElementRenderer.renderOptions.push(callConnected);
    let out: string;
    try {
      out = await ssr(`<pay-checkout link="demo-fixed" theme="dark" api-base="${apiBase}"></pay-checkout>`);
    } finally {
      LitElementRenderer.renderOptions.splice(LitElementRenderer.renderOptions.indexOf(callConnected), 1);
    }
    assert.match(hostTag(out), /theme="dark"/);
    assert.match(out, /part="loading"/);
    assert.deepEqual(received, []);
    assert.deepEqual(fetched, []);
    assert.deepEqual(rejections, []);
  });
});
