// Fault modes of the control API (POST /sandbox/faults) over real HTTP: each mode applies `count` times then
// stops, scoped by path glob and method; what reaches the client and what changes in the sandbox's state.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CreatedOrderSchema, ErrorResponseSchema, SandboxFaultListSchema } from '../../src/contract/index.js';
import { createSandbox } from '../../src/sandbox/app.js';
import { pathPattern } from '../../src/sandbox/faults.js';
import { assertError, assertFieldError, checkoutOrder, directOrderBody, gateways, merchant, startTestSandbox, startViteWithSandbox, type Json, type TestSandbox } from './sandbox-harness.js';

describe('sandbox fault modes', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());
  beforeEach(() => sb.reset());

  const addFault = async (body: Record<string, unknown>): Promise<Json> => {
    const r = await sb.api('POST', '/sandbox/faults', body);
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  };
  const faults = async (): Promise<Json[]> => {
    const r = await sb.api('GET', '/sandbox/faults');
    assert.ok(SandboxFaultListSchema.safeParse(r.body.data).success, r.text);
    return r.body.data;
  };
  const createOrder = () => sb.api('POST', '/v1/orders', directOrderBody(gateways.push), merchant);
  const timed = async <T>(work: () => Promise<T>) => {
    const start = performance.now();
    const result = await work();
    return { result, ms: performance.now() - start };
  };

  describe('control API', () => {
    test('POST validates the body with the contract schema', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ path: '/v1/orders', count: 1, mode: 'explode' }, 'mode'],
        [{ path: 'v1/orders', count: 1, mode: 'drop' }, 'path'],
        [{ path: '/v1/orders', count: 0, mode: 'drop' }, 'count'],
        [{ path: '/v1/orders', mode: 'drop' }, 'count'],
        [{ path: '/v1/orders', count: 1, mode: 'latency' }, 'latency_ms'],
        [{ path: '/v1/orders', count: 1, mode: 'error_5xx', status: 504 }, 'status'],
        [{ path: '/v1/orders', count: 1, mode: 'drop', method: 'FETCH' }, 'method'],
      ];
      for (const [body, field] of cases) {
        const r = await sb.api('POST', '/sandbox/faults', body);
        assertError(r, 400, 'VALIDATION_FAILED');
        assertFieldError(r, field);
      }
      assert.deepEqual(await faults(), []);
    });

    test('GET lists faults with defaults and remaining counts; DELETE and reset clear them', async () => {
      const added = await addFault({ path: '/v1/**', count: 3, mode: 'error_5xx' });
      assert.equal(added.status, 503);
      await addFault({ path: '/v1/orders/*', method: 'GET', count: 1, mode: 'missing_field' });
      const listed = await faults();
      assert.deepEqual(listed.map((f) => [f.mode, f.method, f.remaining, f.status, f.field]), [
        ['error_5xx', null, 3, 503, null],
        ['missing_field', 'GET', 1, null, 'data.status'],
      ]);
      assert.deepEqual((await sb.api('DELETE', '/sandbox/faults')).body.data, []);
      assert.deepEqual(await faults(), []);
      await addFault({ path: '/**', count: 1, mode: 'drop' });
      await sb.reset();
      assert.deepEqual(await faults(), []);
    });

    test('faults never apply to /sandbox itself', async () => {
      await addFault({ path: '/**', count: 5, mode: 'error_5xx' });
      assert.equal((await sb.api('GET', '/sandbox/fixtures')).status, 200);
      assert.equal((await faults())[0].remaining, 5);
    });
  });

  describe('path glob and method', () => {
    test('* is one segment, ** any number; the rest is literal', () => {
      const one = pathPattern('/v1/checkout/orders/*');
      assert.ok(one.test('/v1/checkout/orders/12'));
      assert.ok(!one.test('/v1/checkout/orders/12/otp'));
      assert.ok(!one.test('/v1/checkout/orders'));
      const any = pathPattern('/v1/checkout/**');
      for (const path of ['/v1/checkout', '/v1/checkout/links/demo-fixed', '/v1/checkout/orders/1/otp']) assert.ok(any.test(path), path);
      assert.ok(!any.test('/v1/checkoutX'));
      assert.ok(pathPattern('/v1/**/otp').test('/v1/checkout/orders/1/otp'));
      assert.ok(!pathPattern('/v1/orders.json').test('/v1/ordersxjson'));
    });

    test('only matching path and method spend the count; OPTIONS preflights are spared unless named', async () => {
      const created = await checkoutOrder(sb, 'demo-fixed', gateways.push);
      const { id_order, order_token } = created.body.data;
      const token = { 'X-Order-Token': order_token };
      await addFault({ path: '/v1/checkout/orders/*', method: 'GET', count: 1, mode: 'error_5xx' });
      // Another method, a deeper path, a preflight: untouched.
      assert.equal((await sb.api('POST', `/v1/checkout/orders/${id_order}/otp`, { daviplata_otp: '123456' }, token)).status, 400);
      assert.equal((await sb.api('GET', '/v1/checkout/links/demo-fixed')).status, 200);
      assert.equal((await faults())[0].remaining, 1);
      assertError(await sb.api('GET', `/v1/checkout/orders/${id_order}`, undefined, token), 503, 'SERVICE_UNAVAILABLE', 5002);
      assert.equal((await sb.api('GET', `/v1/checkout/orders/${id_order}`, undefined, token)).status, 200);

      await addFault({ path: '/v1/checkout/**', count: 1, mode: 'error_5xx' });
      const preflight = await sb.raw('/v1/checkout/links/demo-fixed', { method: 'OPTIONS', headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' } });
      assert.equal(preflight.status, 204);
      assert.equal((await sb.api('GET', '/v1/checkout/links/demo-fixed')).status, 503);
    });
  });

  describe('modes', () => {
    test('error_5xx answers the contract ErrorResponse (503 5002, 500 7001) or a proxy page (502) without running the handler', async () => {
      await addFault({ path: '/v1/orders', method: 'POST', count: 2, mode: 'error_5xx' });
      assertError(await createOrder(), 503, 'SERVICE_UNAVAILABLE', 5002);
      assertError(await createOrder(), 503, 'SERVICE_UNAVAILABLE', 5002);
      assert.equal(sb.orderCount(), 0);
      assert.equal((await createOrder()).status, 200);

      await addFault({ path: '/v1/orders', count: 1, mode: 'error_5xx', status: 500 });
      assertError(await createOrder(), 500, 'INTERNAL_SERVER_ERROR', 7001);
      await addFault({ path: '/v1/orders', count: 1, mode: 'error_5xx', status: 502 });
      const proxy = await createOrder();
      assert.equal(proxy.status, 502);
      assert.match(proxy.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(proxy.text, /502 Bad Gateway/);
      assert.equal(sb.orderCount(), 1);
    });

    test('drop hangs up without an answer and without running the handler', async () => {
      await addFault({ path: '/v1/orders', method: 'POST', count: 1, mode: 'drop' });
      await assert.rejects(createOrder(), (error: unknown) => error instanceof TypeError && /fetch failed/.test(error.message));
      assert.equal(sb.orderCount(), 0);
      assert.equal((await createOrder()).status, 200);
      assert.equal((await faults())[0].remaining, 0);
    });

    test('malformed_json runs the handler (the order exists) but the client gets broken JSON with the same status', async () => {
      await addFault({ path: '/v1/orders', count: 1, mode: 'malformed_json' });
      const broken = await createOrder();
      assert.equal(broken.status, 200);
      assert.match(broken.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(broken.text.length > 0);
      assert.throws(() => JSON.parse(broken.text), SyntaxError);
      assert.equal(sb.orderCount(), 1);
      const listed = await sb.api('GET', '/sandbox/orders');
      assert.equal(listed.body.data.length, 1);
      assert.ok(CreatedOrderSchema.safeParse((await createOrder()).body.data).success, 'the next answer is whole again');
    });

    test('missing_field deletes data.status by default, or the dotted field given', async () => {
      await addFault({ path: '/v1/orders', count: 1, mode: 'missing_field' });
      const first = await createOrder();
      assert.equal(first.status, 200);
      assert.equal(typeof first.body.data.id_order, 'number');
      assert.equal('status' in first.body.data, false);
      assert.equal(CreatedOrderSchema.safeParse(first.body.data).success, false);
      assert.equal(sb.orderCount(), 1);

      await addFault({ path: '/v1/orders', count: 1, mode: 'missing_field', field: 'code' });
      const error = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push, { amount: 5 }), merchant);
      assert.equal(error.status, 400);
      assert.equal(error.body.api_code, 'AMOUNT_OUT_OF_RANGE');
      assert.equal(ErrorResponseSchema.safeParse(error.body).success, false, 'code is gone');
      assert.equal((await createOrder()).body.data.status, 'processing');
    });

    test('latency delays the request before the handler runs', async () => {
      await addFault({ path: '/v1/orders', count: 1, mode: 'latency', latency_ms: 250 });
      const pending = timed(createOrder);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(sb.orderCount(), 0, 'nothing has happened yet');
      const { result, ms } = await pending;
      assert.equal(result.status, 200);
      assert.ok(ms >= 245, `took ${ms} ms`);
      assert.equal(sb.orderCount(), 1);
      assert.ok((await timed(createOrder)).ms < 245, 'the second request is not delayed');
    });

    test('slow_first_byte runs the handler at once and holds back the headers', async () => {
      await addFault({ path: '/v1/orders', count: 1, mode: 'slow_first_byte', latency_ms: 250 });
      let answered = false;
      const pending = timed(createOrder).finally(() => (answered = true));
      while (sb.orderCount() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(answered, false, 'the order exists before any byte of the answer');
      const { result, ms } = await pending;
      assert.equal(result.status, 200);
      assert.ok(ms >= 245, `took ${ms} ms`);
      assert.ok((await timed(createOrder)).ms < 245, 'the second request is not delayed');
    });
  });

  test('in process, Sandbox.fetch rejects a dropped request the way fetch does', async () => {
    const sandbox = createSandbox({ guard: { allowedHosts: ['sandbox.test'] } });
    const post = (path: string, body: unknown) =>
      sandbox.fetch(new Request(`http://sandbox.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...merchant }, body: JSON.stringify(body) }));
    assert.equal((await post('/sandbox/faults', { path: '/v1/orders', count: 1, mode: 'drop' })).status, 200);
    await assert.rejects(post('/v1/orders', directOrderBody(gateways.push)), (error: unknown) => error instanceof TypeError && error.message === 'fetch failed');
    assert.equal(sandbox.state.orders.size, 0);
    await sandbox.close();
  });

  test('the Vite plugin drops the connection too', async () => {
    const { server, origin } = await startViteWithSandbox();
    try {
      const json = { 'content-type': 'application/json' };
      const added = await fetch(`${origin}/sandbox/faults`, { method: 'POST', headers: json, body: JSON.stringify({ path: '/v1/checkout/links/*', count: 1, mode: 'drop' }) });
      assert.equal(added.status, 200);
      await assert.rejects(fetch(`${origin}/v1/checkout/links/demo-fixed`), TypeError);
      assert.equal((await fetch(`${origin}/v1/checkout/links/demo-fixed`)).status, 200);
    } finally {
      await server.close();
    }
  });
});
