// A shared payment link previews (chat apps read the page's description and Open Graph tags) with whose link it is
// and what it pays for, never HTML from a store's name; and the hosted page goes out with the headers a payment page
// needs (no framing, nosniff, no referrer to other origins), from the sandbox, renderHostedPage() and writeHostedPage().
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CheckoutLink } from '../../src/contract/index.js';
import { configureHostedPage, hostedPageHeaders, renderHostedPage, writeHostedPage } from '../../src/server/hosted-page/index.js';
import { configureHostedPage as fromSandbox } from '../../src/sandbox/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { storeById } from '../../src/sandbox/state.js';

const source = readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8');
/** What WhatsApp's link-preview fetcher calls itself. */
const whatsApp = { 'User-Agent': 'WhatsApp/2.23.20.0 A' };
/** A store name that would break the page if it were written as HTML. */
const trickyStore = 'Doña <Ana> "la 1ª" & Hijos';

/** The page's `<meta>` tags by name or property, their content read back as a browser reads an attribute. */
function metaOf(html: string): Map<string, string> {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  const tags = [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"\s*\/?>/g)];
  return new Map(tags.map(([, name = '', content = '']) => [name, content.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e] ?? e)]));
}

const everyHeader = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'permissions-policy'];

function assertPaymentHeaders(headers: Headers | Map<string, string>, { https = false } = {}): void {
  for (const name of everyHeader) assert.ok(headers.get(name), `${name} is sent`);
  assert.match(headers.get('content-security-policy') ?? '', /(^|; )frame-ancestors 'none'($|;)/);
  assert.match(headers.get('content-security-policy') ?? '', /default-src 'self'/, 'the page’s own policy, as a header');
  assert.equal(headers.get('x-frame-options'), 'DENY');
  assert.equal(headers.get('x-content-type-options'), 'nosniff');
  assert.equal(headers.get('referrer-policy'), 'same-origin');
  assert.match(headers.get('permissions-policy') ?? '', /camera=\(\), .*geolocation=\(\), .*microphone=\(\)/);
  assert.doesNotMatch(headers.get('permissions-policy') ?? '', /clipboard/, 'the Bre-B key’s copy button writes the clipboard');
  assert.equal(headers.get('strict-transport-security') ?? undefined, https ? 'max-age=31536000' : undefined);
}

describe('the sandbox’s hosted page', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-hosted-preview-'));
  let sandbox: RunningSandbox;
  before(async () => {
    writeFileSync(path.join(dir, 'index.html'), source);
    sandbox = await startSandbox({ port: 0, hostedDir: dir, defaultReceiver: false });
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const preview = async (hash: string, query = '') => {
    const res = await fetch(`${sandbox.checkoutUrl}/${hash}${query}`, { headers: whatsApp });
    assert.equal(res.status, 200);
    return { meta: metaOf(await res.text()), headers: res.headers };
  };

  it('previews a fixed link with the store, what is paid for and the amount, in Spanish and in English', async () => {
    const es = (await preview('demo-fixed')).meta;
    assert.equal(es.get('og:title'), 'Pago a Tienda Demo');
    assert.equal(es.get('og:description'), 'Pedido de demostración · $\u00a050.000. Paga con Nequi, Daviplata, Bre-B y Tarjeta.');
    assert.equal(es.get('description'), es.get('og:description'));
    assert.equal(es.get('og:site_name'), 'Tienda Demo');
    assert.equal(es.get('og:type'), 'website');
    assert.equal(es.get('og:url'), `${sandbox.checkoutUrl}/demo-fixed`);
    assert.equal(es.get('twitter:card'), 'summary');
    assert.equal(es.get('robots'), 'noindex', 'a checkout stays out of search results');
    const en = (await preview('demo-fixed', '?locale=en&utm_source=chat')).meta;
    assert.equal(en.get('og:title'), 'Payment to Tienda Demo');
    assert.equal(en.get('og:description'), 'Pedido de demostración · COP\u00a050,000. Pay with Nequi, Daviplata, Bre-B, and Tarjeta.');
    assert.equal(en.get('og:url'), `${sandbox.checkoutUrl}/demo-fixed?locale=en`, 'the language kept, no other query');
  });

  it('previews a dynamic link as one where the buyer chooses the amount', async () => {
    assert.match((await preview('demo-dynamic')).meta.get('og:description') ?? '', /^Aporte voluntario · Tú eliges el valor\. Paga con /);
    const en = (await preview('demo-dynamic', '?locale=en')).meta;
    assert.equal(en.get('og:title'), 'Payment to Tienda Demo');
    assert.match(en.get('og:description') ?? '', /^Aporte voluntario · You choose the amount\. Pay with /);
  });

  it('writes a store’s name as text: the preview reads back exactly the name', async () => {
    const store = storeById(sandbox.sandbox.state, 1);
    assert.ok(store);
    store.store_name = trickyStore;
    try {
      const res = await fetch(`${sandbox.checkoutUrl}/demo-fixed`, { headers: whatsApp });
      const html = await res.text();
      const meta = metaOf(html);
      assert.equal(meta.get('og:site_name'), trickyStore);
      assert.equal(meta.get('og:title'), `Pago a ${trickyStore}`);
      assert.doesNotMatch(html, /<Ana>/, 'never a tag');
    } finally {
      sandbox.sandbox.reset();
    }
  });

  it('names an image only where the link record has an https one', async () => {
    const link = sandbox.sandbox.state.links.get('demo-fixed');
    assert.ok(link);
    try {
      link.image_url = 'https://cdn.tienda.example/camiseta.jpg';
      const meta = (await preview('demo-fixed')).meta;
      assert.equal(meta.get('og:image'), 'https://cdn.tienda.example/camiseta.jpg');
      assert.equal(meta.get('twitter:card'), 'summary_large_image');
      link.image_url = 'http://cdn.tienda.example/camiseta.jpg';
      assert.equal((await preview('demo-fixed')).meta.get('og:image'), undefined);
    } finally {
      sandbox.sandbox.reset();
    }
  });

  it('sends a payment page’s headers, for a link it draws and for one it cannot', async () => {
    assertPaymentHeaders((await preview('demo-fixed')).headers);
    const unknown = await fetch(`${sandbox.checkoutUrl}/no-such-link`);
    assert.equal(unknown.status, 200);
    assertPaymentHeaders(unknown.headers);
    assert.equal(metaOf(await unknown.text()).get('og:title'), 'Pago', 'the neutral preview of the page as built');
  });
});

describe('renderHostedPage’s preview and headers', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const gateway = (id: number, name: string) => ({ id_payment_gateway: id, name, kind: 'push' as const, required_fields: [], id_types: [1], min_amount: 1_000, max_amount: 5_000_000, icon: `https://api.example.com/icons/${id}.svg` });
  const link: CheckoutLink = {
    hash: 'abc123',
    store_name: trickyStore,
    description: 'Camiseta <b>talla M</b>',
    amount: 50_000,
    currency: 'COP',
    status: 'active',
    expires_at: null,
    collect_shopper_data: false,
    gateways: [gateway(1, 'Nequi'), gateway(2, 'Daviplata')],
    document_types: [],
  };
  const url = 'https://shop.example/checkout/abc123?locale=en&fbclid=x';

  it('previews a fixed and a dynamic link in both languages, every string as text', async () => {
    const es = metaOf(await renderHostedPage(source, { hash: 'abc123', link, now }));
    assert.equal(es.get('og:title'), `Pago a ${trickyStore}`);
    assert.equal(es.get('og:description'), 'Camiseta <b>talla M</b> · $\u00a050.000. Paga con Nequi y Daviplata.');
    assert.equal(es.get('og:url'), undefined, 'no address it was not told');
    const en = metaOf(await renderHostedPage(source, { hash: 'abc123', link: { ...link, amount: null }, now, locale: 'en', url }));
    assert.equal(en.get('og:title'), `Payment to ${trickyStore}`);
    assert.equal(en.get('og:description'), 'Camiseta <b>talla M</b> · You choose the amount. Pay with Nequi and Daviplata.');
    assert.equal(en.get('og:url'), 'https://shop.example/checkout/abc123?locale=en');
    const once = await renderHostedPage(source, { hash: 'abc123', link, now });
    assert.equal(once.match(/<meta name="description"/g)?.length, 1, 'the neutral tags are replaced, not repeated');
    assert.equal(once.match(/<meta property="og:title"/g)?.length, 1);
  });

  it('says a paid link is paid, and names no buyer or order', async () => {
    const paid = metaOf(await renderHostedPage(source, { hash: 'abc123', link: { ...link, status: 'paid', shopper: { email: 'ana@example.co' } }, now }));
    assert.equal(paid.get('og:description'), 'Camiseta <b>talla M</b> · Este enlace ya fue pagado.');
    assert.doesNotMatch([...paid.values()].join(' '), /ana@example/);
  });

  it('answers the page and its headers with withHeaders; today’s callers still get the page alone', async () => {
    const plain = await renderHostedPage(source, { hash: 'abc123', link, now });
    assert.equal(typeof plain, 'string');
    const { html, headers } = await renderHostedPage(source, { hash: 'abc123', link, now, url, withHeaders: true });
    assert.equal(html.replace(/\n\s*<meta property="og:url"[^>]*>/, ''), plain, 'the same page, with its address');
    assertPaymentHeaders(new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), { https: true });
    // The header's policy is the page's own, with the drawn screen's style hashes.
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.equal(headers['Content-Security-Policy'], `${meta}; frame-ancestors 'none'`);
    const asBuilt = await renderHostedPage(source, { hash: 'other', link, now, withHeaders: true });
    assert.equal(asBuilt.html, source, 'a foreign answer: the page as built');
    assertPaymentHeaders(new Map(Object.entries(asBuilt.headers).map(([k, v]) => [k.toLowerCase(), v])));
  });

  it('lets the merchant’s own origins frame the page, and refuses what is not an origin', () => {
    const own = hostedPageHeaders(source, { frameAncestors: ['https://shop.example', 'https://admin.shop.example'] });
    assert.match(own['Content-Security-Policy'] ?? '', /frame-ancestors https:\/\/shop\.example https:\/\/admin\.shop\.example$/);
    assert.equal(own['X-Frame-Options'], undefined, 'X-Frame-Options cannot name another origin');
    assert.equal(hostedPageHeaders(source, { frameAncestors: ["'self'"] })['X-Frame-Options'], 'SAMEORIGIN');
    for (const bad of ['shop.example', "https://shop.example; script-src *", 'https://shop.example/pay', 'javascript:alert(1)']) {
      assert.throws(() => hostedPageHeaders(source, { frameAncestors: [bad] }), /frameAncestors: each entry must be an origin/);
    }
    return assert.rejects(renderHostedPage(source, { hash: 'abc123', link, now, url: '/checkout/abc123' }), /url must be the page's absolute http\(s\) URL/);
  });
});

describe('writeHostedPage', () => {
  it('writes the page’s headers beside it as _headers, for every path under its base path', () => {
    const from = mkdtempSync(path.join(tmpdir(), 'pay-hosted-from-'));
    const out = mkdtempSync(path.join(tmpdir(), 'pay-hosted-out-'));
    try {
      mkdirSync(path.join(from, 'assets'));
      writeFileSync(path.join(from, 'index.html'), source);
      writeHostedPage({ from, outDir: out, apiBase: 'https://api.example.com/v1', basePath: '/pay/', frameAncestors: ['https://shop.example'] });
      const [first, ...lines] = readFileSync(path.join(out, '_headers'), 'utf8').trimEnd().split('\n');
      assert.equal(first, '/pay/*');
      const headers = new Map(lines.map((line) => /^ {2}([\w-]+): (.+)$/.exec(line)?.slice(1) as [string, string]).map(([k, v]) => [k.toLowerCase(), v]));
      assert.match(headers.get('content-security-policy') ?? '', /connect-src 'self' https:\/\/api\.example\.com; frame-ancestors https:\/\/shop\.example$/);
      assert.equal(headers.get('strict-transport-security'), 'max-age=31536000', 'a static host serves buyers over https');
      assert.equal(headers.get('x-content-type-options'), 'nosniff');
      assert.equal(headers.get('referrer-policy'), 'same-origin');
    } finally {
      rmSync(from, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is still exported by the sandbox’s subpath, for one more minor version', () => {
    assert.equal(typeof fromSandbox, 'function');
    assert.equal(fromSandbox, configureHostedPage);
  });
});
