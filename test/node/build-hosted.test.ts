/**
 * The hosted page: `{checkout_url}/HASH` → the link hash, the api-base, and a built index.html that a strict CSP
 * allows (no inline script; one inline style, the page's own, by its hash) with its files named absolutely under /checkout/ (scripts import each
 * other relatively), so one rewrite rule serves it at any path below, trailing slash included.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiBaseFrom, linkFromPath, localeFrom } from '../../hosted/link-from-path.js';
import { hostedPagePlugin, isHostedPagePath, rewriteHostedHtml } from '../../build/vite-hosted.js';
import { pageStyleHash } from '../../build/hosted-page-style.js';
import { pageCss } from '../../hosted/page-styles.js';
import { startSandbox } from '../../src/sandbox/server.js';
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
    assert.equal(isHostedPagePath('/checkout/demo-fixed/'), true);
    assert.equal(isHostedPagePath('/checkout/demo-fixed/?locale=en'), true);
    assert.equal(isHostedPagePath('/checkout/'), false);
    assert.equal(isHostedPagePath('/checkout/main.ts'), false);
    assert.equal(isHostedPagePath('/checkout/a/b'), false);
    assert.equal(isHostedPagePath('/v1/checkout/links/demo-fixed'), false);
  });

  it('npm start serves the source page at /checkout/HASH/ with the sandbox origin in its meta and CSP, and its files load', async () => {
    const { createServer } = await import('vite');
    const { paySandbox } = await import('../../src/sandbox/vite-plugin.js');
    const server = await createServer({
      configFile: false,
      root: path.join(repoRoot, 'demo'),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      plugins: [paySandbox(), hostedPagePlugin()],
    });
    await server.listen();
    try {
      const origin = new URL(server.resolvedUrls?.local[0] ?? '').origin;
      const res = await fetch(`${origin}/checkout/demo-fixed/`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', 'the headers a payment page goes with, in npm start too');
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'$/);
      const html = await res.text();
      assert.match(html, new RegExp(`<meta name="pay-api-base" content="${origin}/v1"`));
      assert.match(html, new RegExp(`img-src 'self' data: ${origin}[;"]`));
      const main = /src="(\/@fs\/[^"]+\/hosted\/main\.ts)"/.exec(html)?.[1];
      assert.ok(main, html);
      assert.equal((await fetch(`${origin}${main}`)).status, 200);
    } finally {
      await server.close();
    }
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

  it('parses in Safari 15 (docs/site/install.md "Supported browsers"): no class static block, a syntax error before Safari 16.4', () => {
    const scripts = files.filter((f) => f.fileName.endsWith('.js'));
    assert.ok(scripts.length > 0, 'no scripts built');
    for (const { fileName } of scripts) {
      const code = readFileSync(path.join(scratch.dir, fileName), 'utf8');
      assert.doesNotMatch(code, /\bstatic\s*\{/, `${fileName} has a class static block`);
    }
  });

  it('carries no comment of its source, and a neutral link preview', () => {
    assert.ok(readFileSync(path.join(repoRoot, 'hosted', 'index.html'), 'utf8').includes('<!--'), 'the source has comments to leave out');
    assert.doesNotMatch(html, /<!--/);
    assert.match(html, /<meta name="description" content="Página de pago del comercio\." \/>/);
    assert.match(html, /<meta property="og:title" content="Pago" \/>/);
    assert.match(html, /<meta name="robots" content="noindex" \/>/);
  });

  it('has a strict Content-Security-Policy', () => {
    const csp = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    assert.ok(csp, 'no CSP meta');
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values.join(' ')]));
    assert.equal(directives.get('default-src'), "'self'");
    assert.equal(directives.get('script-src'), "'self'");
    // The page's own styles are inline, allowed by their hash alone (build/hosted-page-style.ts): laid out at first paint.
    assert.equal(directives.get('style-src'), `'self' ${pageStyleHash}`);
    assert.equal(directives.get('img-src'), "'self' data:");
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });

  it('has no inline script, style attribute or event handler, and one inline style: the page’s own', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0, 'no script at all');
    for (const [, attributes = '', body = ''] of scripts) {
      assert.match(attributes, /\bsrc="/, 'a script without src');
      assert.equal(body.trim(), '', 'a script with a body');
    }
    // One style element, the page's own, whose text is exactly what its hash allows.
    assert.deepEqual([...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]), [pageCss]);
    assert.doesNotMatch(html, /\sstyle="/i);
    assert.doesNotMatch(html, /\son[a-z]+="/i);
  });

  it('names its files absolutely under /checkout/, they exist, and the scripts load each other relatively', () => {
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    // In-page references (the render-blocking mark after the first screen) name an element the page has.
    for (const url of urls.filter((u) => u.startsWith('#'))) assert.match(html, new RegExp(`\\sid="${url.slice(1)}"`), `${url} names no element`);
    const local = urls.filter((url) => !url.startsWith('data:') && !url.startsWith('#'));
    assert.ok(local.length >= 1, 'expected the script');
    for (const url of local) {
      assert.match(url, /^\/checkout\/assets\//, `${url} is not under /checkout/`);
      assert.ok(existsSync(path.join(scratch.dir, url.slice('/checkout/'.length))), `${url} was not emitted`);
    }
    // Only index.html carries the path: moving the page is one rewrite of it (configureHostedPage).
    for (const file of files.filter((f) => f.fileName.endsWith('.js'))) {
      assert.doesNotMatch(readFileSync(path.join(scratch.dir, file.fileName), 'utf8'), /\/checkout\/assets\//, file.fileName);
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
  it('names every module of the first interactive screen in its head; the sandbox carries the entry in the page, or hints it', async () => {
    const chunkOf = (source: RegExp) => files.find((file) => file.moduleIds.some((id) => source.test(id)))?.fileName ?? '';
    const entry = chunkOf(/[\\/]hosted[\\/]main\.ts$/);
    // The entry holds the link reader and the Spanish first screens: it is the first screen's one module. English
    // comes with its catalog (the method screen waits for the whole catalog).
    assert.equal(chunkOf(/[\\/]src[\\/]client[\\/]link-reader-lite\.ts$/), entry, 'the link reader is in the entry');
    assert.equal(chunkOf(/[\\/]src[\\/]i18n[\\/]es-first\.ts$/), entry, 'Spanish first screens are in the entry');
    assert.equal(chunkOf(/[\\/]src[\\/]i18n[\\/]en-first\.ts$/), chunkOf(/[\\/]src[\\/]i18n[\\/]en\.ts$/), 'English first screens come with the English catalog');
    assert.deepEqual(files.find((file) => file.fileName === entry)?.imports, [], 'the entry imports nothing statically');
    const asLinks = (names: string[]) => names.map((name) => `</checkout/${name}>; rel=modulepreload`).sort();
    const head = html.split('</head>')[0] ?? '';
    const named = [...head.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="\/checkout\/([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.deepEqual(named, [entry], 'the static page’s head requests the entry, and nothing else is needed');
    // The entry asks Chromium to compile all of it while it streams in; a lazy chunk does not.
    assert.match(readFileSync(path.join(scratch.dir, entry), 'utf8'), /^\/\/# allFunctionsCalledOnLoad\n/);
    assert.doesNotMatch(readFileSync(path.join(scratch.dir, chunkOf(/[\\/]later-steps\.ts$/)), 'utf8'), /allFunctionsCalledOnLoad/);
    const running = await startSandbox({ port: 0, hostedDir: scratch.dir, defaultReceiver: false });
    const get = (pathname: string) =>
      new Promise<{ hints: string[]; link: string; body: string }>((resolve, reject) => {
        const hints: string[] = [];
        const request = http.get(`${running.url}${pathname}`, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ hints, link: String(res.headers.link ?? ''), body: text }));
        });
        request.on('information', (info) => info.statusCode === 103 && hints.push(String(info.headers.link ?? '')));
        request.on('error', reject);
      });
    try {
      for (const query of ['', '?locale=en']) {
        // A link it draws: the entry in the page itself, so nothing to hint.
        const { hints, link, body } = await get(`/checkout/demo-fixed${query}`);
        assert.deepEqual(hints, [], `no 103 for a page that carries its script${query}`);
        assert.equal(link, '', `no Link header${query}`);
        assert.doesNotMatch(body, new RegExp(entry.replace('.', '\\.')), `the entry is not named${query}`);
        const inline = /<script type="module">([\s\S]*?)<\/script>(?:\s*<link rel="modulepreload" href="[^"]+" \/>)*\s*<\/body>/.exec(body)?.[1] ?? '';
        // After it, the next screens' chunks: the details step first and the page's language's catalog, as built; not the
        // later steps, whose bytes would share a slow line with them (they are asked for a moment after the details step).
        const preloaded = [...body.matchAll(/<link rel="modulepreload" href="\/checkout\/(assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
        const catalog = chunkOf(query ? /[\\/]src[\\/]i18n[\\/]en\.ts$/ : /[\\/]src[\\/]i18n[\\/]es\.ts$/);
        assert.deepEqual(preloaded, [chunkOf(/[\\/]details-steps\.ts$/), catalog], `the next screens preloaded${query}`);
        const file = readFileSync(path.join(scratch.dir, entry), 'utf8').replace(/\bimport\(`\.\//g, 'import(`/checkout/assets/');
        // The entry, in the page, after a first statement that waits for the first paint (hosted-page-render.test.ts).
        assert.equal(inline.replace(/^(\/\/# allFunctionsCalledOnLoad\n)performance[^|]*\|\|await new Promise\(\(go\)=>\{[^}]*\}\);/, '$1'), file, `the entry, in the page${query}`);
      }
      // A link it cannot draw gets the page as built: the entry is hinted and named.
      const asBuilt = await get('/checkout/no-such-link');
      assert.deepEqual(asBuilt.hints.map((h) => h.split(', ').sort()), [asLinks([entry])]);
      assert.deepEqual(asBuilt.link.split(', ').sort(), asLinks([entry]));
      assert.ok(asBuilt.body.includes(`/checkout/${entry}"`));
      // A file is just a file, and a host the sandbox does not serve gets its refusal alone: no hints.
      const informational = (path: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve) => {
          let count = 0;
          http.get(`${running.url}${path}`, { headers }, (res) => res.resume().on('end', () => resolve(count))).on('information', () => (count += 1));
        });
      assert.equal(await informational(`/checkout/${entry}`), 0);
      assert.equal(await informational('/checkout/demo-fixed', { Host: 'evil.example' }), 0);
    } finally {
      await running.close();
    }
  });

  it('the sandbox serves it at any path shape, its files resolve from each, and its CSP names the service origin', async () => {
    const running = await startSandbox({ port: 0, hostedDir: scratch.dir, defaultReceiver: false });
    try {
      // Buyers reach the sandbox at 127.0.0.1; this page is opened at localhost, so the icons are on another origin.
      const page = running.url.replace('127.0.0.1', 'localhost');
      for (const shape of ['/checkout/demo-fixed', '/checkout/demo-fixed/', '/checkout/demo-fixed/?locale=en', '/checkout/shop/demo-fixed', '/checkout/demo-fixed//']) {
        const res = await fetch(`${page}${shape}`);
        assert.equal(res.status, 200, shape);
        const served = await res.text();
        assert.match(served, new RegExp(`<meta name="pay-api-base" content="${running.url}/v1"`), shape);
        const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(served)?.[1] ?? '';
        const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values.join(' ')]));
        assert.equal(directives.get('img-src'), `'self' data: ${running.url}`, shape);
        assert.equal(directives.get('connect-src'), `'self' ${running.url}`, shape);
        // The page carries its entry and the early-tap script, allowed by their hashes alone.
        assert.match(directives.get('script-src') ?? '', /^'self' 'sha256-[\w+/]+=*' 'sha256-[\w+/]+=*'$/, shape);
        for (const url of [...served.matchAll(/\bimport\(`(\/[^`]+)`\)/g)].map((m) => m[1] ?? '')) {
          const chunk = await fetch(new URL(url, `${page}${shape}`));
          assert.equal(chunk.status, 200, `${url} from ${shape}`);
          assert.match(chunk.headers.get('content-type') ?? '', /javascript/, `${url} from ${shape}`);
        }
        for (const url of [...served.matchAll(/\s(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] ?? '')) {
          const asset = await fetch(new URL(url, `${page}${shape}`));
          assert.equal(asset.status, 200, `${url} from ${shape}`);
          assert.match(asset.headers.get('content-type') ?? '', /javascript|css/, `${url} from ${shape}`);
        }
      }
      const icon = (await (await fetch(`${running.baseUrl}/checkout/links/demo-fixed`)).json()) as { data: { gateways: { icon: string }[] } };
      for (const { icon: src } of icon.data.gateways) assert.equal(new URL(src).origin, running.url, 'icons come from the service origin');
    } finally {
      await running.close();
    }
  });
});
