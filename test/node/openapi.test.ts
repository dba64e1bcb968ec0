// The OpenAPI document: valid under swagger-parser (OpenAPI 3.1 schema + spec rules), served by the sandbox, written
// by the build step, and matching the sandbox's REAL answers on every documented operation, webhooks included.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument, routes } from '../../src/openapi/index.js';
import { createCheckoutHandler, toNodeListener } from '../../src/server/index.js';
import { repoRoot, scratchDir } from './build-helpers.js';
import { openApiChecker } from './openapi-checker.js';
import { checkoutOrder, directOrderBody, gateways, merchant, partner, startTestSandbox, startViteWithSandbox, type Json, type Reply, type TestSandbox } from './sandbox-harness.js';

const validate = (document: Json) => SwaggerParser.validate(structuredClone(document) as never);

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser: schema and spec rules, every $ref resolves)', async () => {
    const document = buildOpenApiDocument();
    assert.equal(document.openapi, '3.1.0');
    await validate(document);
  });

  it('the validator fails a broken document (a dangling $ref; a response without its description)', async () => {
    const dangling: Json = buildOpenApiDocument();
    dangling.paths['/orders/{orderId}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nope' };
    await assert.rejects(validate(dangling), /Nope/);
    const undescribed: Json = buildOpenApiDocument();
    delete undescribed.paths['/links'].post.responses['200'].description;
    await assert.rejects(validate(undescribed), /description/);
  });

  it('documents every route of the table and every webhook event, with shapes only as $refs to generated components', () => {
    const document: Json = buildOpenApiDocument();
    for (const route of routes) assert.ok(document.paths[route.path]?.[route.method], `${route.method} ${route.path}`);
    assert.deepEqual(Object.keys(document.webhooks).sort(), ['integration_installed', 'integration_uninstalled', 'link_paid', 'order_cancelled', 'order_payment', 'order_refunded', 'store_deleted', 'store_onboarded', 'store_updated', 'test.ping']);
    // From the zod schema, not a copy: the refund body's id_external and the order statuses.
    assert.deepEqual(document.components.schemas.OrderStatus.enum, ['pending', 'processing', 'confirmed', 'cancelled', 'refunded']);
    assert.deepEqual(document.components.schemas.SubmitDigitalWalletCodeBody.properties.daviplata_otp, { type: 'string', pattern: '^\\d{6}$' });
    // Public on purpose, and saying so: a generated client tells "no credential" from "forgot".
    for (const route of routes.filter((r) => r.caller === 'public')) assert.deepEqual(document.paths[route.path][route.method].security, [], route.operationId);
    for (const [event, hook] of Object.entries(document.webhooks as Record<string, Json>)) assert.deepEqual(hook.post.security, [], event);
    assert.deepEqual(Object.keys(document.paths['/checkout/links/{hash}/orders'].post.responses['409'].content['application/json'].examples), ['LINK_ALREADY_PAID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE']);
    // A link the shop's app (pay-checkout serve) could not give is a 5xx of its own, beside the server's failures.
    assert.deepEqual(Object.keys(document.paths['/checkout/links/{hash}'].get.responses.default.content['application/json'].examples), ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'LINK_SOURCE_UNAVAILABLE', 'LINK_SOURCE_INVALID']);
    assert.deepEqual(document.components.examples.LIMIT_REACHED.value, { code: 3017, api_code: 'LIMIT_REACHED', message: 'Too many attempts; wait before trying again.', error: true });
    assert.deepEqual(document.components.securitySchemes.merchantKey, { type: 'apiKey', in: 'header', name: 'merchant-key', description: 'The store’s secret key. Server-side only.' });
  });

  it('npm start (Vite with the sandbox plugin) serves it at /openapi.json too', async () => {
    const { server, origin } = await startViteWithSandbox();
    try {
      const res = await fetch(`${origin}/openapi.json`);
      assert.equal(res.status, 200);
      const served = (await res.json()) as Json;
      assert.deepEqual({ ...served, servers: null }, { ...buildOpenApiDocument(), servers: null });
    } finally {
      await server.close();
    }
  });

  it('the build step writes the same document (build/openapi.ts → dist/openapi.json, exported as pay-checkout/openapi.json)', () => {
    const scratch = scratchDir('openapi');
    try {
      const out = path.join(scratch.dir, 'openapi.json');
      execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'build/openapi.ts'), out], { cwd: repoRoot, stdio: 'pipe' });
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), buildOpenApiDocument());
    } finally {
      scratch.remove();
    }
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    assert.equal(pkg.exports['./openapi.json'], './dist/openapi.json');
    assert.match(pkg.scripts.build, /build\/openapi\.ts/);
  });
});

describe('OpenAPI document against the sandbox', () => {
  let sb: TestSandbox;
  let document: Json;
  let check: ReturnType<typeof openApiChecker>;
  const seen = new Set<string>();
  const problems: string[] = [];

  /** Every /v1 call goes through here: its answer is validated against the document served by the sandbox. */
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const reply = await sb.api(method, `/v1${path}`, body, headers);
    const result = check.response(method, path.split('?')[0] ?? path, reply.status, reply.body);
    seen.add(result.operation);
    for (const error of result.errors) problems.push(`${result.operation}: ${error}\n  ${reply.text.slice(0, 300)}`);
    return reply;
  };

  before(async () => {
    sb = await startTestSandbox({}, { defaultReceiver: true });
    const served = await sb.api('GET', '/openapi.json');
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('access-control-allow-origin'), '*');
    document = served.body;
    check = openApiChecker(document);
  });
  after(() => sb.close());

  it('serves the generated document at /openapi.json with itself as the server', () => {
    assert.deepEqual(document.servers, [{ url: `${sb.origin}/v1`, description: 'this sandbox' }]);
    assert.deepEqual({ ...document, servers: null }, { ...buildOpenApiDocument(), servers: null });
  });

  it('merchant API: links, orders, the SMS code, refunds, cancel, gateways, document types, statistics', async () => {
    assert.equal((await call('GET', '/orders/paymentGateways', undefined, merchant)).status, 200);
    assert.equal((await call('GET', '/national-document-types/CO', undefined, merchant)).status, 200);
    assert.equal((await call('POST', '/links', { description: 'Camiseta', amount: 45_000 }, merchant)).status, 200);
    assert.equal((await call('POST', '/links', { description: 'Aporte', collect_shopper_data: true }, merchant)).status, 200);

    const pushBody = directOrderBody(gateways.push);
    const push = await call('POST', '/orders', pushBody, merchant);
    assert.equal(push.status, 200);
    const replay = await call('POST', '/orders', pushBody, merchant);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await call('GET', `/orders/${push.body.data.id_order}`, undefined, merchant)).status, 200);
    assert.equal((await call('POST', `/orders/cancel/${push.body.data.id_order}`, undefined, merchant)).status, 200);

    const otp = await call('POST', '/orders', directOrderBody(gateways.otp), merchant);
    assert.equal((await call('POST', `/orders/daviplata/${otp.body.data.id_order}`, { daviplata_otp: '999999' }, merchant)).status, 400);
    assert.equal((await call('POST', `/orders/daviplata/${otp.body.data.id_order}`, { daviplata_otp: '123456' }, merchant)).status, 200);
    const confirmed = await call('GET', `/orders/${otp.body.data.id_order}`, undefined, merchant);
    assert.equal(confirmed.body.data.status, 'confirmed');
    const refund = await call('POST', `/orders/refund/${otp.body.data.id_order}`, { id_external: confirmed.body.data.id_external }, merchant);
    assert.equal(refund.status, 200, refund.text);

    const transfer = await call('POST', '/orders', directOrderBody(gateways.transfer), merchant);
    assert.equal(transfer.status, 200);
    assert.equal((await call('GET', `/orders/${transfer.body.data.id_order}`, undefined, merchant)).status, 200);
    await sb.api('POST', `/sandbox/orders/${transfer.body.data.id_order}/pay`);

    const stats = await call('GET', '/merchant/1/dashboard/stats?currency=COP&date_from=2026-03-01&date_to=2026-03-03', undefined, merchant);
    assert.equal(stats.status, 200, stats.text);
  });

  it('partner API: stores, onboarding link, webhook settings and test, events, disconnect', async () => {
    assert.equal((await call('GET', '/partners/stores', undefined, partner)).status, 200);
    assert.equal((await call('GET', '/partners/onboarding-link', undefined, partner)).status, 200);
    assert.equal((await call('GET', '/partners/webhook', undefined, partner)).status, 200);
    assert.equal((await call('PATCH', '/partners/webhook', { events: ['store_onboarded', 'integration_uninstalled'] }, partner)).status, 200);
    assert.equal((await call('PATCH', '/partners/webhook', { url: 'http://insecure.example/hook' }, partner)).status, 400);
    assert.equal((await call('POST', '/partners/webhook/test', undefined, partner)).status, 200);
    assert.equal((await call('GET', '/partners/events', undefined, partner)).status, 200);
    const onboarded = await sb.api('POST', '/sandbox/onboarding', { platform: 'demo-partner', store_name: 'Mi Tienda', external_store_id: 'shop-42' });
    assert.equal(onboarded.status, 200, onboarded.text);
    const idStore = onboarded.body.data?.store?.id_store ?? onboarded.body.data?.id_store;
    assert.equal((await call('DELETE', `/partners/stores/${idStore}`, undefined, partner)).status, 200);
  });

  it('buyer API: the link, orders for each kind of method, replay, status, SMS code, cancel', async () => {
    assert.equal((await call('GET', '/checkout/links/demo-fixed')).status, 200);
    assert.equal((await call('GET', '/checkout/links/demo-dynamic')).status, 200);
    const body = { payment_gateway: { id_payment_gateway: gateways.push }, shopper: { id_number: '12345678', id_type: 1, phone_number: '3001234567' } };
    const created = await call('POST', '/checkout/links/demo-fixed/orders', body, { 'Idempotency-Key': 'openapi-1' });
    assert.equal(created.status, 201, created.text);
    const again = await call('POST', '/checkout/links/demo-fixed/orders', body, { 'Idempotency-Key': 'openapi-1' });
    assert.equal(again.status, 200);
    const token = { 'X-Order-Token': created.body.data.order_token };
    assert.equal((await call('GET', `/checkout/orders/${created.body.data.id_order}`, undefined, token)).status, 200);
    assert.equal((await call('POST', `/checkout/orders/${created.body.data.id_order}/cancel`, undefined, token)).status, 200);

    for (const gateway of [gateways.otp, gateways.transfer, gateways.card]) {
      const order = await checkoutOrder(sb, 'demo-dynamic', gateway, { amount: 30_000 });
      assert.equal(order.status, 201, order.text);
      const result = check.response('POST', '/checkout/links/demo-dynamic/orders', order.status, order.body);
      seen.add(result.operation);
      problems.push(...result.errors.map((e) => `${result.operation} (gateway ${gateway}): ${e}`));
      const orderToken = { 'X-Order-Token': order.body.data.order_token };
      assert.equal((await call('GET', `/checkout/orders/${order.body.data.id_order}`, undefined, orderToken)).status, 200);
      if (gateway === gateways.otp) {
        assert.equal((await call('POST', `/checkout/orders/${order.body.data.id_order}/otp`, { daviplata_otp: '123456' }, orderToken)).status, 200);
      }
    }
  });

  it('errors: missing and wrong credentials, validation, unknown ids and links, a reused key, a cancelled order', async () => {
    assert.equal((await call('GET', '/orders/1')).status, 401);
    assert.equal((await call('GET', '/orders/1', undefined, { 'merchant-key': 'mk_test_nobody' })).status, 401);
    assert.equal((await call('GET', '/orders/99999', undefined, merchant)).status, 404);
    assert.equal((await call('POST', '/orders', { amount: -1 }, merchant)).status, 400);
    assert.equal((await call('POST', '/links', { amount: 1000 }, merchant)).status, 400);
    assert.equal((await call('GET', '/partners/stores', undefined, { 'X-API-Key': 'pk_test_demo' })).status, 401);
    assert.equal((await call('GET', '/checkout/links/no-such-link')).status, 404);
    const body = { payment_gateway: { id_payment_gateway: gateways.push }, shopper: { id_number: '1', id_type: 1, phone_number: '3001234567' } };
    await call('POST', '/checkout/links/demo-dynamic/orders', { ...body, amount: 5000 }, { 'Idempotency-Key': 'openapi-reuse' });
    assert.equal((await call('POST', '/checkout/links/demo-dynamic/orders', { ...body, amount: 6000 }, { 'Idempotency-Key': 'openapi-reuse' })).status, 409);
    assert.equal((await call('POST', '/checkout/links/demo-dynamic/orders', body)).status, 400);
    assert.equal((await call('GET', '/checkout/orders/1', undefined, { 'X-Order-Token': 'wrong-token-wrong-token' })).status, 404);
  });

  it('refusals: every operation answers a missing credential, an unknown id or link, a broken body, with a documented api_code', async () => {
    const refusedBy = new Map<string, Set<string>>();
    const refuse = async (route: (typeof routes)[number], path: string, init: RequestInit, apiCode: string) => {
      const reply = await sb.raw(`/v1${path}`, { method: route.method.toUpperCase(), ...init });
      const result = check.response(route.method, path.split('?')[0] ?? path, reply.status, reply.body);
      seen.add(result.operation);
      for (const error of result.errors) problems.push(`${result.operation}: ${error}\n  ${reply.text.slice(0, 300)}`);
      assert.equal(reply.body?.api_code, apiCode, `${route.method} ${path}: ${reply.text.slice(0, 300)}`);
      const codes = refusedBy.get(route.operationId) ?? new Set<string>();
      refusedBy.set(route.operationId, codes.add(apiCode));
    };
    const json = (headers: Record<string, string>, body: string): RequestInit => ({ headers: { ...headers, 'content-type': 'application/json' }, body });
    // Real resources, so a body of the wrong type is what is refused, not the id.
    const merchantOrder = (await sb.api('POST', '/v1/orders', directOrderBody(gateways.otp), merchant)).body.data.id_order;
    const buyerOrder = (await checkoutOrder(sb, 'demo-dynamic', gateways.otp, { amount: 30_000 })).body.data;
    // The shop API is served by `pay-checkout serve` in partner mode, not the sandbox: test/node/serve-partner.test.ts checks it.
    const served = routes.filter((route) => route.tag !== 'Shop');
    for (const route of served) {
      const credential: Record<string, string> = route.caller === 'merchant' ? merchant : route.caller === 'partner' ? partner : {};
      const known = route.path.replace('{storeId}', '1').replace('{countryCode}', 'CO');
      const path = known.replace(/\{(orderId|id_order|id_store)\}/, '999999').replace('{hash}', 'no-such-link');
      const missing = { merchant: 'MISSING_MERCHANT_KEY', partner: 'INVALID_PARTNER_CREDENTIALS', 'order-token': 'ORDER_NOT_FOUND', 'store-key': 'INVALID_STORE_API_KEY', public: 'LINK_NOT_FOUND' }[route.caller];
      await refuse(route, path, {}, missing);
      if (route.method !== 'get') await refuse(route, path, json(credential, '{"amount": '), 'MALFORMED_JSON');
      if (route.body) {
        const real = known.replace('{orderId}', String(merchantOrder)).replace('{id_order}', String(buyerOrder.id_order)).replace('{hash}', 'demo-dynamic');
        const headers = { ...credential, 'X-Order-Token': buyerOrder.order_token, 'Idempotency-Key': 'openapi-refusals', 'content-type': 'text/plain' };
        await refuse(route, real, { headers, body: '{}' }, 'UNSUPPORTED_MEDIA_TYPE');
      }
      if (/\{(orderId|id_order|id_store)\}/.test(known)) await refuse(route, known.replace(/\{\w+\}/, 'not-an-id'), { headers: credential }, 'VALIDATION_FAILED');
    }
    const [links] = routes.filter((r) => r.operationId === 'createLink');
    const [stats] = routes.filter((r) => r.operationId === 'getDashboardStats');
    assert.ok(links && stats);
    await refuse(links, '/links', json(merchant, JSON.stringify({ description: 'x'.repeat(110_000) })), 'PAYLOAD_TOO_LARGE');
    await refuse(stats, '/merchant/2/dashboard/stats?currency=COP&date_from=2026-03-01&date_to=2026-03-03', { headers: merchant }, 'INSUFFICIENT_SCOPE');
    for (const route of served) assert.ok(refusedBy.get(route.operationId)?.size, `no refusal of ${route.operationId} was checked`);
  });

  it('webhook deliveries the sandbox sent match webhooks.{event}', async () => {
    // The sandbox delivers in the background; wait (generously) until order_payment, link_paid and the store events are logged.
    const wanted = ['order_payment', 'store_onboarded', 'integration_uninstalled', 'test.ping'];
    let deliveries: { event: string; body: string }[] = [];
    for (let i = 0; i < 200; i++) {
      deliveries = (await sb.api('GET', '/sandbox/deliveries')).body.data;
      if (wanted.every((event) => deliveries.some((d) => d.event === event))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const event of wanted) assert.ok(deliveries.some((d) => d.event === event), `no ${event} delivery in ${deliveries.map((d) => d.event).join(', ')}`);
    for (const delivery of deliveries) {
      const result = check.webhook(delivery.event, JSON.parse(delivery.body));
      seen.add(result.operation);
      problems.push(...result.errors.map((e) => `${result.operation}: ${e}`));
    }
  });

  it('createCheckoutHandler() answers the buyer API as the document says', async () => {
    const links: Record<string, { amount?: number; description: string; storeName: string }> = {
      camiseta: { amount: 50_000, description: 'Camiseta', storeName: 'Tienda Demo' },
      aporte: { description: 'Aporte', storeName: 'Tienda Demo' },
    };
    const server = createServer(toNodeListener(createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, resolveLink: (hash) => links[hash] ?? null })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const handlerProblems: string[] = [];
    const ask = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(base + path, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await response.json()) as Json;
      const result = check.response(method, path, response.status, json);
      handlerProblems.push(...result.errors.map((e) => `handler ${result.operation}: ${e}`));
      return { status: response.status, body: json };
    };
    try {
      assert.equal((await ask('GET', '/checkout/links/camiseta')).status, 200);
      assert.equal((await ask('GET', '/checkout/links/aporte')).status, 200);
      assert.equal((await ask('GET', '/checkout/links/nope')).status, 404);
      const shopper = { id_number: '1020304050', id_type: 1, phone_number: '3001234567' };
      for (const [gateway, key] of [[gateways.push, 'h-1'], [gateways.otp, 'h-2'], [gateways.transfer, 'h-3']] as const) {
        const created = await ask('POST', '/checkout/links/camiseta/orders', { payment_gateway: { id_payment_gateway: gateway }, shopper }, { 'Idempotency-Key': key });
        assert.ok([200, 201].includes(created.status), JSON.stringify(created.body));
        const token = { 'X-Order-Token': created.body.data.order_token };
        assert.equal((await ask('GET', `/checkout/orders/${created.body.data.id_order}`, undefined, token)).status, 200);
        if (gateway === gateways.otp) assert.equal((await ask('POST', `/checkout/orders/${created.body.data.id_order}/otp`, { daviplata_otp: '123456' }, token)).status, 200);
        else assert.equal((await ask('POST', `/checkout/orders/${created.body.data.id_order}/cancel`, undefined, token)).status, 200);
      }
      assert.equal((await ask('POST', '/checkout/links/camiseta/orders', { payment_gateway: { id_payment_gateway: 1 }, shopper })).status, 400);
      assert.equal((await ask('GET', '/checkout/orders/1', undefined, { 'X-Order-Token': 'not-its-token' })).status, 404);
      assert.equal((await ask('GET', '/checkout/orders/not-an-id')).status, 400);
      assert.deepEqual(handlerProblems, []);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('every answer matched its schema, and every documented operation was exercised with a success', () => {
    assert.deepEqual(problems, []);
    for (const route of routes.filter((r) => r.tag !== 'Shop')) {
      const status = route.success[0];
      assert.ok(seen.has(`${route.method.toUpperCase()} ${route.path} ${String(status)}`), `not exercised: ${route.method} ${route.path} ${String(status)}`);
    }
    assert.ok([...seen].some((s) => / 4\d\d$/.test(s)), 'no refusal was checked against its documented status');
  });

  it('every /v1 route the sandbox has is in the document, and nothing else is', () => {
    const served = sb.running.sandbox.app.routes
      .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL') // ALL: the buyer API's CORS middleware
      .map((r) => `${r.method.toLowerCase()} ${r.path.slice('/v1'.length).replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    // Less the shop API, which `pay-checkout serve` serves in partner mode (test/node/serve-partner.test.ts).
    const shopApi = new Set(routes.filter((r) => r.tag === 'Shop').map((r) => `${r.method} ${r.path}`));
    const documented = Object.entries(document.paths as Record<string, object>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
      .filter((op) => !shopApi.has(op))
      .sort();
    assert.deepEqual(documented, served);
  });

  it('a schema that disagrees with the sandbox is caught (a deliberately wrong document)', async () => {
    const wrong: Json = structuredClone(document);
    wrong.components.schemas.CheckoutLink.properties.store_name = { type: 'integer' };
    wrong.components.schemas.ErrorResponse.required.push('hint');
    delete wrong.paths['/checkout/links/{hash}'].get.responses['404'].content['application/json'].examples.LINK_NOT_FOUND;
    const strict = openApiChecker(wrong);
    const link = await sb.api('GET', '/v1/checkout/links/demo-fixed');
    assert.match(strict.response('GET', '/checkout/links/demo-fixed', link.status, link.body).errors.join('\n'), /store_name must be integer/);
    const missing = await sb.api('GET', '/v1/checkout/links/nope');
    const missingErrors = strict.response('GET', '/checkout/links/nope', missing.status, missing.body).errors.join('\n');
    assert.match(missingErrors, /must have required property 'hint'/);
    assert.match(missingErrors, /404 LINK_NOT_FOUND is not among the documented api_codes/);
    assert.throws(() => strict.response('GET', '/undocumented', 200, {}), /no such path/);
  });
});
