// `pay-checkout serve` against a shop's app that misbehaves: a links endpoint that hangs, answers 500, HTML or a record
// without `description` gives the buyer API's ErrorResponse within 4 s while another link goes on being served; each
// links request carries a signature that verifies; a links file is re-read when it changes; `--check` passes with the
// shop up and names what failed with it down.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { verifyPayCheckoutSignature } from '../../src/webhooks/pay-checkout-signature.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import { serveCommand } from '../../src/server/serve/command.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';
import type { ServerEvent } from '../../src/server/events.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const appSecret = 'app-secret-0123456789';
const record = (description: string) => ({ amount: 20_000, description, store_name: 'Tienda Sol', currency: 'COP' });

/** The shop's app: one behaviour per hash, every request kept with its signature. */
async function startShopApp() {
  const requests: { url: string; signature: string | undefined }[] = [];
  const hanging = new Set<ServerResponse>();
  const notices: { body: string; signature: string | undefined }[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        notices.push({ body, signature: req.headers['pay-checkout-signature'] as string | undefined });
        res.writeHead(200).end();
      });
      return;
    }
    requests.push({ url: req.url ?? '', signature: req.headers['pay-checkout-signature'] as string | undefined });
    const hash = decodeURIComponent(new URL(req.url ?? '/', 'http://app').pathname.split('/').at(-1) ?? '');
    if (hash === 'hangs') return void hanging.add(res);
    if (hash === 'fails') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    if (hash === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Oops</h1>');
    if (hash === 'no-description') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ amount: 20_000, store_name: 'Tienda Sol' }));
    if (hash.startsWith('good')) {
      // A moment's work, so concurrent asks for one hash overlap.
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record(`Pedido ${hash}`))), 50);
    }
    res.writeHead(404).end();
  };
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    notices,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('pay-checkout serve: links from the shop\'s app', () => {
  let sandbox: TestSandbox;
  let app: Awaited<ReturnType<typeof startShopApp>>;
  let serve: RunningServeCommand;
  const events: ServerEvent[] = [];

  before(async () => {
    sandbox = await startTestSandbox();
    app = await startShopApp();
    const settings = parseServeCommandSettings(
      rawSettings({
        PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
        PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`,
        PAY_CHECKOUT_LINKS_URL: `${app.url}/pay-links/{hash}?shop=1`,
        PAY_CHECKOUT_APP_SECRET: appSecret,
        PAY_CHECKOUT_ALLOWED_ORIGINS: 'https://shop.example',
        PAY_CHECKOUT_NOTIFY_URL: `${app.url}/notify`,
        PORT: '0',
        HOST: '127.0.0.1',
      }),
    );
    serve = await startServeCommand(settings, { onEvent: (event) => void events.push(event), dist: path.join(tmpdir(), 'no-dist-here') });
  });
  after(async () => {
    await serve?.close({ graceMs: 0 });
    await app?.close();
    await sandbox?.close();
  });

  const getLink = async (hash: string) => {
    const started = Date.now();
    const response = await fetch(`${serve.url}/v1/checkout/links/${encodeURIComponent(hash)}`);
    return { status: response.status, body: (await response.json()) as { data?: { description: string }; api_code?: string; error?: boolean; message?: string }, ms: Date.now() - started, headers: response.headers };
  };

  test('with the memory store it warns once at start that claims and the notice outbox do not outlive it', () => {
    assert.equal(events.filter((e) => e.name === 'memory_store' && e.level === 'warn').length, 1);
    assert.equal(events.filter((e) => e.name === 'notice_outbox_volatile' && e.level === 'warn').length, 1);
  });

  test('a link record from the app is the buyer API\'s link, asked with a signed GET of its path and query', async () => {
    const link = await getLink('good-1');
    assert.equal(link.status, 200);
    assert.equal(link.body.data?.description, 'Pedido good-1');
    const asked = app.requests.find((r) => r.url.includes('good-1'));
    assert.ok(asked);
    assert.equal(asked.url, '/pay-links/good-1?shop=1');
    assert.ok(verifyPayCheckoutSignature({ header: asked.signature, signedText: `GET ${asked.url}`, secrets: [appSecret] }), asked.signature);
    assert.equal(verifyPayCheckoutSignature({ header: asked.signature, signedText: 'GET /pay-links/other?shop=1', secrets: [appSecret] }), false);
  });

  test('a record is reused while fresh, and concurrent asks for one hash share one request', async () => {
    await Promise.all(Array.from({ length: 6 }, () => getLink('good-2')));
    assert.equal(app.requests.filter((r) => r.url.includes('/good-2?')).length, 1, 'one request for six asks');
    await getLink('good-2');
    assert.equal(app.requests.filter((r) => r.url.includes('/good-2?')).length, 1, 'answered from the cache');
  });

  test('a link just paid is asked of the app again, not offered from the cache for the rest of its 30 s', async () => {
    assert.equal((await getLink('good-paid')).status, 200);
    const asked = () => app.requests.filter((r) => r.url.includes('/good-paid?')).length;
    assert.equal(asked(), 1);
    const created = await fetch(`${serve.url}/v1/checkout/links/good-paid/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'paid-once' },
      body: JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '12345678', id_type: 1, phone_number: '3001234567', first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com' } }),
    });
    const order = ((await created.json()) as { data: { id_order: number; order_token: string } }).data;
    assert.equal(created.status, 201, JSON.stringify(order));
    assert.equal((await fetch(`${sandbox.origin}/sandbox/orders/${order.id_order}/approve`, { method: 'POST' })).status, 200);
    // The buyer's own status check is how this server learns the payment (no webhook secret here).
    const status = await fetch(`${serve.url}/v1/checkout/orders/${order.id_order}`, { headers: { 'x-order-token': order.order_token } });
    assert.equal(((await status.json()) as { data: { status: string } }).data.status, 'confirmed');
    await getLink('good-paid');
    assert.equal(asked(), 2, 'the app was asked again once the link was paid');
  });

  test('a 404 from the app is LINK_NOT_FOUND', async () => {
    const link = await getLink('unknown-cart');
    assert.equal(link.status, 404);
    assert.equal(link.body.api_code, 'LINK_NOT_FOUND');
  });

  test('an app that hangs, fails, answers HTML or a record without description: an ErrorResponse within 4 s each, while another link is served', async () => {
    const started = Date.now();
    const failing = Promise.all([getLink('hangs'), getLink('fails'), getLink('html'), getLink('no-description')]);
    // While the app hangs on one link, another link is asked for and served at once.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = await getLink('good-3');
    assert.equal(meanwhile.status, 200);
    assert.ok(Date.now() - started < 2_500, 'the other link did not wait for the hanging one');
    const [hangs, fails, html, noDescription] = await failing;
    for (const link of [hangs, fails, html, noDescription]) {
      assert.ok(link.ms < 4_000, `answered in ${link.ms} ms`);
      assert.equal(link.body.error, true);
      assert.equal(typeof link.body.message, 'string');
    }
    assert.equal(hangs.status, 503);
    assert.equal(hangs.body.api_code, 'LINK_SOURCE_UNAVAILABLE');
    assert.equal(hangs.headers.get('retry-after'), '5');
    assert.equal(fails.status, 503);
    assert.equal(fails.body.api_code, 'LINK_SOURCE_UNAVAILABLE');
    assert.equal(html.status, 502);
    assert.equal(html.body.api_code, 'LINK_SOURCE_INVALID');
    assert.equal(noDescription.status, 502);
    assert.equal(noDescription.body.api_code, 'LINK_SOURCE_INVALID');
    // The server's events say what was wrong with each.
    const reasons = Object.fromEntries(events.filter((e) => e.name === 'links_app_failed').map((e) => [e.hash as string, e]));
    assert.equal(reasons.hangs?.reason, 'timeout');
    assert.equal(reasons.fails?.reason, 'server_error');
    assert.equal(reasons.fails?.status, 500);
    assert.equal(reasons.html?.reason, 'not_json');
    assert.match(String(reasons.html?.message), /text\/html/);
    assert.equal(reasons['no-description']?.reason, 'not_a_record');
    assert.match(String(reasons['no-description']?.message), /description/);
    // And the server still serves.
    assert.equal((await getLink('good-4')).status, 200);
  });

  test('a failure is answered again for a second without asking the app, then the app is asked again', async () => {
    const asked = () => app.requests.filter((r) => r.url.includes('/fails?')).length;
    const before = asked();
    const first = await getLink('fails');
    const again = await getLink('fails');
    assert.equal(first.status, 503);
    assert.deepEqual(again.body, first.body);
    assert.equal(asked(), before + 1, 'the retry within a second did not reach the app');
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    assert.equal((await getLink('fails')).status, 503);
    assert.equal(asked(), before + 2);
  });

  test('a hash no app could mean is not found, without asking the app', async () => {
    const before = app.requests.length;
    const link = await getLink('../../etc/passwd');
    assert.equal(link.status, 404);
    assert.equal(app.requests.length, before);
  });

  /** `serve --check` in this process: its lines and exit status. */
  const check = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const { log } = console;
    console.log = (...args: unknown[]) => void lines.push(args.join(' '));
    try {
      const status = await serveCommand(['--check'], { PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_APP_SECRET: appSecret, ...env }, { probe: runDoctor });
      return { status, out: lines.join('\n') };
    } finally {
      console.log = log;
    }
  };

  test('--check with the shop up: one line per item, every one passed, a signed test notice taken, exit 0', async () => {
    const { status, out } = await check({ PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_LINKS_URL: `${app.url}/pay-links/{hash}`, PAY_CHECKOUT_NOTIFY_URL: `${app.url}/notify` });
    assert.equal(status, 0, out);
    const lines = out.split('\n');
    assert.deepEqual(lines.map((line) => line.slice(0, 2) + line.split(':')[0]?.slice(2)), ['✓ settings', '✓ service', '✓ links', '✓ notify']);
    assert.match(out, /✓ links: .*\/pay-links\/pay-checkout-check answered 404 \(no such link\), as expected/);
    const notice = app.notices.at(-1);
    assert.ok(notice, 'the notify URL got a notice');
    assert.ok(verifyPayCheckoutSignature({ header: notice.signature, signedText: notice.body, secrets: [appSecret] }));
  });

  test('--check with the shop down: the links URL and the notify URL fail, each naming what went wrong, exit 1', async () => {
    // A port nothing listens on: the shop's app is down.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { status, out } = await check({ PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_LINKS_URL: `http://127.0.0.1:${port}/pay-links/{hash}`, PAY_CHECKOUT_NOTIFY_URL: `http://127.0.0.1:${port}/notify` });
    assert.equal(status, 1, out);
    assert.match(out, /^✓ service: /m);
    assert.match(out, new RegExp(`^✗ links: http://127\\.0\\.0\\.1:${port}/pay-links/pay-checkout-check: could not be reached \\(ECONNREFUSED\\)$`, 'm'));
    assert.match(out, new RegExp(`^✗ notify: http://127\\.0\\.0\\.1:${port}/notify: a signed test notice was not taken: ECONNREFUSED$`, 'm'));
  });

  test('--check with a merchant key the service does not know: the service item fails', async () => {
    const { status, out } = await check({ PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_unknown', PAY_CHECKOUT_LINKS_URL: `${app.url}/pay-links/{hash}` });
    assert.equal(status, 1, out);
    assert.match(out, /^✗ service: /m);
    assert.match(out, /^✓ links: /m);
  });
});

describe('pay-checkout serve: links from a file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'serve-links-file-'));
  const file = path.join(dir, 'links.json');
  let sandbox: TestSandbox;
  let serve: RunningServeCommand;
  const events: ServerEvent[] = [];

  before(async () => {
    writeFileSync(file, JSON.stringify({ camiseta: record('Camiseta') }));
    sandbox = await startTestSandbox();
    const settings = parseServeCommandSettings(rawSettings({ PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_LINKS_FILE: file, PORT: '0', HOST: '127.0.0.1' }));
    serve = await startServeCommand(settings, { onEvent: (event) => void events.push(event), dist: dir });
  });
  after(async () => {
    await serve?.close({ graceMs: 0 });
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const description = async (hash: string) => {
    const response = await fetch(`${serve.url}/v1/checkout/links/${hash}`);
    const body = (await response.json()) as { data?: { description: string }; api_code?: string };
    return { status: response.status, description: body.data?.description, code: body.api_code };
  };

  test('re-read when it changes: a new link appears, a changed one changes, a broken edit keeps the last good records', async () => {
    assert.deepEqual(await description('camiseta'), { status: 200, description: 'Camiseta', code: undefined });
    assert.equal((await description('gorra')).status, 404);
    writeFileSync(file, JSON.stringify({ camiseta: record('Camiseta roja'), gorra: record('Gorra') }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await description('camiseta')).description, 'Camiseta roja');
    assert.equal((await description('gorra')).description, 'Gorra');
    writeFileSync(file, '{ "camiseta": ');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await description('gorra')).description, 'Gorra', 'the last good records are kept');
    assert.ok(events.some((e) => e.name === 'links_file_invalid' && /not JSON/.test(e.message)));
    writeFileSync(file, JSON.stringify({ sin: { store_name: 'Tienda Sol', amount: 1_000 } }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.deepEqual(await description('sin'), { status: 502, description: undefined, code: 'LINK_SOURCE_INVALID' });
  });

  test('--check reads every record of the file: all valid, exit 0; one without description, exit 1 naming it', async () => {
    const check = async () => {
      const lines: string[] = [];
      const { log } = console;
      console.log = (...args: unknown[]) => void lines.push(args.join(' '));
      try {
        const status = await serveCommand(['--check'], { PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_LINKS_FILE: file }, { probe: runDoctor });
        return { status, out: lines.join('\n') };
      } finally {
        console.log = log;
      }
    };
    writeFileSync(file, JSON.stringify({ camiseta: record('Camiseta'), gorra: record('Gorra') }));
    const good = await check();
    assert.equal(good.status, 0, good.out);
    assert.match(good.out, /^✓ links: .*links\.json holds 2 valid link record\(s\)$/m);
    writeFileSync(file, JSON.stringify({ camiseta: record('Camiseta'), gorra: { store_name: 'Tienda Sol' } }));
    const broken = await check();
    assert.equal(broken.status, 1, broken.out);
    assert.match(broken.out, /^✗ links: .*links\.json: the record for gorra breaks the contract: .*description/m);
  });
});
