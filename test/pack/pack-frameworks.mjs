// The frameworks step of the packaging check (test/pack/pack-check.mjs): each app in test/pack/projects/FRAMEWORK/ gets
// the packed tarball in its own install (one per framework, npm's shared cache), builds as its users build it, is
// served, and is opened in Debian's Chromium, where a buyer pays with Nequi (push) through the app's own page against
// the sandbox (approved through the control API) up to the receipt, and the events the page listens to arrive.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { chromiumLaunchOptions } from '../harness/chromium.mjs';

/** The frameworks, in the order they run; each has test/pack/projects/NAME/ and a `frameworks` entry below. */
export const frameworkNames = ['nextjs', 'nuxt', 'sveltekit', 'astro', 'angular', 'react-router'];

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const contentTypes = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.ico': 'image/x-icon' };

/** A static host for a static build (`dir`), on `port`; an unknown path gets index.html (a single-page app). */
async function serveStatic(dir, port) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = path.join(dir, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(dir)) return res.writeHead(404).end();
    if (!existsSync(file)) file = path.join(dir, 'index.html');
    res.writeHead(200, { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { stop: () => server.close() };
}

/** Serves the built app in `dir` on `port`: its own server (`serve`), or a static host for `static`. */
export async function serveBuilt(framework, dir, port, env, startChild) {
  if (framework.static) return serveStatic(path.join(dir, framework.static), port);
  const [command, args] = framework.serve(port);
  const bin = path.isAbsolute(command) ? command : path.join(dir, 'node_modules', '.bin', command);
  const { child } = await startChild(bin, args, { cwd: dir, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, pattern: framework.ready, timeoutMs: 120_000 });
  return { stop: () => child.kill('SIGTERM') };
}

/**
 * Pays the link on `page` (already showing the checkout) with Nequi and waits for the receipt. The order is the
 * sandbox's newest one, approved through its control API, as a buyer's phone would.
 */
export async function payWithNequi(page, sandboxOrigin) {
  const checkout = page.locator('pay-checkout').first();
  await checkout.getByRole('button', { name: /Nequi/ }).click({ timeout: 60_000 });
  const idType = checkout.getByLabel('Tipo de documento');
  const cc = await idType.locator('option', { hasText: 'CC' }).first().getAttribute('value');
  await idType.selectOption(cc ?? '1');
  await checkout.getByLabel('Número de documento').fill('1020304050');
  await checkout.getByLabel(/celular/i).fill('3001234567');
  // A handler link whose record knows nothing of the buyer asks for what the live service requires (every
  // shopper field its docs require); a buyer fills what is asked.
  const contact = [['Nombre', 'Ana'], ['Apellido', 'Gómez'], ['Correo electrónico', 'ana@example.com']];
  for (const [label, value] of contact) {
    const field = checkout.getByLabel(new RegExp(`^${label}`)).first();
    if (await field.count()) await field.fill(value);
  }
  await checkout.getByRole('button', { name: /^Pagar/ }).click();
  await checkout.getByText('Acepta el pago en la app Nequi').waitFor({ timeout: 30_000 });
  const orders = (await (await fetch(`${sandboxOrigin}/sandbox/orders`)).json()).data;
  const newest = Math.max(...orders.map((order) => order.id_order));
  const approved = await fetch(`${sandboxOrigin}/sandbox/orders/${newest}/approve`, { method: 'POST' });
  if (!approved.ok) throw new Error(`approve ${newest}: ${approved.status}`);
  await checkout.getByText('¡Pago exitoso!').waitFor({ timeout: 30_000 });
  return newest;
}

/** Console lines that mean a framework found the server's markup and the client's different, or React complained. */
const hydrationTrouble = /hydrat|did not match|mismatch|Minified React error|Failed to resolve component/i;

/**
 * Runs `body(page)` on `url` in Chromium; page errors, console errors and hydration warnings fail it.
 * One browser for every framework.
 */
export async function visit(browser, url, body) {
  const page = await browser.newPage();
  const trouble = [];
  page.on('pageerror', (error) => trouble.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed load is reported below with its address (a missing favicon is no failure).
    if (message.text().startsWith('Failed to load resource')) return;
    if (message.type() === 'error' || hydrationTrouble.test(message.text())) trouble.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) trouble.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(url);
    await body(page);
    if (trouble.length > 0) throw new Error(trouble.join('\n'));
  } finally {
    await page.close();
  }
}

/** Each framework: how it builds, how it serves its build, and what is checked in the browser. */
export const frameworks = {
  nextjs: {
    title: 'Next.js 16 (App Router): Server Component page, client component with events, route handler on Node and edge; next start and next dev',
    build: ['next', ['build']],
    serve: (port) => ['next', ['start', '-p', String(port), '-H', '127.0.0.1']],
    ready: /Ready in|started server|Local:/,
    pages: [
      { path: '/', what: 'Server Component page, Node handler' },
      { path: '/edge', what: 'Server Component page, edge handler' },
      {
        path: '/client',
        what: 'client component with every onPay… prop',
        events: ['pay-ready:demo-fixed', 'pay-order-created', 'pay-status-change', 'pay-paid:50000'],
      },
    ],
    dev: {
      serve: (port) => ['next', ['dev', '-p', String(port), '-H', '127.0.0.1']],
      ready: /Ready in/,
      pages: [
        { path: '/', what: 'next dev: Server Component page' },
        { path: '/client', what: 'next dev: client component', events: ['pay-ready:demo-fixed', 'pay-order-created', 'pay-status-change', 'pay-paid:50000'] },
      ],
    },
  },
  nuxt: {
    title: 'Nuxt 3 (SSR on, vue.compilerOptions.isCustomElement): a page with @pay-… listeners, a server route handler',
    build: ['nuxt', ['build']],
    serve: () => [process.execPath, ['.output/server/index.mjs']],
    ready: /Listening on/,
    pages: [{ path: '/', what: 'server-rendered page, @pay-… listeners', events: ['pay-ready', 'pay-paid:50000'] }],
  },
  'react-router': {
    title: 'React Router 7 (framework mode, SSR): a route rendering the wrapper with event props, a resource route handler',
    build: ['react-router', ['build']],
    serve: () => ['react-router-serve', ['./build/server/index.js']],
    ready: /react-router-serve\]|http:\/\//,
    pages: [{ path: '/', what: 'server-rendered route, onPay… props after hydration', events: ['pay-ready', 'pay-paid:50000'] }],
  },
  sveltekit: {
    title: 'SvelteKit 2 (SSR, adapter-node): svelte-check with Svelte 5 event attributes, a +server.ts handler',
    check: [
      ['svelte-kit', ['sync']],
      ['svelte-check', ['--tsconfig', './tsconfig.json', '--fail-on-warnings']],
    ],
    build: ['vite', ['build', '--logLevel', 'warn']],
    serve: () => [process.execPath, ['build/index.js']],
    ready: /Listening on/,
    pages: [{ path: '/', what: 'server-rendered page, onpay-… attributes', events: ['pay-ready', 'pay-paid:50000'] }],
  },
  angular: {
    title: 'Angular 20 (standalone, zoneless): CUSTOM_ELEMENTS_SCHEMA, (pay-paid) typed by strictTemplates, ng build',
    build: ['ng', ['build']],
    // src/wrong.component.ts binds (pay-paid) to a PayFailedEvent handler: that one error, and no other, must come out.
    refuses: ['ngc', ['-p', 'tsconfig.wrong.json'], /wrong\.component\.ts.*TS2345.*'PayPaidEvent'.*'PayFailedEvent'/],
    static: 'dist/browser',
    pages: [{ path: '/?api=API', what: 'client-rendered app against the sandbox', events: ['pay-ready', 'pay-paid:50000'] }],
  },
  astro: {
    title: 'Astro 5 (static build): the tag in a page, a <script> that imports pay-checkout/define and listens',
    build: ['astro', ['build']],
    static: 'dist',
    pages: [{ path: '/', what: 'static page against the sandbox', events: ['pay-ready', 'pay-paid:50000'] }],
  },
};

/** Serves the app (`framework.serve` or `static`) and pays on each of its pages in Chromium. */
async function payOnEveryPage(browser, framework, dir, env, sandbox, startChild) {
  const port = await freePort();
  const server = await serveBuilt(framework, dir, port, env, startChild);
  try {
    for (const target of framework.pages) {
      if (!framework.static) {
        // Server-rendered: the tag is in the server's HTML (not Nuxt's `<!---->` for an unresolved component).
        const html = await (await fetch(`http://127.0.0.1:${port}${target.path}`)).text();
        if (!/<pay-checkout[\s>]/.test(html)) throw new Error(`${target.path}: the server's HTML has no <pay-checkout>:\n${html.slice(0, 2000)}`);
      }
      // A fresh sandbox: the fixed link pays once, and the static apps use the sandbox's own links.
      await fetch(`${sandbox.origin}/sandbox/reset`, { method: 'POST' });
      await visit(browser, `http://127.0.0.1:${port}${target.path.replace('API', encodeURIComponent(`${sandbox.origin}/v1`))}`, async (page) => {
        await payWithNequi(page, sandbox.origin);
        if (!target.events) return;
        const events = page.locator('#events');
        for (const event of target.events) await events.filter({ hasText: event }).waitFor({ timeout: 15_000 });
        const text = (await events.textContent()) ?? '';
        for (const unwanted of ['pay-failed', 'pay-cancelled', 'pay-error']) if (text.includes(unwanted)) throw new Error(`${target.path}: ${unwanted} fired: ${text}`);
      }).catch((error) => {
        throw new Error(`${target.path} (${target.what}): ${error.message}`);
      });
    }
  } finally {
    server.stop();
  }
}

/**
 * Starts each framework app's install of the tarball, one after another in the background, as soon as the tarball
 * exists: the network and the disk work while pack-check's own projects and the previous apps build on the CPUs.
 * Resolves nothing itself; each entry of the map resolves with `{ dir, ms }` (or rejects, reported by its check).
 */
export function startFrameworkInstalls({ must, root, context, only }) {
  const names = frameworkNames.filter((n) => frameworks[n] && (!only || only.has(n)));
  const installs = new Map();
  let previous = Promise.resolve();
  const install = (name) => {
    const { work, tarball } = context();
    const dir = path.join(work, name);
    cpSync(path.join(root, 'test', 'pack', 'projects', name), dir, { recursive: true });
    const manifest = path.join(dir, 'package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('PAY_CHECKOUT_TARBALL', tarball));
    const started = Date.now();
    return must('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir }).then(() => ({ dir, ms: Date.now() - started }));
  };
  for (const name of names) {
    const done = previous.then(() => install(name));
    installs.set(name, done);
    previous = done.catch(() => undefined);
    done.catch(() => undefined); // reported by its check
  }
  return installs;
}

/**
 * Adds one check per framework to pack-check's list, over the installs `startFrameworkInstalls` began. `tools` carries
 * pack-check's helpers (check, must, startChild) and `context()` the tarball, the work directory and the sandbox once
 * they exist.
 */
export async function frameworkChecks({ check, must, startChild, context, installs }) {
  const { chromium } = await import('playwright-core');
  const names = [...installs.keys()];
  let browser;
  try {
    for (const name of names) {
      const framework = frameworks[name];
      await check(framework.title, async () => {
        const { sandbox } = context();
        if (!sandbox) throw new Error('needs the sandbox from the bin check');
        let started = Date.now();
        const { dir, ms: installed } = await installs.get(name);
        const waited = Date.now() - started;
        if (existsSync(path.join(dir, 'node_modules', 'redis'))) throw new Error(`${name}: redis got installed; the point is a Redis-less app`);
        started = Date.now();
        const env = { SANDBOX_URL: sandbox.origin, NEXT_TELEMETRY_DISABLED: '1', NUXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', NG_CLI_ANALYTICS: 'false' };
        const bin = (command) => (path.isAbsolute(command) ? command : path.join(dir, 'node_modules', '.bin', command));
        for (const [command, args] of framework.check ?? []) await must(bin(command), args, { cwd: dir, env });
        if (framework.refuses) {
          const [command, args, pattern] = framework.refuses;
          const output = await must(bin(command), args, { cwd: dir, env }).then(
            () => '',
            (error) => stripVTControlCharacters(error.message), // ngc colours its output whatever it is told
          );
          const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
          if (errors.length !== 1 || !pattern.test(errors[0])) throw new Error(`expected exactly one error matching ${pattern}:\n${output}`);
        }
        await must(bin(framework.build[0]), framework.build[1], { cwd: dir, env });
        const built = Date.now() - started;
        started = Date.now();
        browser ??= await chromium.launch(chromiumLaunchOptions());
        await payOnEveryPage(browser, framework, dir, env, sandbox, startChild);
        // React reports hydration mismatches in development only: the dev server's pages are paid in too.
        if (framework.dev) await payOnEveryPage(browser, { ...framework, ...framework.dev }, dir, env, sandbox, startChild);
        console.log(`  ${name}: install ${(installed / 1000).toFixed(0)} s (waited ${(waited / 1000).toFixed(0)} s), build ${(built / 1000).toFixed(0)} s, pay ${((Date.now() - started) / 1000).toFixed(0)} s`);
      });
    }
  } finally {
    await browser?.close();
  }
}
