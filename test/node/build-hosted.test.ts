/**
 * The hosted page: `{checkout_url}/HASH` → the link hash, the api-base, and a built index.html that a strict CSP
 * allows (no inline script or style anywhere) with every URL relative, so one rewrite rule serves it anywhere.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiBaseFrom, linkFromPath, localeFrom } from '../../hosted/link-from-path.js';
import { isHostedPagePath, rewriteHostedHtml } from '../../scripts/vite-hosted.js';
import { buildWith, repoRoot, scratchDir, type BuiltFile } from './build-helpers.js';

describe('hosted page URL', () => {
  it('takes the link hash from the last path segment, under any prefix', () => {
    assert.equal(linkFromPath('/checkout/demo-fixed'), 'demo-fixed');
    assert.equal(linkFromPath('/pay/checkout/abc123/'), 'abc123');
    assert.equal(linkFromPath('/abc%20x'), 'abc x');
    assert.equal(linkFromPath('/checkout/'), 'checkout'); // the prefix itself names a (missing) link: the API says "not found"
    assert.equal(linkFromPath('/'), undefined);
    assert.equal(linkFromPath('/checkout/index.html'), undefined);
    assert.equal(linkFromPath('/checkout/%E0%A4%A'), undefined); // malformed escape
  });

  it('uses the page meta for api-base, else this origin’s /v1', () => {
    assert.equal(apiBaseFrom('', 'https://pay.example'), 'https://pay.example/v1');
    assert.equal(apiBaseFrom(null, 'https://pay.example'), 'https://pay.example/v1');
    assert.equal(apiBaseFrom(' https://api.example/v1/ ', 'https://pay.example'), 'https://api.example/v1');
    assert.equal(apiBaseFrom('/shop/api/v1', 'https://pay.example'), 'https://pay.example/shop/api/v1');
  });

  it('stays Spanish unless ?locale=en', () => {
    assert.equal(localeFrom(''), 'es');
    assert.equal(localeFrom('?locale=en'), 'en');
    assert.equal(localeFrom('?locale=fr'), 'es');
  });
});

describe('dev server route (hostedPagePlugin)', () => {
  it('answers /checkout/HASH and nothing else', () => {
    assert.equal(isHostedPagePath('/checkout/demo-fixed'), true);
    assert.equal(isHostedPagePath('/checkout/demo-fixed?locale=en'), true);
    assert.equal(isHostedPagePath('/checkout/'), false);
    assert.equal(isHostedPagePath('/checkout/main.ts'), false);
    assert.equal(isHostedPagePath('/checkout/a/b'), false);
    assert.equal(isHostedPagePath('/v1/checkout/links/demo-fixed'), false);
  });

  it('points the page’s relative files at the source folder', () => {
    const html = '<link rel="stylesheet" href="./hosted.css"><script type="module" src="./main.ts"></script><a href="https://x">x</a>';
    assert.equal(
      rewriteHostedHtml(html, '/@fs/repo/hosted/'),
      '<link rel="stylesheet" href="/@fs/repo/hosted/hosted.css"><script type="module" src="/@fs/repo/hosted/main.ts"></script><a href="https://x">x</a>',
    );
  });
});

describe('built hosted page (vite.hosted.config.ts)', () => {
  const scratch = scratchDir('hosted');
  let files: BuiltFile[] = [];
  let html = '';
  before(async () => {
    files = await buildWith('vite.hosted.config.ts', scratch.dir);
    html = readFileSync(path.join(scratch.dir, 'index.html'), 'utf8');
  });
  after(() => scratch.remove());

  it('has a strict Content-Security-Policy', () => {
    const csp = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    assert.ok(csp, 'no CSP meta');
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values.join(' ')]));
    assert.equal(directives.get('default-src'), "'self'");
    assert.equal(directives.get('script-src'), "'self'");
    assert.equal(directives.get('style-src'), "'self'");
    assert.equal(directives.get('img-src'), "'self' data:");
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });

  it('has no inline script, style, style attribute or event handler', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0, 'no script at all');
    for (const [, attributes = '', body = ''] of scripts) {
      assert.match(attributes, /\bsrc="/, 'a script without src');
      assert.equal(body.trim(), '', 'a script with a body');
    }
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle="/i);
    assert.doesNotMatch(html, /\son[a-z]+="/i);
  });

  it('refers to its files relatively, and they exist', () => {
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    const local = urls.filter((url) => !url.startsWith('data:'));
    assert.ok(local.length >= 1, 'expected the script (the page styles ride in it)');
    for (const url of local) {
      assert.match(url, /^\.\/assets\//, `${url} is not relative to the page`);
      assert.ok(existsSync(path.join(scratch.dir, url)), `${url} was not emitted`);
    }
  });

  it('is Spanish by default, carries the api-base meta and one h1, and registers the element', () => {
    assert.match(html, /<html lang="es">/);
    assert.equal([...html.matchAll(/<h1\b/g)].length, 1, 'the page needs one h1 (the element’s screens use h2)');
    assert.match(html, /<meta name="pay-api-base" content=""\s*\/?>/);
    const entry = files.find((file) => file.moduleIds.some((id) => id.endsWith(`${path.sep}hosted${path.sep}main.ts`)));
    assert.ok(entry, 'no chunk holds hosted/main.ts');
    assert.ok(entry.moduleIds.some((id) => id === path.join(repoRoot, 'src', 'define.ts')), 'src/define.ts was tree-shaken out of the page');
  });

  it('keeps qrcode and the en catalog out of the page’s first script', () => {
    const entry = files.find((file) => file.moduleIds.some((id) => id.endsWith(`${path.sep}hosted${path.sep}main.ts`)));
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name)) return;
      initial.add(name);
      for (const imported of files.find((file) => file.fileName === name)?.imports ?? []) visit(imported);
    };
    visit(entry?.fileName ?? '');
    const initialModules = files.filter((file) => initial.has(file.fileName)).flatMap((file) => file.moduleIds);
    assert.ok(!initialModules.some((id) => id.includes(`${path.sep}node_modules${path.sep}qrcode${path.sep}`)));
    assert.ok(!initialModules.some((id) => id.endsWith(path.join('src', 'i18n', 'en.ts'))));
    assert.ok(files.some((file) => /^assets\/qrcode-.+\.js$/.test(file.fileName)), 'no lazy qrcode chunk');
  });
});
