// configureHostedPage / writeHostedPage: the deploy step that writes the service origin into the hosted page's
// static CSP and api-base meta, and moves its files to another path.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { configureHostedPage, writeHostedPage } from '../../src/server/hosted-page/index.js';

const source = readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8');
// The built page as Vite writes it: the source's metas, its files under /checkout/assets/.
// (Today the page's styles ride in its script; a stylesheet link stands for any other file a build may name.)
const built = source.replace(
  '<script type="module" src="./main.ts"></script>',
  '<link rel="stylesheet" crossorigin href="/checkout/assets/index-A1.css">\n    <script type="module" crossorigin src="/checkout/assets/index-B2.js"></script>',
);

const cspOf = (html: string) => {
  const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values.join(' ')]));
};

describe('configureHostedPage', () => {
  it('the page as built allows only its own origin for images and requests', () => {
    const csp = cspOf(built);
    assert.equal(csp.get('img-src'), "'self' data:");
    assert.equal(csp.get('connect-src'), undefined);
  });

  it('writes the API base and adds exactly its origin to connect-src and img-src', () => {
    const html = configureHostedPage(built, { apiBase: 'https://api.example.com/v1/' });
    assert.match(html, /<meta name="pay-api-base" content="https:\/\/api\.example\.com\/v1" \/>/);
    const csp = cspOf(html);
    assert.equal(csp.get('img-src'), "'self' data: https://api.example.com");
    assert.equal(csp.get('connect-src'), "'self' https://api.example.com");
    assert.equal(csp.get('default-src'), "'self'");
    assert.equal(csp.get('script-src'), "'self'");
    assert.equal(csp.get('base-uri'), "'none'");
    // Twice is the same as once.
    assert.equal(configureHostedPage(html, { apiBase: 'https://api.example.com/v1' }), html);
  });

  it('moves the page’s files to another path; the default path and an empty API base change nothing', () => {
    const moved = configureHostedPage(built, { basePath: '/tienda/pagar' });
    assert.match(moved, /src="\/tienda\/pagar\/assets\/index-B2\.js"/);
    assert.match(moved, /href="\/tienda\/pagar\/assets\/index-A1\.css"/);
    assert.doesNotMatch(moved, /"\/checkout\//);
    assert.equal(configureHostedPage(built, { apiBase: '', basePath: '/checkout/' }), built);
  });

  it('says what is wrong with bad input', () => {
    assert.throws(() => configureHostedPage('<!doctype html><title>x</title>'), /not the built hosted page.*dist\/hosted\/index\.html/);
    assert.throws(() => configureHostedPage(built, { apiBase: '/v1' }), /apiBase must be an absolute URL such as https:\/\/api\.example\.com\/v1/);
    assert.throws(() => configureHostedPage(built, { apiBase: 'javascript:alert(1)' }), /must be http\(s\)/);
    assert.throws(() => configureHostedPage(built, { basePath: 'checkout"><script>' }), /basePath must be a URL path/);
  });

  it('writeHostedPage copies the build and configures its index.html', () => {
    const from = mkdtempSync(path.join(tmpdir(), 'pay-hosted-from-'));
    const out = mkdtempSync(path.join(tmpdir(), 'pay-hosted-out-'));
    try {
      mkdirSync(path.join(from, 'assets'));
      writeFileSync(path.join(from, 'index.html'), built);
      writeFileSync(path.join(from, 'assets', 'index-B2.js'), 'export {};');
      writeHostedPage({ from, outDir: path.join(out, 'pay'), apiBase: 'https://api.example.com/v1', basePath: '/pay/' });
      const html = readFileSync(path.join(out, 'pay', 'index.html'), 'utf8');
      assert.equal(cspOf(html).get('img-src'), "'self' data: https://api.example.com");
      assert.match(html, /src="\/pay\/assets\/index-B2\.js"/);
      assert.equal(readFileSync(path.join(out, 'pay', 'assets', 'index-B2.js'), 'utf8'), 'export {};');
      assert.equal(readFileSync(path.join(from, 'index.html'), 'utf8'), built, 'the build itself is left as it was');
    } finally {
      rmSync(from, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
