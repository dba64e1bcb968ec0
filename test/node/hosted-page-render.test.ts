// The link answer a page hands the element is checked, not trusted (contract, hash, expiry), and the
// hosted page rendered on a server carries it with the first screen drawn; anything unfit leaves the page as built.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pageLink } from '../../src/client/checkout-link.js';
import type { CheckoutLink } from '../../src/contract/index.js';
import { hostedPageLinks, renderHostedPage } from '../../src/server/hosted-page/index.js';

const now = Date.parse('2026-01-01T00:00:00Z');
const gateway = (id: number, name: string, kind: 'push' | 'otp') => ({ id_payment_gateway: id, name, kind, required_fields: [], id_types: [1], min_amount: 1_000, max_amount: 5_000_000, icon: `https://api.example.com/icons/${id}.svg` });
const link: CheckoutLink = {
  hash: 'abc123',
  store_name: 'Tienda </script><b>Demo</b>',
  description: 'Camiseta',
  amount: 50_000,
  currency: 'COP',
  status: 'active',
  expires_at: '2026-01-02T00:00:00Z',
  collect_shopper_data: false,
  gateways: [gateway(1, 'Nequi', 'push'), gateway(2, 'Daviplata', 'otp')],
  document_types: [{ id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' }],
};
const page = readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8');

describe('a link answer from the page', () => {
  it('is taken when it matches the contract, the hash and has not expired (data or the whole answer)', () => {
    assert.deepEqual(pageLink(link, 'abc123', now), link);
    assert.deepEqual(pageLink({ data: link }, 'abc123', now), link);
    assert.deepEqual(pageLink({ ...link, expires_at: null }, 'abc123', now)?.hash, 'abc123');
  });

  it('is refused when foreign, stale or malformed', () => {
    assert.equal(pageLink(link, 'other', now), undefined, 'another link’s answer');
    assert.equal(pageLink(link, 'abc123', Date.parse('2026-01-03T00:00:00Z')), undefined, 'expired');
    assert.equal(pageLink({ ...link, amount: '50000' }, 'abc123', now), undefined, 'amount not a number');
    assert.equal(pageLink({ ...link, gateways: [{ ...gateway(1, 'Nequi', 'push'), kind: 'cash' }] }, 'abc123', now), undefined);
    assert.equal(pageLink(null, 'abc123', now), undefined);
    assert.equal(pageLink('{"data":{}}', 'abc123', now), undefined);
  });
});

describe('renderHostedPage', () => {
  it('draws the amount and the methods as declarative shadow DOM, with the answer as inert JSON', async () => {
    const html = await renderHostedPage(page, { hash: 'abc123', link, now });
    assert.match(html, /<pay-checkout[^>]* link="abc123"[^>]*><template shadowroot="open" shadowrootmode="open">/);
    assert.match(html, /\$\s50\.000/);
    assert.match(html, /Elige cómo pagar[\s\S]*Nequi[\s\S]*Daviplata/);
    const json = /<script type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(json), { data: link }, 'the answer round-trips');
    assert.doesNotMatch(json, /<\/script>/i, 'a store name cannot close the script');
    assert.doesNotMatch(html, /<b>Demo<\/b>/, 'server strings are text, never HTML');
    const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.match(policy, /style-src 'self'( 'sha256-[\w+/=]+')+;/);
    assert.doesNotMatch(policy, /unsafe-inline/);
    assert.match(html, /<title>Tienda &lt;\/script&gt;&lt;b&gt;Demo&lt;\/b&gt; · Pago<\/title>/);
  });

  it('leaves the page as built for a foreign or expired answer', async () => {
    assert.equal(await renderHostedPage(page, { hash: 'other', link, now }), page);
    assert.equal(await renderHostedPage(page, { hash: 'abc123', link, now: Date.parse('2026-02-01T00:00:00Z') }), page);
  });

  it('draws an English page in English', async () => {
    const html = await renderHostedPage(page, { hash: 'abc123', link, now, locale: 'en' });
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<pay-checkout[^>]* locale="en"[^>]*><template shadowroot="open" shadowrootmode="open">/);
    assert.match(html, /Total to pay[\s\S]*COP\s50,000[\s\S]*Choose how to pay[\s\S]*Nequi/);
    assert.doesNotMatch(html, /Elige cómo pagar|Total a pagar/, 'no Spanish on the English screen');
    assert.match(html, /<title>Tienda &lt;\/script&gt;&lt;b&gt;Demo&lt;\/b&gt; · Payment<\/title>/);
    assert.match(html, /id="page-title">Payment to Tienda/);
    const spanish = await renderHostedPage(page, { hash: 'abc123', link, now });
    assert.match(spanish, /<html lang="es">/);
  });

  it('draws each method’s logo tile empty: the element’s own render fetches the logos', async () => {
    const html = await renderHostedPage(page, { hash: 'abc123', link, now });
    const images = html.match(/<img[^>]*>/g) ?? [];
    assert.equal(images.length, 2, 'a tile per method');
    for (const image of images) assert.doesNotMatch(image, /\ssrc=/);
  });
});

describe('renderHostedPage with the entry’s text: the script in the page', () => {
  const built = page.replace('./main.ts', '/pay/assets/main-x.js');
  const entry = "//# allFunctionsCalledOnLoad\nconst es=()=>import(`./es-x.js`),later=()=>import('./later-x.js');customElements;";
  const policyOf = (html: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';

  it('carries the entry last in the body, its imports under the entry’s folder, and the early-tap script before it, allowed by their hashes alone', async () => {
    const html = await renderHostedPage(built, { hash: 'abc123', link, now, entryScript: entry });
    assert.doesNotMatch(html, /main-x\.js/, 'no request for the entry');
    // Only the next screens' preloads follow it (a quick tap finds its next screen fetched).
    const inline = /<script type="module">([\s\S]*?)<\/script>(?:\s*<link rel="modulepreload" href="[^"]+" \/>)*\s*<\/body>/.exec(html)?.[1];
    assert.ok(inline, 'a module script ends the body');
    assert.ok(html.indexOf('Elige cómo pagar') < html.indexOf(inline), 'the first screen comes before the script');
    // The compile hint stays first; then the entry waits for the first paint, so the drawn screen shows before it runs.
    const waitEnd = inline.indexOf('});') + 3;
    const [hint, wait, rest] = [inline.slice(0, 29), inline.slice(29, waitEnd), inline.slice(waitEnd)];
    assert.equal(hint, '//# allFunctionsCalledOnLoad\n');
    assert.match(wait, /^performance\.getEntriesByName\("first-contentful-paint"\)\.length\|\|await new Promise\(.*requestAnimationFrame.*setTimeout\(go,100\)\}\);$/);
    assert.equal(rest, "const es=()=>import(`/pay/assets/es-x.js`),later=()=>import('/pay/assets/later-x.js');customElements;");
    // Before it, the small classic script that keeps a tap on the drawn screen for the element (server-screen.ts).
    const early = /<script>([^<]*)<\/script>\s*<script type="module">/.exec(html)?.[1] ?? '';
    assert.match(early, /^addEventListener\("click",.*Symbol\.for\("pay-checkout\.tap"\)/);
    const { createHash } = await import('node:crypto');
    const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const scriptSrc = /script-src ([^;]*)/.exec(policyOf(html))?.[1] ?? '';
    assert.deepEqual(scriptSrc.split(' '), ["'self'", hashOf(inline), hashOf(early)]);
    assert.doesNotMatch(policyOf(html), /unsafe-inline|unsafe-eval/);
  });

  it('preloads the next screens’ chunks (the details step, its language’s catalog; not the later steps) from the top of the body, not the head', async () => {
    const next = "const es=()=>import(`./es-x.js`),en=()=>import(`./en-y.js`),details=()=>import('./details-steps-d.js'),later=()=>import('./later-steps-z.js'),qr=()=>import('./qrcode-q.js');";
    const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    const spanish = await renderHostedPage(built, { hash: 'abc123', link, now, entryScript: next });
    assert.deepEqual(preloads(spanish), ['/pay/assets/details-steps-d.js', '/pay/assets/es-x.js']);
    // Found with the page's first bytes; out of the head, so no Early Hints or Link header names them as the first screen's.
    assert.ok(spanish.indexOf('<link rel="modulepreload"') > spanish.indexOf('<body>'), 'in the body');
    assert.ok(spanish.indexOf('<link rel="modulepreload"') < spanish.indexOf('<main'), 'before the first screen');
    assert.deepEqual(hostedPageLinks(spanish, 'es', { entryInline: true }), []);
    const english = await renderHostedPage(built, { hash: 'abc123', link, now, entryScript: next, locale: 'en' });
    assert.deepEqual(preloads(english), ['/pay/assets/details-steps-d.js', '/pay/assets/en-y.js']);
    // A page that goes out as built names nothing more.
    assert.deepEqual(preloads(await renderHostedPage(built, { hash: 'abc123', link, now })), []);
  });

  it('names the entry as built where its text could end the script element, or the page cannot be drawn', async () => {
    for (const bad of ['const s="</script><script>alert(1)";', 'const s="</SCRIPT >";', 'const c="<!--";']) {
      const html = await renderHostedPage(built, { hash: 'abc123', link, now, entryScript: bad });
      assert.match(html, /<script type="module" src="\/pay\/assets\/main-x\.js"><\/script>/);
      assert.doesNotMatch(html, /alert\(1\)|<script type="module">/);
      assert.doesNotMatch(/script-src ([^;]*)/.exec(policyOf(html))?.[1] ?? '', /sha256/);
    }
    assert.equal(await renderHostedPage(built, { hash: 'other', link, now, entryScript: entry }), built, 'a foreign answer: as built');
  });
});

describe('hostedPageLinks', () => {
  const built = page.replace('./main.ts', '/checkout/assets/main-x.js').replace('</head>', '<link rel="modulepreload" href="/checkout/assets/reader-x.js" />\n</head>');

  it('names the entry and every preloaded module of the head, the same in both languages', () => {
    const links = ['</checkout/assets/main-x.js>; rel=modulepreload', '</checkout/assets/reader-x.js>; rel=modulepreload'];
    assert.deepEqual(hostedPageLinks(built), links);
    assert.deepEqual(hostedPageLinks(built, 'en'), links);
  });

  it('leaves the entry out where the page carries it', () => {
    assert.deepEqual(hostedPageLinks(built, 'es', { entryInline: true }), ['</checkout/assets/reader-x.js>; rel=modulepreload']);
  });
});

describe('npm start (Vite): the hosted page at /checkout/{hash}', () => {
  it('is server-rendered from its own sandbox, in Spanish and in English', async () => {
    const { createServer } = await import('vite');
    const { paySandbox } = await import('../../src/sandbox/vite-plugin.js');
    const { hostedPagePlugin } = await import('../../build/vite-hosted.js');
    const server = await createServer({
      configFile: false,
      root: new URL('../../demo/', import.meta.url).pathname,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      plugins: [paySandbox(), hostedPagePlugin()],
    });
    await server.listen();
    try {
      const origin = new URL(server.resolvedUrls?.local[0] ?? '').origin;
      const spanish = await (await fetch(`${origin}/checkout/demo-fixed`)).text();
      assert.match(spanish, /<template shadowroot="open" shadowrootmode="open">[\s\S]*Elige cómo pagar/);
      assert.match(spanish, /<script type="application\/json">\{"data":\{"hash":"demo-fixed"/);
      const english = await (await fetch(`${origin}/checkout/demo-fixed?locale=en`)).text();
      assert.match(english, /<template shadowroot="open" shadowrootmode="open">[\s\S]*Choose how to pay/);
      assert.match(english, /<html lang="en">/);
    } finally {
      await server.close();
    }
  });
});
