// `pay-checkout serve`'s browser files on the buyer API's origin: the element's script for the shop's pages (CORS for
// its origins, a short cache for /pay-checkout.js, a year for hashed names, br and gzip by Accept-Encoding), the
// script telling the element where its buyer API is, and the hosted page drawn per link with a payment page's headers.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const shop = 'https://shop.example';
/** A script large enough to be compressed, as the build's are. */
const script = (name: string) => `export const ${name} = ${JSON.stringify('x'.repeat(4_000))};\n`;

/** A dist/ as the build lays it out: the script family at the top, the hosted page under hosted/. */
function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'serve-dist-'));
  writeFileSync(path.join(dist, 'pay-checkout.js'), `${script('entry')}import("./pay-checkout.en-Ab_1cD2e.js");\n`);
  writeFileSync(path.join(dist, 'pay-checkout.en-Ab_1cD2e.js'), script('en'));
  mkdirSync(path.join(dist, 'hosted', 'assets'), { recursive: true });
  const page = readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8')
    .replace('src="./main.ts"', 'src="/checkout/assets/main-Zx9_8yW7.js"')
    .replace('</head>', '<link rel="modulepreload" href="/checkout/assets/reader-Qw3_4eR5.js" />\n  </head>');
  writeFileSync(path.join(dist, 'hosted', 'index.html'), page);
  writeFileSync(path.join(dist, 'hosted', 'assets', 'main-Zx9_8yW7.js'), script('main'));
  return dist;
}

/** A GET with these headers, its body as bytes (fetch would decode it). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; hints: string[] }> {
  return new Promise((resolve, reject) => {
    const hints: string[] = [];
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), hints }));
    });
    // 103 Early Hints, before the answer.
    req.on('information', (info) => {
      if (info.statusCode === 103) hints.push(String(info.headers.link));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('pay-checkout serve: the element\'s script and the hosted page', () => {
  let sandbox: TestSandbox;
  let serve: RunningServeCommand;
  /** Behind a proxy at https://pay.shop.example, framed by the shop's own pages. */
  let proxied: RunningServeCommand;
  /** Behind a plain-http origin (a staging box): the page's URL, no HSTS. */
  let plain: RunningServeCommand;
  let dist: string;
  let links: string;

  before(async () => {
    dist = fakeDist();
    links = path.join(dist, 'links.json');
    writeFileSync(links, JSON.stringify({ camiseta: { amount: 20_000, description: 'Camiseta <b>roja</b>', store_name: 'Tienda Sol', image_url: 'https://shop.example/img/camiseta.jpg' } }));
    sandbox = await startTestSandbox();
    const env = { PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_LINKS_FILE: links, PAY_CHECKOUT_ALLOWED_ORIGINS: shop, PORT: '0', HOST: '127.0.0.1' };
    const start = (more: Record<string, string>) => startServeCommand(parseServeCommandSettings(rawSettings({ ...env, ...more })), { onEvent: () => {}, dist });
    [serve, proxied, plain] = await Promise.all([
      start({}),
      start({ PAY_CHECKOUT_PUBLIC_URL: 'https://pay.shop.example/', PAY_CHECKOUT_FRAME_ANCESTORS: `${shop}, https://www.shop.example` }),
      start({ PAY_CHECKOUT_PUBLIC_URL: 'http://staging.shop.example:8080' }),
    ]);
  });
  after(async () => {
    await Promise.all([serve, proxied, plain].map((s) => s?.close({ graceMs: 0 })));
    await sandbox?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('/pay-checkout.js: CORS for the shop, cached five minutes, and it tells the element its buyer API is this server', async () => {
    const answer = await get(`${serve.url}/pay-checkout.js`, { origin: shop });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], shop);
    assert.equal(answer.headers['cache-control'], 'public, max-age=300');
    assert.match(String(answer.headers['content-type']), /^text\/javascript/);
    assert.match(String(answer.headers.vary), /Origin/);
    assert.match(String(answer.headers.vary), /Accept-Encoding/);
    const text = answer.body.toString('utf8');
    assert.match(text, /^globalThis\[Symbol\.for\("pay-checkout\.api-base"\)\]\?\?=new URL\("\.\/v1",import\.meta\.url\)\.href;\n/);
    assert.ok(text.endsWith(readFileSync(path.join(dist, 'pay-checkout.js'), 'utf8')), 'the built script follows, unchanged');
    const other = await get(`${serve.url}/pay-checkout.js`, { origin: 'https://elsewhere.example' });
    assert.equal(other.headers['access-control-allow-origin'], undefined, 'an origin not allowed gets no CORS');
  });

  test('a hashed chunk is cached for a year; br or gzip as the browser takes them, each decoding to the file', async () => {
    const raw = readFileSync(path.join(dist, 'pay-checkout.en-Ab_1cD2e.js'));
    const br = await get(`${serve.url}/pay-checkout.en-Ab_1cD2e.js`, { 'accept-encoding': 'gzip, deflate, br', origin: shop });
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.body.length < raw.length / 4, `${br.body.length} bytes of ${raw.length}`);
    assert.deepEqual(brotliDecompressSync(br.body), raw);
    const gz = await get(`${serve.url}/pay-checkout.en-Ab_1cD2e.js`, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), raw);
    const none = await get(`${serve.url}/pay-checkout.en-Ab_1cD2e.js`, { 'accept-encoding': 'br;q=0, identity' });
    assert.equal(none.headers['content-encoding'], undefined);
    assert.deepEqual(none.body, raw);
    const again = await get(`${serve.url}/pay-checkout.en-Ab_1cD2e.js`, { 'if-none-match': String(none.headers.etag) });
    assert.equal(again.status, 304);
  });

  test('the hosted page\'s own files under /checkout/, cached for a year when hashed', async () => {
    const entry = await get(`${serve.url}/checkout/assets/main-Zx9_8yW7.js`);
    assert.equal(entry.status, 200);
    assert.equal(entry.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  test('/checkout/{hash}: the page with the link in it, the store named as text, its picture in the preview, sent with a payment page\'s headers', async () => {
    const page = await get(`${serve.url}/checkout/camiseta`, { 'accept-encoding': 'gzip' });
    assert.equal(page.status, 200);
    const html = gunzipSync(page.body).toString('utf8');
    assert.match(html, /<title>Tienda Sol · Pago<\/title>/);
    assert.doesNotMatch(html, /<b>roja<\/b>/, 'the link\'s text is never HTML');
    assert.match(html, /<meta property="og:image" content="https:\/\/shop\.example\/img\/camiseta\.jpg" \/>/, 'the record\'s image_url is the preview\'s picture');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(String(page.headers['content-security-policy']), new RegExp(`img-src [^;]*${sandbox.origin.replace(/[.]/g, '\\.')}`), 'the gateway icons come from the service');
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    // With no public URL, the request's Host (which a client chooses) names nothing: no og:url, no HSTS.
    assert.doesNotMatch(html, /og:url/);
    assert.equal(page.headers['strict-transport-security'], undefined);
    // The first screen's modules named before the page, while the link is asked for.
    assert.deepEqual(page.hints, ['</checkout/assets/reader-Qw3_4eR5.js>; rel=modulepreload']);
  });

  test('/checkout/{hash} behind a public https URL: og:url drawn from it, not from Host; HSTS; framed only by the shop\'s origins', async () => {
    for (const [query, suffix] of [['', ''], ['?locale=en', '\\?locale=en']] as const) {
      const page = await get(`${proxied.url}/checkout/camiseta${query}`, { host: 'evil.example' });
      assert.equal(page.status, 200);
      const html = page.body.toString('utf8');
      assert.match(html, new RegExp(`<meta property="og:url" content="https://pay\\.shop\\.example/checkout/camiseta${suffix}" />`));
      assert.doesNotMatch(html, /evil\.example/);
      assert.match(String(page.headers['strict-transport-security']), /^max-age=\d+/);
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors https:\/\/shop\.example https:\/\/www\.shop\.example(;|$)/);
      assert.equal(page.headers['x-frame-options'], undefined, 'X-Frame-Options cannot name origins: the CSP says who may frame');
    }
    // A link it cannot draw still goes with the same headers.
    const none = await get(`${proxied.url}/checkout/nada`);
    assert.equal(none.status, 404);
    assert.match(String(none.headers['strict-transport-security']), /^max-age=\d+/);
    assert.match(String(none.headers['content-security-policy']), /frame-ancestors https:\/\/shop\.example https:\/\/www\.shop\.example(;|$)/);
  });

  test('behind a public https URL every answer carries HSTS: the buyer API, health, the script, a 404; over plain http none does', async () => {
    for (const route of ['/v1/checkout/links/camiseta', '/v1/health', '/pay-checkout.js', '/wp-login.php']) {
      const answer = await get(`${proxied.url}${route}`);
      assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000', route);
      const bare = await get(`${plain.url}${route}`);
      assert.equal(bare.headers['strict-transport-security'], undefined, route);
    }
  });

  test('/checkout/{hash} behind a public http URL: og:url from it, no HSTS', async () => {
    const page = await get(`${plain.url}/checkout/camiseta`);
    assert.match(page.body.toString('utf8'), /<meta property="og:url" content="http:\/\/staging\.shop\.example:8080\/checkout\/camiseta" \/>/);
    assert.equal(page.headers['strict-transport-security'], undefined);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
  });

  test('/checkout/{hash} of no link: the page as built, answered 404, the element says so', async () => {
    const page = await get(`${serve.url}/checkout/nada`);
    assert.equal(page.status, 404);
    assert.match(page.body.toString('utf8'), /<pay-checkout|id="checkout"/);
  });

  test('anything else is the contract\'s 404, and a file takes no POST', async () => {
    const unknown = await get(`${serve.url}/wp-login.php`);
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.body.toString('utf8')).api_code, 'NOT_FOUND');
    const post = await fetch(`${serve.url}/pay-checkout.js`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(((await post.json()) as { api_code: string }).api_code, 'METHOD_NOT_ALLOWED');
  });
});
