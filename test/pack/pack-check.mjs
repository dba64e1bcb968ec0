#!/usr/bin/env node
// The packaging check (a step of `npm test`): build (or reuse the end-to-end step's build, test/harness/build-once.mjs), `npm pack`, publint and attw on the tarball, then the tarball
// installed into throwaway projects (test/pack/projects/, copied to a temp dir, one shared install) that build,
// type-check and run as a user would: vanilla Vite + TypeScript, React + Vite, Vue + Vite, Svelte + Vite, a Node server with
// pay-checkout/server and pay-checkout/webhooks, the `bin`, and the script tag on a page from another origin in
// Debian's Chromium. Last line: `N passed, N failed`; exit 1 on any failure.
// `node test/pack/pack-check.mjs --no-build` packs dist/ as it is; `--keep` leaves the temp dir for a look;
// `--frameworks=nextjs,nuxt` runs only those framework apps (test/pack/pack-frameworks.mjs), `--frameworks=` none.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, markBuilt } from '../harness/build-once.mjs';
import { chromiumLaunchOptions } from '../harness/chromium.mjs';
import { frameworkChecks, startFrameworkInstalls } from './pack-frameworks.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = new Set(process.argv.slice(2));
const work = mkdtempSync(path.join(tmpdir(), 'pay-checkout-pack-'));
const app = path.join(work, 'app');
const results = [];
const children = new Set();

/** Runs a command; resolves with its exit code and output (the tail, for failures). `timeoutMs`: stopped after it. */
function run(command, commandArgs, { cwd = root, env = {}, quiet = false, timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', () => clearTimeout(timer));
    let output = '';
    let stdout = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-20_000);
      if (!quiet) process.stdout.write(chunk);
    };
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      keep(chunk);
    });
    child.stderr.on('data', keep);
    child.once('error', (error) => resolve({ code: 127, output: `${output}\n${command}: ${error.message}`, stdout }));
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output, stdout }));
  });
}

/** One named check: passes when `body` resolves, fails (with the reason printed) when it throws. */
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`✘ ${name}\n${String(error instanceof Error ? error.message : error).trimEnd()}\n`);
  }
}

/** Runs a command as part of a check: throws with its output when it fails. */
async function must(command, commandArgs, options = {}) {
  const { code, output, stdout } = await run(command, commandArgs, { quiet: true, ...options });
  if (code !== 0) throw new Error(`${[command, ...commandArgs].join(' ')} exited ${code}:\n${output}`);
  return options.stdout ? stdout : output;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const appBin = (name) => path.join(app, 'node_modules', '.bin', name);

/** Starts a long-running child and resolves once a line of its output matches `pattern`. */
function startChild(command, commandArgs, { cwd, env = {}, pattern, timeoutMs = 60_000 }) {
  const child = spawn(command, commandArgs, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code}:\n${output}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command}: ${error.message}`));
    });
  });
}

const stop = (child) => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};

async function expectStatus(url, status, init) {
  const response = await fetch(url, init);
  if (response.status !== status) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status}, expected ${status}: ${await response.text()}`);
  return response;
}

/** Polls `probe` until it returns a truthy value; generous for a loaded machine. */
async function waitFor(what, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const contentTypes = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves `dir` on its own origin (a shop's static host), opens `url` in Chromium and runs `body`; page errors fail. */
async function inChromium(dir, url, body) {
  const shop = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${shop.address().port}${url}`);
    await body(page);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    shop.close();
  }
}

let tarball = '';
let sandbox = null; // { origin, child }

try {
  if (!args.has('--no-build')) {
    // The end-to-end step's build when nothing it reads changed since (test/harness/build-once.mjs), else a new one.
    await check('npm run build', async () => {
      if (buildIsCurrent()) return console.log('  dist/ is current (built by an earlier step, no input changed since): reused');
      const startedAt = Date.now();
      await must(npm, ['run', 'build']);
      markBuilt(startedAt);
    });
  }

  await check('npm pack', async () => {
    const [packed] = JSON.parse(await must(npm, ['pack', '--json', '--pack-destination', work], { stdout: true }));
    tarball = path.join(work, packed.filename);
    console.log(`  ${packed.filename}: ${(packed.size / 1000).toFixed(1)} kB packed, ${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked, ${packed.files.length} files`);
    const listed = packed.files.map((file) => file.path);
    for (const file of listed) if (file.endsWith('.map') || file.startsWith('src/')) throw new Error(`the tarball carries ${file}`);
  });

  if (!tarball) throw new Error('no tarball: nothing further can be checked');
  // Next.js, Nuxt, SvelteKit, Astro, Angular, React Router: each its own install of the tarball, begun now in the
  // background, built and paid in at the end.
  const only = [...args].find((arg) => arg.startsWith('--frameworks='));
  const installs = startFrameworkInstalls({ must, root, context: () => ({ work, tarball }), only: only && new Set(only.slice(13).split(',').filter(Boolean)) });
  await check('publint (strict)', () => must(path.join(root, 'node_modules', '.bin', 'publint'), ['run', tarball, '--strict']));
  // ESM-only is a decision (docs/site/install.md): CommonJS `require` and node10 resolution are not supported.
  await check('attw --profile esm-only', () => must(path.join(root, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii']));

  await check('install the tarball into throwaway projects', async () => {
    cpSync(path.join(root, 'test', 'pack', 'projects'), app, { recursive: true });
    const manifest = path.join(app, 'package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('PAY_CHECKOUT_TARBALL', tarball));
    // Nothing exported: a plugin author's install sets no variable either.
    await must(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app });
    const installed = readdirSync(path.join(app, 'node_modules'));
    for (const name of ['hono', '@hono']) if (installed.includes(name)) throw new Error(`a browser project got ${name}`);
  });

  await check('custom-elements.json and the editor data point at shipped files', async () => {
    const pkgDir = path.join(app, 'node_modules', 'pay-checkout');
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    const manifest = JSON.parse(readFileSync(path.join(pkgDir, pkg.customElements), 'utf8'));
    const paths = manifest.modules.flatMap((module) => [module.path, ...(module.exports ?? []).map((entry) => entry.declaration?.module)]).filter(Boolean);
    for (const file of paths) if (!existsSync(path.join(pkgDir, file))) throw new Error(`custom-elements.json names ${file}, which the package does not ship`);
    const webTypes = JSON.parse(readFileSync(path.join(pkgDir, pkg['web-types']), 'utf8'));
    const vscode = JSON.parse(readFileSync(path.join(pkgDir, 'dist', 'frameworks', 'vscode.html-custom-data.json'), 'utf8'));
    const attributes = [webTypes.contributions.html.elements, vscode.tags].map((list) => list.find((tag) => tag.name === 'pay-checkout')?.attributes?.map((a) => a.name));
    for (const names of attributes) {
      if (!names?.includes('link') || names.includes('merchant-key')) throw new Error(`editor data attributes: ${names}`);
    }
  });

  await check('vanilla Vite + TypeScript: tsc, vite build', async () => {
    await must(appBin('tsc'), ['-p', 'vanilla'], { cwd: app });
    await must(appBin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(app, 'vanilla') });
  });

  await check('React + Vite: tsc --strict, vite build', async () => {
    await must(appBin('tsc'), ['-p', 'react', '--strict'], { cwd: app });
    await must(appBin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(app, 'react') });
  });

  await check('Vue + Vite: vue-tsc, vite build', async () => {
    // Wrong.vue holds one deliberate error (theme="purple"); any other error, or none, fails the check.
    const { output } = await run(appBin('vue-tsc'), ['-p', 'vue', '--pretty', 'false'], { cwd: app, quiet: true });
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    if (errors.length !== 1 || !/Wrong\.vue.*purple/.test(errors[0] ?? '')) throw new Error(`expected only Wrong.vue's theme error:\n${output}`);
    await must(appBin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(app, 'vue') });
  });

  await check('Svelte + Vite: svelte-check, vite build', async () => {
    const { output } = await run(appBin('svelte-check'), ['--tsconfig', './tsconfig.json', '--output', 'machine'], { cwd: path.join(app, 'svelte'), quiet: true });
    // Wrong.svelte holds one deliberate error (theme="purple"); any other error, or none, fails the check.
    const errors = output.split('\n').filter((line) => /^\d+ ERROR /.test(line));
    if (errors.length !== 1 || !/Wrong\.svelte.*purple/.test(errors[0] ?? '')) throw new Error(`expected only Wrong.svelte's theme error:\n${output}`);
    await must(appBin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(app, 'svelte') });
  });

  await check('bin: npx pay-checkout --help', async () => {
    const output = await must(npm, ['exec', '--offline', '--', 'pay-checkout', '--help'], { cwd: app });
    if (!/Usage: pay-checkout <command>/.test(output) || !output.includes('--no-order-key-dedupe')) throw new Error(`no usage:\n${output}`);
  });

  await check('bin: npx pay-checkout sandbox --port 0 serves /v1 and the hosted page', async () => {
    // The bin's own link (what npx runs), so stopping it stops the sandbox and no npm process sits between.
    const started = await startChild(appBin('pay-checkout'), ['sandbox', '--port', '0'], {
      cwd: app,
      pattern: /document types \(CO\)/,
    });
    const origin = /^base_url: (http:\/\/127\.0\.0\.1:\d+)\/v1$/m.exec(started.output())?.[1];
    if (!origin) throw new Error(`no base_url line:\n${started.output()}`);
    sandbox = { origin, child: started.child };
    for (const fixture of ['mk_test_demo', 'pk_test_demo', 'whsec_test_demo', `${origin}/checkout/demo-fixed`]) {
      if (!started.output().includes(fixture)) throw new Error(`the banner lacks ${fixture}`);
    }
    const link = await (await expectStatus(`${origin}/v1/checkout/links/demo-fixed`, 200)).json();
    if (link.data?.hash !== 'demo-fixed') throw new Error(`unexpected link ${JSON.stringify(link)}`);
    const page = await (await expectStatus(`${origin}/checkout/demo-fixed`, 200)).text();
    const script = /<script type="module"[^>]+src="([^"]+)"/.exec(page)?.[1];
    if (!script) throw new Error(`not the hosted page:\n${page.slice(0, 500)}`);
    const asset = await expectStatus(new URL(script, `${origin}/checkout/demo-fixed`).href, 200);
    if (!/javascript/.test(asset.headers.get('content-type') ?? '')) throw new Error(`${script} is not JavaScript`);
  });

  await check('Vite plugin: paySandbox() serves /v1 on the dev server', async () => {
    const started = await startChild(appBin('vite'), ['--port', '0', '--host', '127.0.0.1'], {
      cwd: path.join(app, 'vite-plugin'),
      pattern: /base_url: (http:\/\/\S+)\/v1/,
    });
    try {
      const origin = started.match[1];
      const link = await (await expectStatus(`${origin}/v1/checkout/links/demo-fixed`, 200)).json();
      if (link.data?.hash !== 'demo-fixed') throw new Error(`unexpected link ${JSON.stringify(link)}`);
      const page = await (await expectStatus(`${origin}/`, 200)).text();
      if (!page.includes('<pay-checkout link="demo-fixed"')) throw new Error('the dev server does not serve the page');
    } finally {
      stop(started.child);
    }
  });

  await check('Node server: pay-checkout/server, pay-checkout/server/hosted-page and pay-checkout/webhooks, over HTTP', async () => {
    if (!sandbox) throw new Error('needs the sandbox from the bin check');
    await must(appBin('tsc'), ['-p', 'node-server'], { cwd: app });
    // The hosted page's deploy step and headers, from pay-checkout/server/hosted-page (node-server/hosted-page.ts).
    const hosted = await must(process.execPath, ['out/hosted-page.js'], { cwd: path.join(app, 'node-server') });
    if (!hosted.includes('hosted page ok')) throw new Error(`node-server/hosted-page.js: ${hosted}`);
    const started = await startChild(process.execPath, ['out/server.js'], {
      cwd: path.join(app, 'node-server'),
      env: { SANDBOX_URL: sandbox.origin, PORT: '0' },
      pattern: /listening (http:\/\/\S+)/,
    });
    const server = started.match[1];
    try {
      const link = await (await expectStatus(`${server}/v1/checkout/links/camiseta-m`, 200)).json();
      if (link.data?.amount !== 45_000) throw new Error(`unexpected link ${JSON.stringify(link)}`);
      await expectStatus(`${sandbox.origin}/sandbox/forward`, 200, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${server}/webhooks/pay` }),
      });
      const created = await (
        await fetch(`${server}/v1/checkout/links/camiseta-m/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `pack-${Date.now()}` },
          body: JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_type: 1, id_number: '1020304050', phone_number: '3001234567' } }),
        })
      ).json();
      const order = created.data;
      if (!order?.id_order || !order.order_token) throw new Error(`no order: ${JSON.stringify(created)}`);
      await expectStatus(`${sandbox.origin}/sandbox/orders/${order.id_order}/approve`, 200, { method: 'POST' });
      const status = await (await expectStatus(`${server}/v1/checkout/orders/${order.id_order}`, 200, { headers: { 'x-order-token': order.order_token } })).json();
      if (status.data?.status !== 'confirmed') throw new Error(`order not confirmed: ${JSON.stringify(status)}`);
      await waitFor('a verified order_payment webhook', async () => {
        const received = await (await fetch(`${server}/webhooks/received`)).json();
        return received.some((r) => r.event === 'order_payment' && r.idOrder === order.id_order && r.secretIndex === 0);
      });
      const forged = await fetch(`${server}/webhooks/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-event': 'order_payment', 'x-service-signature': '0'.repeat(64) },
        body: JSON.stringify({ event: 'order_payment', id_order: order.id_order, status: 'paid' }),
      });
      if (forged.status === 200) throw new Error('a forged webhook was accepted');
    } finally {
      stop(started.child);
    }
  });

  await check('bin: npx pay-checkout serve from the tarball: health, the script and a chunk, the hosted page, the buyer API', async () => {
    if (!sandbox) throw new Error('needs the sandbox from the bin check');
    const linksFile = path.join(work, 'serve-links.json');
    writeFileSync(linksFile, JSON.stringify({ 'pack-cart': { amount: 45_000, description: 'Camiseta talla M', store_name: 'Tienda Empaquetada' } }));
    const shop = 'https://shop.example';
    const env = {
      PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
      PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`,
      PAY_CHECKOUT_LINKS_FILE: linksFile,
      PAY_CHECKOUT_ALLOWED_ORIGINS: shop,
      PAY_CHECKOUT_SECRET: 'pack-check-order-token-secret',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    // A setting missing, and a store whose client (an optional peer) the project did not install: one line, exit 2.
    for (const [extra, said] of [
      [{ PAY_CHECKOUT_MERCHANT_KEY: '' }, /^pay-checkout serve: PAY_CHECKOUT_MERCHANT_KEY is not set: .+\.$/],
      [{ PAY_CHECKOUT_REDIS_URL: 'redis://127.0.0.1:1' }, /^pay-checkout serve: PAY_CHECKOUT_REDIS_URL .*npm install redis.*\.$/],
    ]) {
      // Bounded: a server that listened instead of stopping is stopped, and fails the check with its exit status.
      const { code, output } = await run(appBin('pay-checkout'), ['serve'], { cwd: app, env: { ...env, ...extra }, quiet: true, timeoutMs: 15_000 });
      if (code !== 2 || !said.test(output.trim())) throw new Error(`${JSON.stringify(extra)}: exit ${code}, expected 2 and one line:\n${output}`);
    }
    const started = await startChild(appBin('pay-checkout'), ['serve'], { cwd: app, env, pattern: /"name":"listening".*?"url":"(http:\/\/[^"]+)"/ });
    const server = started.match[1];
    try {
      await expectStatus(`${server}/v1/health`, 200);
      const cors = { origin: shop };
      const entry = await expectStatus(`${server}/pay-checkout.js`, 200, { headers: { ...cors, 'accept-encoding': 'br' } });
      if (entry.headers.get('content-encoding') !== 'br') throw new Error(`/pay-checkout.js not compressed: ${entry.headers.get('content-encoding')}`);
      if (entry.headers.get('access-control-allow-origin') !== shop) throw new Error(`/pay-checkout.js without CORS for ${shop}`);
      if (!/max-age=300/.test(entry.headers.get('cache-control') ?? '')) throw new Error(`/pay-checkout.js cache-control: ${entry.headers.get('cache-control')}`);
      const chunk = /import\(`\.\/(pay-checkout\.[\w.-]+\.js)`\)/.exec(await entry.text())?.[1];
      if (!chunk) throw new Error('/pay-checkout.js imports no chunk');
      const lazy = await expectStatus(`${server}/${chunk}`, 200, { headers: { ...cors, 'accept-encoding': 'gzip' } });
      if (lazy.headers.get('content-encoding') !== 'gzip' || !/immutable/.test(lazy.headers.get('cache-control') ?? '')) {
        throw new Error(`/${chunk}: content-encoding ${lazy.headers.get('content-encoding')}, cache-control ${lazy.headers.get('cache-control')}`);
      }
      if (!/javascript/.test(lazy.headers.get('content-type') ?? '') || (await lazy.text()).length < 100) throw new Error(`/${chunk} is not the chunk`);
      const link = await (await expectStatus(`${server}/v1/checkout/links/pack-cart`, 200, { headers: cors })).json();
      if (link.data?.amount !== 45_000 || link.data.store_name !== 'Tienda Empaquetada' || !link.data.gateways?.length) throw new Error(`unexpected link ${JSON.stringify(link)}`);
      const hosted = await expectStatus(`${server}/checkout/pack-cart`, 200);
      const headers = Object.fromEntries(hosted.headers);
      if (!/frame-ancestors 'none'/.test(headers['content-security-policy'] ?? '') || headers['x-frame-options'] !== 'DENY' || headers['cache-control'] !== 'no-store' || !headers['referrer-policy']) {
        throw new Error(`not a payment page's headers: ${JSON.stringify(headers)}`);
      }
      if (!(await hosted.text()).includes('Tienda Empaquetada')) throw new Error('the hosted page does not carry the link');
    } finally {
      stop(started.child);
    }
  });

  await check('script tag on a plain page from another origin renders the sandbox link (Chromium)', async () => {
    if (!sandbox) throw new Error('needs the sandbox from the bin check');
    const dist = path.join(app, 'node_modules', 'pay-checkout', 'dist');
    const pageDir = path.join(app, 'page');
    for (const file of readdirSync(dist).filter((name) => /^pay-checkout(\.[\w-]+)?\.js$/.test(name))) cpSync(path.join(dist, file), path.join(pageDir, file));
    const html = readFileSync(path.join(pageDir, 'index.html'), 'utf8').replace('SANDBOX_ORIGIN', sandbox.origin);
    writeFileSync(path.join(pageDir, 'index.html'), html);
    await inChromium(pageDir, '/', async (page) => {
      // The first screen shows the link's store from the sandbox, inside the element's shadow root.
      await page.locator('pay-checkout').getByText('Tienda Demo').first().waitFor({ timeout: 30_000 });
    });
  });

  for (const project of ['vanilla', 'vue', 'svelte']) {
    await check(`${project} build runs: the element loads the sandbox link (Chromium)`, async () => {
      if (!sandbox) throw new Error('needs the sandbox from the bin check');
      await inChromium(path.join(app, project, 'dist'), `/?api=${encodeURIComponent(`${sandbox.origin}/v1`)}`, async (page) => {
        await page.locator('pay-checkout').first().getByText('Tienda Demo').first().waitFor({ timeout: 30_000 });
      });
    });
  }

  await check('React build runs: the wrapper and the native element load the sandbox links (Chromium)', async () => {
    if (!sandbox) throw new Error('needs the sandbox from the bin check');
    await inChromium(path.join(app, 'react', 'dist'), `/?api=${encodeURIComponent(`${sandbox.origin}/v1`)}`, async (page) => {
      await page.locator('#ready', { hasText: 'native:demo-dynamic wrapper:demo-fixed' }).waitFor({ timeout: 30_000 });
      await page.locator('pay-checkout').first().getByText('Tienda Demo').first().waitFor({ timeout: 30_000 });
    });
  });

  await frameworkChecks({ check, must, startChild, context: () => ({ work, tarball, sandbox }), installs });
} catch (error) {
  console.log(`✘ ${error instanceof Error ? error.message : error}`);
  results.push({ name: 'stopped early', ok: false });
} finally {
  stop(sandbox?.child);
  for (const child of children) stop(child);
  if (args.has('--keep')) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
process.exitCode = failed > 0 ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
