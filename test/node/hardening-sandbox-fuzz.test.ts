// No input crashes the sandbox: ~300 random requests over real HTTP (the real route list, hostile ids,
// headers and bodies); every answer is a success, an HTML page, or the contract's ErrorResponse; never a 500.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import * as z from 'zod/mini';
import * as contract from '../../src/contract/index.js';
import { ErrorResponseSchema } from '../../src/contract/index.js';
import { createClock } from '../../src/sandbox/clock.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { awkwardScalar, fieldNames, jsonish } from './hardening-arbitraries.js';
import { directOrderBody, gateways, merchant, partner, shopper, startOfTime } from './sandbox-harness.js';

const seed = 20_260_302;
const requestCount = 300;
const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
/** HTML pages answer errors as pages; everything else answers with the contract's ErrorResponse. */
const isPage = (pathname: string) => pathname === '/' || /^\/(sandbox\/card\/|onboarding(\/|$)|checkout\/)/.test(pathname);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}
interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Raw node:http, so paths go out exactly as generated (`..`, bad escapes), never normalized by a URL parser. */
const agent = new http.Agent({ keepAlive: true });
function send(origin: string, request: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    // An explicit length: Node sends DELETE and OPTIONS bodies unframed otherwise, and the server rightly refuses them.
    const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
    const req = http.request({ agent, hostname, port, method: request.method, path: request.path, headers, timeout: 5_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** What is wrong with an answer, or null. */
function violation(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status === 500) return `500 ${answer.text.slice(0, 300)}`;
  if (answer.status < 400 || request.method === 'HEAD') return null; // a HEAD answer has no body to judge
  const pathname = request.path.split('?')[0] ?? '';
  if (isPage(pathname) && answer.contentType.startsWith('text/html')) return null;
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `${answer.status} ${answer.contentType} is not JSON: ${answer.text.slice(0, 200)}`;
  }
  const parsed = ErrorResponseSchema.safeParse(json);
  if (!parsed.success) return `${answer.status} body is not an ErrorResponse: ${answer.text.slice(0, 200)}`;
  if (answer.status >= 500 && parsed.data.code !== 7001 && answer.status !== 503) return `${answer.status} with code ${parsed.data.code}`;
  return null;
}

// --- the generators -------------------------------------------------------------------------------

const contractFields = [...new Set(Object.values(contract as Record<string, unknown>).flatMap((value) => [...fieldNames(value)]))];
const headerText = fc.string({ maxLength: 60 }); // printable ASCII: what a header can carry

/** Known-good bodies per route, so a single mutated field reaches past the schema into the sandbox's logic. */
const validBodies: Record<string, () => unknown> = {
  'POST /v1/orders': () => directOrderBody(gateways.push),
  'POST /v1/checkout/links/:hash/orders': () => ({ amount: 20_000, payment_gateway: { id_payment_gateway: gateways.push }, shopper: { id_number: '12345678', id_type: 1, phone_number: '3001234567' } }),
  'POST /v1/links': () => ({ description: 'Pedido', amount: 10_000, currency: 'COP', order_key: 'fuzz' }),
  'POST /v1/checkout/orders/:id_order/otp': () => ({ daviplata_otp: '123456' }),
  'POST /v1/orders/daviplata/:orderId': () => ({ daviplata_otp: '123456' }),
  'POST /v1/orders/refund/:orderId': () => ({ id_external: 'order-1' }),
  'PATCH /v1/partners/webhook': () => ({ url: 'https://example.com/hooks', events: ['store_onboarded'] }),
  'POST /sandbox/orders': () => ({ hash: 'demo-dynamic', amount: 5_000, payment_gateway: { id_payment_gateway: gateways.transfer }, shopper: shopper() }),
  'POST /sandbox/clock': () => ({ advance_ms: 1_000 }),
  'POST /sandbox/onboarding': () => ({ platform: 'demo-partner', store_name: 'Tienda Fuzz' }),
  'POST /sandbox/forward': () => ({ url: 'http://127.0.0.1:9/hooks' }),
};

/** Every path to a value inside a JSON value. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}
const infinity = '\u0000INF\u0000'; // JSON.stringify cannot write 1e309; the text gets it spliced in
function mutated(template: unknown, pathIndex: number, replacement: unknown, remove: boolean): string {
  const body = structuredClone(template) as Record<string, unknown>;
  const paths = pathsOf(body).filter((p) => p.length > 0);
  const path = paths[pathIndex % paths.length] ?? [];
  let parent: Record<string, unknown> = body;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path.at(-1) ?? '';
  if (remove) delete parent[last];
  else parent[last] = replacement === Number.POSITIVE_INFINITY ? infinity : replacement;
  return JSON.stringify(body).replaceAll(JSON.stringify(infinity), '1e309');
}

const genericBody = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  jsonish(contractFields).map((v) => JSON.stringify(v)),
  fc.constantFrom('', '{"amount": 1000,', '{', 'nul', '\u0000', '[1,2', '{"a":1}}', '"\\ud800"', '{"amount":1e309}', '{"__proto__":{"admin":true}}', '\ufeff{}'),
  fc.integer({ min: 1_000, max: 100 * 1024 - 100 }).map((n) => JSON.stringify({ description: 'x'.repeat(n) })), // huge, under the limit
  fc.constant(JSON.stringify({ description: 'x'.repeat(101 * 1024) })), // over the 100 KB limit
  fc.constant('['.repeat(1_000) + ']'.repeat(1_000)),
  fc.constant('{"a":'.repeat(1_000) + '1' + '}'.repeat(1_000)),
  fc.constantFrom('store_name=Tienda&external_store_id=x', 'card_number=4242424242424242', 'card_number=4000000000000002', 'card_number=1', '%%%&=&'),
);

function bodyFor(route: string): fc.Arbitrary<string | undefined> {
  const template = validBodies[route];
  if (!template) return genericBody;
  const replacement = fc.oneof(awkwardScalar, fc.jsonValue({ maxDepth: 2 }), fc.constant(Number.POSITIVE_INFINITY));
  const mutation = fc.tuple(fc.nat(), replacement, fc.boolean()).map(([i, value, remove]) => mutated(template(), i, value, remove));
  return fc.oneof({ arbitrary: mutation, weight: 4 }, { arbitrary: genericBody, weight: 2 }, { arbitrary: fc.constant(JSON.stringify(template())), weight: 2 });
}

/** Real ids, order tokens and card sessions of orders made before the run. */
interface Known {
  ids: string[];
  tokens: string[];
  sessions: string[];
}

/** A value for a path parameter: a real one half the time, so requests get past "not found" into the logic. */
function paramValue(name: string, known: Known): fc.Arbitrary<string> {
  const real: Record<string, string[]> = {
    hash: ['demo-fixed', 'demo-dynamic'],
    session: known.sessions,
    countryCode: ['CO'],
    storeId: ['1', '2'],
    id_store: ['1', '2', '3'],
    name: ['nequi.svg', 'card.svg'],
    '*': ['demo-fixed', 'demo-dynamic', 'index.html'],
  };
  const good = real[name] ?? known.ids;
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(good.length ? good : ['1'])), weight: 4 },
    { arbitrary: fc.constantFrom('0', '-1', 'abc', '1e309', '1.5', '9007199254740993', '%20', 'co', '..', '.', '%2e%2e', '%', '%zz', '%E0%A4%A', '%00', '%2F', ...known.tokens), weight: 3 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map(encodeURIComponent), weight: 1 }, // unicode, escaped as a browser would
    { arbitrary: fc.integer({ min: 256, max: 4_000 }).map((n) => '7'.repeat(n)), weight: 1 },
  );
}

const queries = fc.constantFrom(
  '',
  '',
  '?currency=COP&date_from=2026-03-01&date_to=2026-03-02',
  '?currency=cop&date_from=2026-02-30&date_to=1',
  '?currency=COP&date_from=2026-03-02&date_to=2026-03-01',
  '?currency=COP&date_from=0001-01-01&date_to=9999-12-31',
  '?platform=demo-partner',
  '?platform=%FF',
  '?a=1&a=2&__proto__=x',
);

function requests(routes: { method: string; path: string }[], known: Known): fc.Arbitrary<FuzzRequest> {
  const route = fc.constantFrom(...routes);
  return route.chain(({ method, path }) =>
    fc.record({
      method: fc.oneof({ arbitrary: fc.constant(method), weight: 4 }, { arbitrary: fc.constantFrom(...methods), weight: 1 }),
      // The route's own path with hostile params; sometimes an extra segment or a `..` walk.
      path: fc
        .tuple(
          fc.tuple(...(path.match(/:[A-Za-z_]+|\*/g) ?? []).map((param) => paramValue(param.replace(/^:/, ''), known))),
          fc.oneof({ arbitrary: fc.constant(''), weight: 12 }, fc.constantFrom('/extra', '/..', '/../../sandbox/reset')),
          queries,
        )
        .map(([values, tail, query]) => {
          let i = 0;
          return path.replace(/:[A-Za-z_]+|\*/g, () => values[i++]!) + tail + query;
        }),
      merchantKey: fc.oneof({ arbitrary: fc.constant(merchant['merchant-key']), weight: 4 }, { arbitrary: fc.constant(undefined), weight: 2 }, fc.constantFrom('mk_test_other', ''), headerText),
      partnerKeys: fc.oneof({ arbitrary: fc.constantFrom('none', 'valid'), weight: 6 }, fc.constantFrom('wrong secret', 'key only', 'other')),
      contentType: fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 6 },
        fc.constantFrom(undefined, 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/vnd.api+json', 'application/json; charset=utf-16', 'application/jsonx'),
      ),
      idempotencyKey: fc.oneof(fc.constant(undefined), fc.constant('fuzz-key'), { arbitrary: fc.uuid(), weight: 3 }, headerText, fc.constant('k'.repeat(4_000))),
      orderToken: fc.oneof(fc.constant(undefined), { arbitrary: fc.constantFrom(...known.tokens), weight: 2 }, headerText),
      body: bodyFor(`${method} ${path}`),
    }),
  ).map((r) => {
    const headers: Record<string, string> = {};
    if (r.merchantKey !== undefined) headers['merchant-key'] = r.merchantKey;
    if (r.partnerKeys === 'valid') Object.assign(headers, partner);
    if (r.partnerKeys === 'wrong secret') Object.assign(headers, { ...partner, 'X-API-Secret': 'nope' });
    if (r.partnerKeys === 'key only') headers['X-API-Key'] = partner['X-API-Key'];
    if (r.partnerKeys === 'other') Object.assign(headers, { 'X-API-Key': 'pk_test_other', 'X-API-Secret': 'sk_test_other' });
    if (r.contentType !== undefined) headers['content-type'] = r.contentType;
    if (r.idempotencyKey !== undefined) headers['Idempotency-Key'] = r.idempotencyKey;
    if (r.orderToken !== undefined) headers['X-Order-Token'] = r.orderToken;
    return { method: r.method, path: r.path, headers, body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body };
  });
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 160)} headers=${JSON.stringify(r.headers).slice(0, 200)} body=${r.body === undefined ? '(none)' : JSON.stringify(r.body.slice(0, 160))}${(r.body?.length ?? 0) > 160 ? `…(${r.body?.length} chars)` : ''}`;

// --- the test ---------------------------------------------------------------------------------------

describe('no input crashes the sandbox', () => {
  let running: RunningSandbox;
  const unexpected: unknown[] = [];
  const known: Known = { ids: [], tokens: [], sessions: [] };

  before(async () => {
    running = await startSandbox({ port: 0, clock: createClock(startOfTime), timings: { webhookTimeoutMs: 200, webhookRetryDelayMs: 10 }, onUnexpectedError: (e) => unexpected.push(e) });
    for (const gateway of [gateways.push, gateways.otp, gateways.transfer, gateways.card]) {
      const r = await fetch(`${running.url}/v1/checkout/links/demo-dynamic/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': `seed-${gateway}` },
        body: JSON.stringify({ amount: 20_000, payment_gateway: { id_payment_gateway: gateway }, shopper: { id_number: '12345678', id_type: 1, phone_number: '3001234567' } }),
      });
      assert.equal(r.status, 201);
      const { data } = (await r.json()) as { data: { id_order: number; order_token: string; next_action: { url?: string } | null } };
      known.ids.push(String(data.id_order));
      known.tokens.push(data.order_token);
      if (data.next_action?.url) known.sessions.push(new URL(data.next_action.url).pathname.split('/').at(-1)!);
    }
  });
  after(async () => {
    agent.destroy();
    await running.close();
  });

  test(`${requestCount} random requests: each answered with success, a page or an ErrorResponse, never a 500`, async () => {
    const realRoutes = running.sandbox.app.routes.filter((r) => r.method !== 'ALL').map(({ method, path }) => ({ method, path }));
    assert.ok(realRoutes.length >= 40, `the real route list (${realRoutes.length})`);
    // Plus paths of random segments, inside and outside the API's prefixes.
    const routes = [...realRoutes, { method: 'GET', path: '/:x' }, { method: 'POST', path: '/v1/:x/:y' }, { method: 'GET', path: '/sandbox/:x/:y/:z' }];
    const samples = fc.sample(requests(routes, known), { seed, numRuns: requestCount });

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    for (const request of samples) {
      let answer: Answer;
      try {
        answer = await send(running.url, request);
      } catch (error) {
        problems.push(`no answer (${String(error)}): ${describeRequest(request)}`);
        continue;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const wrong = violation(request, answer);
      if (wrong) problems.push(`${wrong}\n    for ${describeRequest(request)}`);
      // A fault created by chance would break later answers on purpose: clear it at once.
      if (request.method === 'POST' && request.path.startsWith('/sandbox/faults') && answer.status === 200) await fetch(`${running.url}/sandbox/faults`, { method: 'DELETE' });
    }

    // The run reached deep: successes and several kinds of refusal, not just one early 404.
    const count = (test: (status: number) => boolean) => [...statuses].filter(([s]) => test(s)).reduce((n, [, c]) => n + c, 0);
    assert.ok(count((s) => s >= 200 && s < 300) >= 30, `successes: ${JSON.stringify([...statuses])}`);
    assert.ok([400, 401, 404, 413, 415].every((s) => statuses.has(s)), `statuses: ${JSON.stringify([...statuses])}`);

    const final = await fetch(`${running.url}/v1/checkout/links/demo-fixed`);
    assert.equal(final.status, 200, 'the sandbox is still up and serving buyers');
    z.object({ data: z.object({ hash: z.literal('demo-fixed') }) }).parse(await final.json());
    assert.deepEqual(unexpected.map(String), [], 'the sandbox reported no unexpected error');
    assert.deepEqual(problems, [], `${problems.length} bad answers:\n${problems.join('\n')}`);
  });
});
