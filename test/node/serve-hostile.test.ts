// `pay-checkout serve` tried as a hostile buyer and a careless operator would, over real sockets: serve, the sandbox
// and a little shop app of our own. Made-up hashes from one address stop at the per-address link limit before the
// app is asked, counted alike on the buyer API and the hosted page; concurrent asks to the app are capped overall;
// a link's hosted page is drawn and compressed once per answer; a links URL with user info reaches the app as Authorization, and neither its password nor a query token is
// printed by `--check` or by an event; requests through a proxy that is not trusted are said once, and by `--check`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { brotliDecompressSync } from 'node:zlib';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runDoctor } from '../../src/doctor/doctor.js';
import type { ServerEvent } from '../../src/server/events.js';
import { appLinkDefaults } from '../../src/server/serve/app-links.js';
import { fromRequest } from '../../src/server/http/incoming.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { hostedRoute } from '../../src/server/serve/hosted-route.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const appSecret = 'app-secret-0123456789';
const basicPassword = 'Sh0p Pass';
/** The per-address link limit, small for the test (its default is in limits.ts). */
const linkLimit = { max: 40, windowMs: 60_000 };

/** The shop's app: `cart-*` is a link, anything else 404, each after `delayMs`; asks under way are counted. */
async function startShopApp(delayMs: number) {
  const asked: { url: string; authorization: string | undefined }[] = [];
  let underWay = 0;
  let peak = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') return void req.resume().on('end', () => res.writeHead(200).end());
    asked.push({ url: req.url ?? '', authorization: req.headers.authorization });
    underWay += 1;
    peak = Math.max(peak, underWay);
    const hash = new URL(req.url ?? '/', 'http://app').pathname.split('/').at(-1) ?? '';
    setTimeout(() => {
      underWay -= 1;
      if (!hash.startsWith('cart-')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ amount: 20_000, description: `Pedido ${hash}`, store_name: 'Tienda Sol' }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    peak: () => peak,
    resetPeak: () => void (peak = underWay),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A dist/ with what the hosted page needs: the script and the built page (here the source page, its entry external). */
function pageDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'serve-hostile-'));
  writeFileSync(path.join(dist, 'pay-checkout.js'), 'export {};\n');
  mkdirSync(path.join(dist, 'hosted'), { recursive: true });
  writeFileSync(path.join(dist, 'hosted', 'index.html'), readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8'));
  return dist;
}

/** A GET from a given loopback address (the per-address counts key on it), with its status and body. */
function getFrom(localAddress: string, url: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject).end();
  });
}

/** `count` calls of `run`, `width` at a time. */
async function inBatches<T>(count: number, width: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => run(start + k)))));
  }
  return results;
}

describe('pay-checkout serve: a hostile buyer and a careless operator', () => {
  let sandbox: TestSandbox;
  let app: Awaited<ReturnType<typeof startShopApp>>;
  let serve: RunningServeCommand;
  let dist: string;
  const events: ServerEvent[] = [];

  before(async () => {
    sandbox = await startTestSandbox();
    app = await startShopApp(40);
    dist = pageDist();
    const links = new URL(app.url);
    links.username = 'shop';
    links.password = encodeURIComponent(basicPassword);
    const settings = parseServeCommandSettings(
      rawSettings({
        PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
        PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`,
        PAY_CHECKOUT_LINKS_URL: `${links.href}pay-links/{hash}`,
        PAY_CHECKOUT_APP_SECRET: appSecret,
        PORT: '0',
        HOST: '127.0.0.1',
      }),
    );
    serve = await startServeCommand(settings, { onEvent: (event) => void events.push(event), dist, limits: { linksPerAddress: linkLimit } });
  });
  after(async () => {
    await serve?.close({ graceMs: 0 });
    await app?.close();
    await sandbox?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('a link\'s hosted page is drawn and compressed once while its answer stays the same, and drawn again when it changes', async () => {
    const active = JSON.parse((await getFrom('127.0.0.2', `${serve.url}/v1/checkout/links/cart-page`)).body) as { data: Record<string, unknown> };
    let answer: { status: number; data?: unknown } = { status: 200, data: active.data };
    const route = hostedRoute({ dist, serviceOrigin: sandbox.origin, linkAnswer: () => Promise.resolve(answer) });
    const visit = async () => {
      const answered = await route(fromRequest(new Request('http://pay.test/checkout/cart-page', { headers: { 'accept-encoding': 'br' } })), 'cart-page');
      return brotliDecompressSync(answered.bytes ?? new Uint8Array()).toString('utf8');
    };
    const first = await visit();
    assert.match(first, /Pedido cart-page/);
    assert.equal(await visit(), first);
    assert.equal(route.drawnPages, 1, 'the second visit reused the drawn, compressed page');
    answer = { status: 200, data: { ...active.data, status: 'paid' } };
    assert.notEqual(await visit(), first);
    assert.equal(route.drawnPages, 2, 'a changed answer draws the page again');
  });

  /** `serve --check` in this process with these settings beside the sandbox's: its lines. */
  const check = async (env: Record<string, string>) => {
    const logs: string[] = [];
    const { log } = console;
    console.log = (...args: unknown[]) => void logs.push(args.join(' '));
    try {
      await serveCommand(['--check'], { PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_APP_SECRET: appSecret, ...env }, { probe: runDoctor });
    } finally {
      console.log = log;
    }
    return { out: logs.join('\n') };
  };

  test('a links URL with user info: the app gets it as Authorization, and no event prints the password', async () => {
    const link = await getFrom('127.0.0.2', `${serve.url}/v1/checkout/links/cart-basic`);
    assert.equal(link.status, 200, link.body);
    const asked = app.asked.find((a) => a.url.endsWith('/cart-basic'));
    assert.equal(asked?.authorization, `Basic ${Buffer.from(`shop:${basicPassword}`).toString('base64')}`);
    assert.deepEqual(events.filter((e) => e.name === 'links_app_failed'), []);
    assert.doesNotMatch(JSON.stringify(events), /Sh0p/);
  });

  test('made-up hashes from one address stop at its link limit, the hosted page counting with the API, before the app is asked', async () => {
    const { max } = linkLimit;
    const before = app.asked.length;
    // Half through the buyer API, half through the hosted page, each a made-up hash: each would be one ask of the app.
    const answers = await inBatches(max + 20, 10, (i) => getFrom('127.0.0.3', i % 2 ? `${serve.url}/v1/checkout/links/made-up-${i}` : `${serve.url}/checkout/made-up-${i}`));
    const asked = app.asked.length - before;
    assert.equal(answers.filter((a) => a.status === 429).length, 20, 'the lookups past the limit are refused');
    assert.equal(asked, max, `the app was asked ${asked} times for ${max + 20} made-up hashes`);
    const refused = answers.find((a) => a.status === 429 && a.body.startsWith('{'));
    assert.match(refused?.body ?? '', /"api_code":"LIMIT_REACHED"/);
    assert.ok(Number(refused?.headers['retry-after']) > 0, 'the API refusal says when to try again');
    assert.ok(answers.some((a) => a.status === 429 && a.body.includes('<main id="checkout"')), 'the hosted page is refused too');
    // Another address is not held up by this one.
    assert.equal((await getFrom('127.0.0.4', `${serve.url}/v1/checkout/links/cart-other`)).status, 200);
  });

  test('concurrent asks to the app are capped overall, and every lookup is still answered', async () => {
    app.resetPeak();
    const count = 120;
    // From many addresses, as a botnet would: the per-address limit does not bound this.
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => getFrom(`127.0.1.${1 + (i % 100)}`, `${serve.url}/v1/checkout/links/flood-${i}`)));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([404]));
    assert.ok(app.peak() <= appLinkDefaults.maxAsking, `${app.peak()} asks were under way at once`);
    assert.ok(app.peak() >= appLinkDefaults.maxAsking / 2, `the cap is used (${app.peak()} at once)`);
  });

  test('requests through a proxy not trusted: the server says so once, and --check through the public URL warns', async () => {
    // A proxy in front, as nginx with proxy_add_x_forwarded_for would be.
    const proxy = createServer((req, res) => {
      const upstream = request(`${serve.url}${req.url}`, { headers: { ...req.headers, 'x-forwarded-for': '203.0.113.7' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 2; i++) assert.equal((await fetch(`${publicUrl}/v1/checkout/links/cart-proxied`)).status, 200);
      assert.equal(events.filter((e) => e.name === 'proxy_not_trusted').length, 1, 'said once');
      const { out } = await check({ PAY_CHECKOUT_LINKS_URL: `${app.url}/pay-links/{hash}`, PAY_CHECKOUT_PUBLIC_URL: publicUrl });
      assert.match(out, /^! proxy: .*\/v1\/health: requests arrive through a proxy \(with X-Forwarded-For\) and PAY_CHECKOUT_TRUST_PROXY is 0/m);
      // Asked straight, not through the proxy: nothing to say.
      const direct = await check({ PAY_CHECKOUT_LINKS_URL: `${app.url}/pay-links/{hash}`, PAY_CHECKOUT_PUBLIC_URL: serve.url });
      assert.doesNotMatch(direct.out, /proxy:/);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  test('--check prints the links and notify URLs without their user info or query token', async () => {
    const secretUrl = (pathname: string) => `http://shop:Ch3ckPass@${new URL(app.url).host}${pathname}?token=Ch3ckT0ken`;
    const { out } = await check({ PAY_CHECKOUT_LINKS_URL: secretUrl('/pay-links/{hash}'), PAY_CHECKOUT_NOTIFY_URL: secretUrl('/notify') });
    assert.match(out, /links: http:\/\/…@127\.0\.0\.1:\d+\/pay-links\/pay-checkout-check\?…/);
    assert.match(out, /notify: http:\/\/…@127\.0\.0\.1:\d+\/notify\?…/);
    assert.doesNotMatch(out, /Ch3ckPass|Ch3ckT0ken/);
  });
});
