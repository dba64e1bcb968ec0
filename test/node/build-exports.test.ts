/**
 * The package's subpath exports against a real build: every `exports` entry points at a file the
 * build emits, that file exports what its source module exports, and the Node-safe parts work from the bundle.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { buildWith, repoRoot, scratchDir, type BuiltFile } from './build-helpers.js';

interface ExportTarget {
  types: string;
  default?: string;
  node?: string;
}

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget | string>;
  main: string;
  module: string;
  types: string;
  sideEffects: string[];
  files: string[];
  customElements: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** Subpath → its source entry. */
const subpaths: Record<string, string> = {
  '.': 'src/index.ts',
  './define': 'src/define.ts',
  './contract': 'src/contract/index.ts',
  './client': 'src/client/index.ts',
  './webhooks': 'src/webhooks/index.ts',
  './server': 'src/server/index.ts',
  './server/redis': 'src/server/redis/index.ts',
  './server/postgres': 'src/server/postgres/index.ts',
  './sandbox': 'src/sandbox/index.ts',
  './react': 'src/react.ts',
};

const scratch = scratchDir('exports');
const dist = scratch.dir;
/** `./dist/x.js` in package.json → the scratch build's copy. */
const built = (target: string) => path.join(dist, target.replace(/^\.\/dist\//, ''));
const load = (target: string) => import(pathToFileURL(built(target)).href) as Promise<Record<string, unknown>>;
const sortedKeys = (module: object) => Object.keys(module).sort();

function targetOf(subpath: string): ExportTarget {
  const entry = pkg.exports[subpath];
  assert.ok(entry && typeof entry === 'object', `package.json exports has no conditions for ${subpath}`);
  return entry;
}
const runtimeFile = (target: ExportTarget) => target.default ?? target.node ?? '';

let library: BuiltFile[] = [];

/** The built files `entry` reaches through its static and dynamic imports, itself included. */
function reachableFrom(entry: string): Set<string> {
  const byName = new Map(library.map((file) => [file.fileName, file]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    const file = byName.get(name);
    if (seen.has(name) || !file) return;
    seen.add(name);
    for (const next of [...file.imports, ...file.dynamicImports]) visit(next);
  };
  visit(entry);
  return seen;
}

before(async () => {
  library = await buildWith('vite.config.ts', dist);
  // The hosted page next to the library, as in dist/, for the sandbox bundle to serve.
  await buildWith('vite.hosted.config.ts', path.join(dist, 'hosted'));
  // The build step that writes pay-checkout/openapi.json (npm run build).
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'build/openapi.ts'), built(String(pkg.exports['./openapi.json']))], { cwd: repoRoot, stdio: 'pipe' });
});
after(() => scratch.remove());

describe('package.json exports', () => {
  it('maps every subpath to a built file and a declaration of its source', () => {
    for (const [subpath, source] of Object.entries(subpaths)) {
      const target = targetOf(subpath);
      assert.ok(existsSync(built(runtimeFile(target))), `${subpath}: ${runtimeFile(target)} was not built`);
      // tsc emits dist/types/<path under src>.d.ts for each source file.
      assert.equal(target.types, `./dist/types/${source.replace(/^src\//, '').replace(/\.ts$/, '.d.ts')}`, `${subpath}: types`);
      assert.ok(existsSync(path.join(repoRoot, source)), `${subpath}: ${source} is missing`);
    }
  });

  it('keeps the sandbox Node-only and the bare specifier on the element', () => {
    assert.deepEqual(Object.keys(targetOf('./sandbox')).sort(), ['node', 'types']);
    assert.equal(pkg.main, runtimeFile(targetOf('.')));
    assert.equal(pkg.module, runtimeFile(targetOf('.')));
    assert.equal(pkg.types, targetOf('.').types);
    assert.deepEqual(pkg.exports['./pay-checkout.js'], { types: './dist/types/define.d.ts', default: './dist/pay-checkout.js' });
    assert.ok(pkg.files.includes('dist') && pkg.files.includes(pkg.customElements));
  });

  it('leaves dependencies and peers to the bundler: imported, never inlined', () => {
    const external = /[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit\/reactive-element|zod|qrcode|dijkstrajs|react|redis|@redis|pg|pg-pool)[\\/]/;
    const inlined = library.flatMap((file) => file.moduleIds.filter((id) => external.test(id)).map((id) => `${file.fileName}: ${id}`));
    assert.deepEqual(inlined, []);
    const imported = new Set(library.flatMap((file) => file.imports));
    for (const name of ['lit', 'zod/mini', 'react']) assert.ok(imported.has(name), `no chunk imports ${name}`);
    // Every dependency is imported by the build (the `vite` peer is for the types of paySandbox() only).
    for (const name of Object.keys(pkg.dependencies)) {
      assert.ok([...imported].some((id) => id === name || id.startsWith(`${name}/`)) || name === 'qrcode' || name === 'undici', `${name} is declared but never imported`);
    }
    // undici is required by a name no bundler follows (src/server/node/fetch.ts): only where Node's built-ins are, and
    // the handler falls back to node:http without it. The build keeps that call, and inlines none of undici.
    assert.ok(library.some((file) => /\(\s*(["'`])undici\1\s*\)/.test(readFileSync(path.join(dist, file.fileName), 'utf8'))), 'no chunk requires undici by name');
    assert.deepEqual(library.flatMap((file) => file.moduleIds.filter((id) => /[\\/]node_modules[\\/]undici[\\/]/.test(id))), [], 'undici is inlined');
    // qrcode stays a dynamic import, so a merchant's bundler splits it out as well.
    assert.ok(library.some((file) => file.dynamicImports.includes('qrcode')), 'qrcode is not dynamically imported');
    // redis (an optional peer) too: only createRedisStore({ url }) loads it, so a server without Redis never needs it.
    assert.ok(library.some((file) => file.dynamicImports.includes('redis')), 'redis is not dynamically imported');
    assert.ok(!imported.has('redis'), 'redis is imported statically');
  });

  it('keeps redis and pg out of pay-checkout/server: only their own subpaths name them', () => {
    // A bundler (Next.js route handler, edge) resolves every import() it sees, so server.js must not name redis at all.
    const byName = new Map(library.map((file) => [file.fileName, file]));
    const namesRedis = (id: string) => ['redis', 'pg'].includes(id) || id.startsWith('@redis/');
    const server = [...reachableFrom(runtimeFile(targetOf('./server')).replace(/^\.\/dist\//, ''))];
    assert.ok(server.length > 0);
    for (const fileName of server) {
      const file = byName.get(fileName)!;
      assert.deepEqual([...file.imports, ...file.dynamicImports].filter(namesRedis), [], `${fileName} (reached from pay-checkout/server) imports redis`);
      assert.doesNotMatch(readFileSync(path.join(dist, fileName), 'utf8'), /(import|require)\(\s*["'`](redis|pg)["'`]\s*\)|from\s*["'](redis|pg)["']/, `${fileName} names redis or pg`);
    }
    const redisEntry = runtimeFile(targetOf('./server/redis')).replace(/^\.\/dist\//, '');
    assert.ok([...reachableFrom(redisEntry)].some((fileName) => byName.get(fileName)!.dynamicImports.includes('redis')), 'pay-checkout/server/redis does not load redis');
    const postgresEntry = runtimeFile(targetOf('./server/postgres')).replace(/^\.\/dist\//, '');
    assert.ok([...reachableFrom(postgresEntry)].some((fileName) => byName.get(fileName)!.dynamicImports.includes('pg')), 'pay-checkout/server/postgres does not load pg');
  });

  it('names @opentelemetry/api in no import a bundler follows, and not at all in what a browser loads', () => {
    // The handler imports the API by a name no bundler resolves (an optional peer; edge bundles without it still build).
    const entryFile = (target: string) => runtimeFile(targetOf(target)).replace(/^\.\/dist\//, '');
    for (const file of library) {
      assert.deepEqual([...file.imports, ...file.dynamicImports].filter((id) => id.startsWith('@opentelemetry/')), [], `${file.fileName} imports OpenTelemetry`);
    }
    const server = [...reachableFrom(entryFile('./server'))];
    assert.ok(server.some((fileName) => readFileSync(path.join(dist, fileName), 'utf8').includes('@opentelemetry/api')), 'pay-checkout/server does not look for @opentelemetry/api');
    for (const target of ['.', './define', './client', './contract']) {
      for (const fileName of reachableFrom(entryFile(target))) {
        assert.doesNotMatch(readFileSync(path.join(dist, fileName), 'utf8'), /opentelemetry/i, `${fileName} (reached from ${target}) names OpenTelemetry`);
      }
    }
  });

  it('bundles the sandbox server stack into the sandbox only, and @lit/react into pay-checkout/react only', () => {
    const bundledIn = (name: RegExp) => library.filter((file) => file.moduleIds.some((id) => name.test(id))).map((file) => file.fileName);
    const sandboxFiles = bundledIn(/[\\/]src[\\/]sandbox[\\/]app\.ts$/);
    assert.equal(sandboxFiles.length, 1, 'the sandbox lives in one file');
    assert.deepEqual(bundledIn(/[\\/]node_modules[\\/](hono|@hono[\\/]node-server)[\\/]/), sandboxFiles);
    assert.deepEqual(bundledIn(/[\\/]node_modules[\\/]@lit[\\/]react[\\/]/), ['react.js']);
    for (const name of ['hono', '@hono/node-server', '@lit/react']) {
      assert.ok(!(name in pkg.dependencies) && !(name in pkg.peerDependencies), `${name} is bundled, so no install needs it`);
    }
  });
});

describe('built entry points', () => {
  // First: importing the source of src/define.ts would register its own class before the built one.
  it('pay-checkout/define registers <pay-checkout> with the class it exports', async () => {
    const module = await load(runtimeFile(targetOf('./define')));
    assert.equal(typeof module.PayCheckout, 'function');
    assert.equal(customElements.get('pay-checkout'), module.PayCheckout);
    assert.ok(pkg.sideEffects.includes(runtimeFile(targetOf('./define'))), 'define must be listed in sideEffects');
  });

  it('lists the file holding customElements.define in sideEffects, so a consumer\'s bundler keeps it', () => {
    // A React + Vite app dropped the define chunk (not listed) and rendered an unregistered <pay-checkout>.
    const listed = pkg.sideEffects.map((pattern) => new RegExp(`^${pattern.replace(/^\.\//, '').replace(/[.]/g, '\\.').replace(/\*\*?/g, '.*')}$`));
    const holders = library.filter((file) => file.moduleIds.some((id) => id.endsWith(`${path.sep}src${path.sep}define.ts`)));
    assert.ok(holders.length > 0, 'no built file holds src/define.ts');
    for (const file of holders) assert.ok(listed.some((re) => re.test(`dist/${file.fileName}`)), `dist/${file.fileName} is not in sideEffects`);
  });

  it('pay-checkout is side-effect free', () => {
    const code = readFileSync(built(runtimeFile(targetOf('.'))), 'utf8');
    assert.doesNotMatch(code, /customElements\.define/);
    assert.ok(!pkg.sideEffects.includes(runtimeFile(targetOf('.'))));
  });

  for (const [subpath, source] of Object.entries(subpaths)) {
    it(`${subpath === '.' ? 'pay-checkout' : `pay-checkout/${subpath.slice(2)}`} exports what ${source} exports`, async () => {
      const builtModule = await load(runtimeFile(targetOf(subpath)));
      const sourceModule = (await import(pathToFileURL(path.join(repoRoot, source)).href)) as object;
      assert.deepEqual(sortedKeys(builtModule), sortedKeys(sourceModule));
      assert.ok(Object.keys(builtModule).length > 0, `${subpath} exports nothing`);
    });
  }

  it('pay-checkout/webhooks signs what the source verifies (one algorithm in both)', async () => {
    const builtWebhooks = await load(runtimeFile(targetOf('./webhooks')));
    const sourceWebhooks = await import('../../src/webhooks/index.js');
    const payload = { event: 'order_payment', id_order: 42, status: 'paid' };
    const signature = await (builtWebhooks.sign as typeof sourceWebhooks.sign)(payload, 'whsec_test_demo');
    assert.equal(await sourceWebhooks.verify(payload, signature, 'whsec_test_demo'), true);
    assert.equal(await sourceWebhooks.verify(payload, signature, 'whsec_other'), false);
  });

  it('pay-checkout/react opens with "use client" (a client boundary for Server Components); no other entry does', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string' || !target.default || !existsSync(built(target.default))) continue; // the script tag's file is another build
      const code = readFileSync(built(target.default), 'utf8');
      const directive = /^\s*(['"])use client\1;?/.test(code);
      assert.equal(directive, subpath === './react', `${subpath}: "use client" ${directive ? 'present' : 'missing'}`);
    }
  });

  it('pay-checkout/react maps every element event to an onPay… prop', async () => {
    const react = await load(runtimeFile(targetOf('./react')));
    const events = react.payCheckoutEvents as Record<string, string>;
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, pkg.customElements), 'utf8')) as {
      modules: { declarations?: { tagName?: string; events?: { name: string }[] }[] }[];
    };
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'pay-checkout');
    const documented = (element?.events ?? []).map((event) => event.name).sort();
    assert.ok(documented.length > 0, 'custom-elements.json documents no events');
    assert.deepEqual(Object.values(events).sort(), documented);
    for (const [prop, event] of Object.entries(events)) {
      const expected = `on${event.split('-').map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')}`;
      assert.equal(prop, expected);
    }
    assert.equal((react.PayCheckout as { displayName?: string }).displayName, 'PayCheckout');
  });

  it('pay-checkout/sandbox serves the buyer API and the built hosted page on a real socket', async () => {
    const sandboxModule = await load(runtimeFile(targetOf('./sandbox')));
    const start = sandboxModule.startSandbox as (options: { port: number; host: string }) => Promise<{ url: string; baseUrl: string; close(): Promise<void> }>;
    const running = await start({ port: 0, host: '127.0.0.1' });
    try {
      const link = await fetch(`${running.baseUrl}/checkout/links/demo-fixed`);
      assert.equal(link.status, 200);
      const body = (await link.json()) as { data: { amount?: number } };
      assert.equal(body.data.amount, 50_000);
      const page = await fetch(`${running.url}/checkout/demo-fixed`);
      assert.equal(page.status, 200);
      // A payment page's headers, from the bundle too: no site may frame it.
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'$/);
      const html = await page.text();
      // The page built next to it, with this sandbox's origin written into its api-base meta and CSP.
      const configure = sandboxModule.configureHostedPage as (html: string, options: { apiBase: string }) => string;
      const builtPage = readFileSync(path.join(dist, 'hosted', 'index.html'), 'utf8');
      const english = await fetch(`${running.url}/checkout/demo-fixed?locale=en`);
      assert.equal(english.headers.get('content-type'), 'text/html; charset=utf-8');
      // A link it cannot show goes as built; a known one, in either language, with its first screen drawn by the bundled Lit SSR.
      assert.equal(await (await fetch(`${running.url}/checkout/no-such-link`)).text(), configure(builtPage, { apiBase: running.baseUrl }), 'the bundled sandbox must serve the hosted page built next to it');
      assert.match(await english.text(), /<html lang="en">[\s\S]*<pay-checkout[^>]*locale="en"[^>]*><template shadowroot="open" shadowrootmode="open">[\s\S]*Choose how to pay/);
      assert.match(html, /<pay-checkout[^>]*><template shadowroot="open" shadowrootmode="open">/);
      assert.match(html, /<script type="application\/json">\{"data":\{"hash":"demo-fixed"/);
      // The built entry script, carried in the drawn page rather than named.
      const entry = /<script type="module" src="\/checkout\/([^"]+)"><\/script>/.exec(builtPage)?.[1] ?? '-';
      const entryText = readFileSync(path.join(dist, 'hosted', entry), 'utf8');
      assert.ok(html.includes(`<script type="module">//# allFunctionsCalledOnLoad\n`), 'a module script in the page');
      assert.ok(html.includes(entryText.replace(/^\/\/# allFunctionsCalledOnLoad\n/, '').slice(0, 400)), 'the built entry script, in the page');
      assert.ok(!html.includes(entry), 'and not named');
      // The OpenAPI document: generated by the bundle as the build step wrote it (pay-checkout/openapi.json).
      const served = (await (await fetch(`${running.url}/openapi.json`)).json()) as Record<string, unknown>;
      const shipped = JSON.parse(readFileSync(built(String(pkg.exports['./openapi.json'])), 'utf8')) as Record<string, unknown>;
      assert.deepEqual({ ...served, servers: null }, { ...shipped, servers: null });
    } finally {
      await running.close();
    }
  });
});
