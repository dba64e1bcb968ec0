// toNodeListener's native path (node/native.ts) answers exactly as the web path it replaces: one handler served twice,
// natively and through a wrapper the adapter cannot see into (so through a Request and a Response), and the same raw
// requests (good, hostile, over the limit, cut off) compared byte for byte, bar the Date header. Real sockets, the real
// sandbox behind the handler.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';
import { pushOrderBody, resolveHandlerLink } from './handler-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

let sb: TestSandbox;
const servers: Server[] = [];
let nativeUrl: URL;
let webUrl: URL;
const errors: unknown[] = [];
const seen: { request: Request; bot: Request | undefined }[] = [];
let lastBot: Request | undefined;

async function listen(listener: ReturnType<typeof toNodeListener>): Promise<URL> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

before(async () => {
  sb = await startTestSandbox();
  const handler = createCheckoutHandler({
    merchantKey: 'mk_test_demo',
    baseUrl: `${sb.origin}/v1`,
    limits: false,
    allowedOrigins: ['https://shop.example'],
    resolveLink: (hash, request) => {
      seen.push({ request, bot: lastBot });
      return resolveHandlerLink(hash);
    },
    botCheck: ({ request }) => {
      lastBot = request;
      return true;
    },
    onError: (error) => errors.push(error),
  });
  nativeUrl = await listen(toNodeListener(handler));
  webUrl = await listen(toNodeListener((request) => handler(request)));
});
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await sb.close();
});

interface Raw {
  status: number;
  /** Every header as sent, in order, names lower-cased; the Date left out. */
  headers: [string, string][];
  text: string;
}

interface Send {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function send(origin: URL, { method, path, headers = {}, body }: Send): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: origin.hostname, port: origin.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([(res.rawHeaders[i] ?? '').toLowerCase(), res.rawHeaders[i + 1] ?? '']);
        resolve({ status: res.statusCode ?? 0, headers: pairs.filter(([name]) => name !== 'date'), text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json', 'idempotency-key': 'same-on-both' };
const big = 'x'.repeat(101 * 1024);

/** Deterministic requests: every one answers the same on both paths without touching an order. */
const cases: Record<string, Send> = {
  'the link': { method: 'GET', path: '/v1/checkout/links/camiseta-m' },
  'an unknown link': { method: 'GET', path: '/v1/checkout/links/nope' },
  'not an endpoint': { method: 'GET', path: '/v1/checkout/nothing/here/at/all' },
  'dot segments in the path': { method: 'GET', path: '/v1/checkout/links/../links/camiseta-m' },
  'an encoded hash': { method: 'GET', path: '/v1/checkout/links/camiseta%2Dm?x=1' },
  'a mounted prefix': { method: 'GET', path: '/shop/api/v1/checkout/links/camiseta-m' },
  'a Host header no URL takes': { method: 'GET', path: '/v1/checkout/links/camiseta-m', headers: { host: '[bad' } },
  'a wrong method': { method: 'DELETE', path: '/v1/checkout/links/camiseta-m' },
  'a preflight from an allowed origin': {
    method: 'OPTIONS',
    path: '/v1/checkout/links/camiseta-m/orders',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
  },
  'a preflight from another origin': { method: 'OPTIONS', path: '/v1/checkout/links/camiseta-m/orders', headers: { origin: 'https://evil.example' } },
  'a cross-origin read': { method: 'GET', path: '/v1/checkout/links/camiseta-m', headers: { origin: 'https://shop.example' } },
  'no Idempotency-Key': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pushOrderBody) },
  'broken JSON': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: '{"payment_gateway": ' },
  'an empty body': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: '' },
  'not JSON': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { ...json, 'content-type': 'text/plain' }, body: 'hola' },
  'invalid UTF-8': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
  'JSON nested too deep': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: '['.repeat(200) + ']'.repeat(200) },
  'a body against the contract': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: JSON.stringify({ payment_gateway: {} }) },
  'over 100 KB, declared': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: json, body: big },
  'over 100 KB, chunked': { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { ...json, 'transfer-encoding': 'chunked' }, body: big },
  'an order without its token': { method: 'GET', path: '/v1/checkout/orders/1' },
  'a bad order id': { method: 'GET', path: '/v1/checkout/orders/abc', headers: { 'x-order-token': 'x' } },
  'a cancel with a hostile body': { method: 'POST', path: '/v1/checkout/orders/1/cancel', headers: json, body: '{' },
  'an unsigned webhook': { method: 'POST', path: '/v1/webhooks', headers: { 'content-type': 'application/json' }, body: '{}' },
};

describe('toNodeListener: the native path answers as the web path', () => {
  for (const [name, request] of Object.entries(cases)) {
    it(name, async () => {
      const web = await send(webUrl, request);
      const native = await send(nativeUrl, request);
      assert.deepEqual(native, web);
      assert.ok(web.status >= 200 && web.status < 500, `${web.status}: ${web.text}`);
    });
  }

  it('a create answers the same on both paths, and a repeat on either replays the first', async () => {
    const create = (key: string): Send => ({ method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { ...json, 'idempotency-key': key }, body: JSON.stringify(pushOrderBody) });
    const nativeFirst = await send(nativeUrl, create('native-first'));
    const webFirst = await send(webUrl, create('web-first'));
    assert.equal(nativeFirst.status, 201, nativeFirst.text);
    assert.equal(webFirst.status, 201, webFirst.text);
    // Two orders: their ids, tokens and times differ, every other byte and header is the same.
    const names = (raw: Raw) => raw.headers.map(([n, v]) => (n === 'content-length' ? n : `${n}: ${v}`));
    assert.deepEqual(names(nativeFirst), names(webFirst));
    const shape = (raw: Raw) => {
      const { data } = JSON.parse(raw.text) as { data: Record<string, unknown> };
      return { ...data, id_order: 0, order_token: '', created_at: '', next_action: { ...(data.next_action as object), expires_at: '' } };
    };
    assert.deepEqual(shape(nativeFirst), shape(webFirst));
    const nativeRepeat = await send(nativeUrl, create('web-first'));
    const webRepeat = await send(webUrl, create('native-first'));
    assert.equal(JSON.parse(nativeRepeat.text).data.id_order, JSON.parse(webFirst.text).data.id_order);
    assert.equal(JSON.parse(webRepeat.text).data.id_order, JSON.parse(nativeFirst.text).data.id_order);
    assert.equal(nativeRepeat.status, webRepeat.status);
    assert.deepEqual(names(nativeRepeat), names(webRepeat));
  });

  it("the merchant's callbacks get a web Request with the buyer's method, URL and headers", async () => {
    seen.length = 0;
    const key = `callbacks-${Date.now()}`;
    const reply = await send(nativeUrl, { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { ...json, 'idempotency-key': key, 'x-shop': 'tienda-1', 'x-bot-check': 'tok' }, body: JSON.stringify(pushOrderBody) });
    assert.equal(reply.status, 201, reply.text);
    const [call] = seen;
    assert.ok(call?.request instanceof Request);
    assert.equal(call.request.method, 'POST');
    assert.equal(call.request.url, `http://${nativeUrl.host}/v1/checkout/links/camiseta-m/orders`);
    assert.equal(call.request.headers.get('idempotency-key'), key);
    assert.equal(call.request.headers.get('x-shop'), 'tienda-1');
    assert.ok(lastBot instanceof Request);
    assert.equal(lastBot.headers.get('x-bot-check'), 'tok');
    assert.equal(lastBot, call.request, 'one Request per buyer request, built once');
  });

  it('builds no web Request or Response for a create whose callbacks never look at the Request', async () => {
    const made = { Request: 0, Response: 0 };
    const ours = (input: unknown) => String(input instanceof URL ? input.href : input).startsWith(`http://${nativeUrl.host}`);
    const { Request: OwnRequest, Response: OwnResponse } = globalThis;
    globalThis.Request = class extends OwnRequest {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args);
        // The sandbox in this process builds its own; only the handler's count.
        if (ours(args[0])) made.Request++;
      }
    };
    globalThis.Response = class extends OwnResponse {
      constructor(...args: ConstructorParameters<typeof Response>) {
        super(...args);
        made.Response++;
      }
    };
    const create: Send = { method: 'POST', path: '/v1/checkout/links/camiseta-m/orders', headers: { ...json, 'idempotency-key': `count-${Date.now()}` }, body: JSON.stringify(pushOrderBody) };
    try {
      const notFound = await send(nativeUrl, cases['not an endpoint'] as Send);
      assert.deepEqual({ status: notFound.status, ...made }, { status: 404, Request: 0, Response: 0 });
      // The sandbox answers through Responses of its own: count the handler's Requests only.
      const created = await send(nativeUrl, create);
      assert.deepEqual({ status: created.status, Request: made.Request }, { status: 201, Request: 0 });
      made.Response = 0;
      const web = await send(webUrl, cases['not an endpoint'] as Send);
      assert.deepEqual({ status: web.status, ...made }, { status: 404, Request: 0, Response: 1 }, 'the web path, for contrast (its Request is made by the adapter, from another URL)');
    } finally {
      globalThis.Request = OwnRequest;
      globalThis.Response = OwnResponse;
    }
    // Touched afterwards, the Request is there, built from the buyer's request.
    const last = seen.at(-1)?.request;
    assert.ok(last instanceof OwnRequest);
    assert.equal(last.headers.get('idempotency-key'), create.headers?.['idempotency-key']);
  });

  it('the lazy Request acts as a Request: clone, copy, fetch input, inspection', async () => {
    seen.length = 0;
    await send(nativeUrl, { method: 'GET', path: '/v1/checkout/links/camiseta-m?from=test', headers: { 'x-shop': 'tienda-2' } });
    const request = seen[0]?.request as Request;
    assert.equal(request.clone().headers.get('x-shop'), 'tienda-2');
    assert.equal(new Request(request).url, `http://${nativeUrl.host}/v1/checkout/links/camiseta-m?from=test`);
    assert.equal(request.bodyUsed, false);
    assert.equal(request.signal.aborted, false);
    assert.match((await import('node:util')).inspect(request), /^Request \{\n\s+method: 'GET'/);
  });

  it('the Request a callback touches aborts its signal when the buyer goes away, on both paths', async () => {
    const heard: string[] = [];
    const waiting = createCheckoutHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: `${sb.origin}/v1`,
      limits: false,
      // A merchant's slow lookup that stops when the buyer leaves.
      resolveLink: (hash, request) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(resolveHandlerLink(hash)), 3_000);
          request.signal.addEventListener('abort', () => {
            heard.push(hash);
            clearTimeout(timer);
            resolve(null);
          });
        }),
      onError: (error) => errors.push(error),
    });
    for (const [path, url] of [['native', await listen(toNodeListener(waiting))], ['web', await listen(toNodeListener((request) => waiting(request)))]] as const) {
      const socket = connect({ host: '127.0.0.1', port: Number(url.port) });
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`GET /v1/checkout/links/camiseta-m HTTP/1.1\r\nHost: x\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      socket.destroy();
      const until = Date.now() + 2_000;
      while (!heard.includes('camiseta-m') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(heard, ['camiseta-m'], `${path}: the lookup heard the buyer leave`);
      heard.length = 0;
    }
  });

  it('a request target no URL parser takes is a 404, not a crash', async () => {
    errors.length = 0;
    const socket = connect({ host: '127.0.0.1', port: Number(nativeUrl.port) });
    socket.setEncoding('utf8');
    let text = '';
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET http://[bad/v1/checkout/links/camiseta-m HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await closed;
    assert.match(text, /^HTTP\/1\.1 404 /);
    assert.match(text, /"api_code":"NOT_FOUND"/);
    assert.deepEqual(errors, []);
    assert.equal((await send(nativeUrl, cases['the link'] as Send)).status, 200);
  });

  it('a body that comes in pieces reads as the same body sent at once', async () => {
    const whole = cases['a body against the contract'] as Send;
    const text = String(whole.body);
    const socket = connect({ host: '127.0.0.1', port: Number(nativeUrl.port) });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    socket.write(`POST ${whole.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: pieces\r\nContent-Length: ${text.length}\r\nConnection: close\r\n\r\n${text.slice(0, 5)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.end(text.slice(5));
    await new Promise((resolve) => socket.once('close', resolve));
    const sent = await send(nativeUrl, whole);
    assert.equal(Number(/^HTTP\/1\.1 (\d+)/.exec(raw)?.[1]), sent.status);
    assert.equal(raw.slice(raw.indexOf('\r\n\r\n') + 4), sent.text);
    assert.match(sent.text, /VALIDATION_FAILED/);
  });

  it('a body cut off mid-way is no error, and the server goes on answering', async () => {
    errors.length = 0;
    const socket = connect({ host: '127.0.0.1', port: Number(nativeUrl.port) });
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /v1/checkout/links/camiseta-m/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: cut\r\nContent-Length: 5000\r\n\r\n{"pay`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(errors, []);
    assert.equal((await send(nativeUrl, cases['the link'] as Send)).status, 200);
  });
});
