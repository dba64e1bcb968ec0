/**
 * The handler's abuse limits and bot check over real sockets against the sandbox: what a refusal looks
 * like, that it comes before the service is called, how limits are changed or turned off, the client address
 * (socket, trustProxy, clientAddress), the Redis counters, and examples/server-bot-check.ts as a merchant runs it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { addressKey, clientAddressOf } from '../../src/server/http/client-address.js';
import { defaultLimits, memoryClaimStore, memoryLimitStore, type BotCheckInput, type CheckoutHandlerOptions } from '../../src/server/index.js';
import { redisLimitStore } from '../../src/server/redis/limits.js';
import { statusWaits } from '../../src/server/buyer/status-wait.js';
import { orderChannel } from '../../src/server/once/exactly-once.js';
import type { CheckoutOrder } from '../../src/contract/index.js';
import { postOrder, pushOrderBody, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let sandbox: RunningSandbox;
/** Calls that reached the service, by method and path. */
const serviceCalls: string[] = [];
const counting: typeof fetch = (input, init) => {
  serviceCalls.push(`${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : String(input)).pathname}`);
  return fetch(input, init);
};
const creates = () => serviceCalls.filter((call) => call === 'POST /v1/orders').length;

before(async () => {
  sandbox = await startSandbox({ port: 0, defaultReceiver: false });
});
after(() => sandbox?.close());

async function withHandler(options: Partial<CheckoutHandlerOptions>, run: (handler: RunningHandler) => Promise<void>): Promise<void> {
  const handler = await serveHandler({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink: resolveHandlerLink, fetch: counting, ...options });
  try {
    await run(handler);
  } finally {
    await handler.close();
  }
}

const withPhone = (phone: string, document = '1020304050') => ({ ...pushOrderBody, shopper: { ...pushOrderBody.shopper, phone_number: phone, id_number: document } });
let keys = 0;
const key = () => `limits-${process.pid}-${++keys}`;

describe('limits: a refusal', () => {
  it('is a 429 LIMIT_REACHED with Retry-After, before the service is called; a replay of a counted key still answers', async () => {
    await withHandler({ limits: { ordersPerPhone: { max: 2, windowMs: 60_000 } } }, async (handler) => {
      const first = key();
      assert.equal((await postOrder(handler.url, first, withPhone('3201110001', '1111'))).status, 201);
      assert.equal((await postOrder(handler.url, key(), withPhone('3201110001', '2222'))).status, 201);
      const before = creates();
      const refused = await postOrder(handler.url, key(), withPhone('+573201110001', '3333'));
      assert.equal(refused.status, 429);
      assert.equal(refused.body.api_code, 'LIMIT_REACHED');
      assert.equal(refused.body.code, 3017);
      assert.equal(refused.body.error, true);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(creates(), before, 'the refused create never reached the service');
      const replay = await postOrder(handler.url, first, withPhone('3201110001', '1111'));
      assert.equal(replay.status, 200, 'a replay of the same key and body is answered, not counted');
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    });
  });

  it('limits SMS codes per order, lookups and cancels per address; `limits: false` turns everything off', async () => {
    const small = { max: 2, windowMs: 60_000 };
    await withHandler({ limits: { codesPerOrder: small, lookupsPerAddress: { max: 3, windowMs: 60_000 }, cancelsPerAddress: small } }, async (handler) => {
      const otp = await postOrder(handler.url, key(), { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '5550001', id_type: 1 } });
      assert.equal(otp.status, 201, JSON.stringify(otp.body));
      const order = { id: otp.body.data.id_order as number, token: otp.body.data.order_token as string };
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${handler.url}/v1/checkout/orders/${order.id}${path}`, {
          method,
          headers: { 'X-Order-Token': order.token, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const codes = [];
      for (let n = 0; n < 3; n++) codes.push((await call('POST', '/otp', { daviplata_otp: '999999' })).status);
      assert.deepEqual(codes, [400, 400, 429]);
      const lookups = [];
      for (let n = 0; n < 4; n++) lookups.push((await call('GET', '')).status);
      assert.deepEqual(lookups, [200, 200, 200, 429]);
      const cancels = [];
      for (let n = 0; n < 3; n++) cancels.push((await call('POST', '/cancel')).status);
      assert.equal(cancels[2], 429, JSON.stringify(cancels));
    });
    await withHandler({ limits: false }, async (handler) => {
      const statuses = [];
      for (let n = 0; n < defaultLimits.ordersPerPhone.max + 2; n++) statuses.push((await postOrder(handler.url, key(), withPhone('3201110002'))).status);
      assert.ok(statuses.every((s) => s === 201), JSON.stringify(statuses));
    });
  });

  it('refuses a limit that makes no sense at startup', async () => {
    await assert.rejects(withHandler({ limits: { ordersPerPhone: { max: 0, windowMs: 60_000 } } }, async () => {}), /limits\.ordersPerPhone/);
  });
});

describe('limits: the client address', () => {
  const request = (headers: Record<string, string> = {}) => new Request('http://shop.example/v1/checkout/links/x', { headers });
  it('reads X-Forwarded-For only as far as trustProxy says, and clientAddress() wins', () => {
    const forwarded = request({ 'x-forwarded-for': '198.51.100.7, 203.0.113.9' });
    assert.equal(clientAddressOf(forwarded, {}), undefined, 'no socket, no trust: unknown (never the header)');
    assert.equal(clientAddressOf(forwarded, { trustProxy: 1 }), '198.51.100.7');
    assert.equal(clientAddressOf(forwarded, { trustProxy: 2 }), '198.51.100.7');
    assert.equal(clientAddressOf(request({ 'x-forwarded-for': '10.0.0.1, 198.51.100.7' }), { trustProxy: 1 }), '10.0.0.1');
    assert.equal(clientAddressOf(forwarded, { trustProxy: 1, clientAddress: () => '192.0.2.1' }), '192.0.2.1');
  });
  it('counts IPv6 per /64 and IPv4 mapped into IPv6 as IPv4', () => {
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2::9'), addressKey('2001:db8:1:2:ffff::1'));
    assert.equal(addressKey('::ffff:127.0.0.5'), '127.0.0.5');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
  });
  it('over sockets: each loopback address has its own count', async () => {
    await withHandler({ limits: { ordersPerAddress: { max: 1, windowMs: 60_000 } } }, async (handler) => {
      const { request: httpRequest } = await import('node:http');
      const from = (localAddress: string, phone: string) =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify(withPhone(phone, phone));
          const req = httpRequest(`${handler.url}/v1/checkout/links/camiseta-m/orders`, {
            method: 'POST',
            localAddress,
            agent: false,
            headers: { 'content-type': 'application/json', 'Idempotency-Key': key() },
          }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end(body);
        });
      assert.equal(await from('127.0.0.21', '3201110021'), 201);
      assert.equal(await from('127.0.0.21', '3201110022'), 429);
      assert.equal(await from('127.0.0.22', '3201110023'), 201);
    });
  });
});

describe('bot check', () => {
  it('is asked before a new order with the page token; false or a throw refuses with 403 before the service; a replay is not asked again', async () => {
    const asked: BotCheckInput[] = [];
    const botCheck = (input: BotCheckInput) => {
      asked.push(input);
      if (input.token === 'boom') throw new Error('verifier down');
      return input.token === 'human';
    };
    await withHandler({ botCheck, clientAddress: () => '198.51.100.20' }, async (handler) => {
      const send = (token: string | undefined, idempotencyKey = key()) =>
        fetch(`${handler.url}/v1/checkout/links/camiseta-m/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey, ...(token ? { 'X-Bot-Check': token } : {}) },
          body: JSON.stringify(withPhone('3201110030', '3030')),
        });
      const before = creates();
      for (const token of [undefined, 'robot', 'boom']) {
        const refused = await send(token);
        assert.equal(refused.status, 403);
        assert.equal(((await refused.json()) as { api_code: string }).api_code, 'BOT_CHECK_FAILED');
      }
      assert.equal(creates(), before, 'no refused order reached the service');
      const same = key();
      assert.equal((await send('human', same)).status, 201);
      assert.deepEqual(asked.map((a) => [a.token, a.hash, a.clientAddress]), [
        [null, 'camiseta-m', '198.51.100.20'],
        ['robot', 'camiseta-m', '198.51.100.20'],
        ['boom', 'camiseta-m', '198.51.100.20'],
        ['human', 'camiseta-m', '198.51.100.20'],
      ]);
      // A replay (a spent single-use token) is answered from the claim, never verified again.
      assert.equal((await send('human', same)).status, 200);
      assert.equal(asked.length, 4);
    });
  });

  it('the CORS preflight lets a page on another origin send X-Bot-Check', async () => {
    await withHandler({ allowedOrigins: ['https://shop.example'] }, async (handler) => {
      const preflight = await fetch(`${handler.url}/v1/checkout/links/camiseta-m/orders`, { method: 'OPTIONS', headers: { origin: 'https://shop.example' } });
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Bot-Check/);
    });
  });

  it('examples/server-bot-check.ts: no token or a spent one is refused, a fresh token orders', async () => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'examples/server-bot-check.ts'], {
      cwd: root,
      env: { ...process.env, MERCHANT_KEY: 'mk_test_demo', SANDBOX_URL: sandbox.url, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`the example did not start: ${out}`)), 60_000);
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = /Buyer API on (http:\/\/\S+)\/v1/.exec(out)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(found);
          }
        });
      });
      const order = (token?: string) =>
        fetch(`${url}/v1/checkout/links/camiseta-m/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'Idempotency-Key': key(), ...(token ? { 'X-Bot-Check': token } : {}) },
          body: JSON.stringify(withPhone('3201110040', '4040')),
        });
      assert.equal((await order()).status, 403);
      const { token } = (await (await fetch(`${url}/demo/bot-token`)).json()) as { token: string };
      assert.equal((await order(token)).status, 201);
      assert.equal((await order(token)).status, 403, 'a token is good for one order');
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('limit stores', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());

  it('memory and Redis count alike: within the limit 0, past it the wait; Redis keys expire with their window', async () => {
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      for (const store of [memoryLimitStore(), redisLimitStore({ client })]) {
        const hit = { name: 'ordersPerPhone' as const, key: `k-${keys++}`, limit: { max: 2, windowMs: 30_000 } };
        assert.equal(await store.hit([hit]), 0);
        assert.equal(await store.hit([hit, { ...hit, name: 'ordersPerDocument', key: 'other' }]), 0);
        const wait = await store.hit([hit]);
        assert.ok(wait > 25_000 && wait <= 30_000, `wait ${wait}`);
      }
      const counters = await client.keys('pay-checkout:limit:*');
      assert.ok(counters.length >= 2);
      for (const counter of counters) {
        const ttl = await client.pTTL(counter);
        assert.ok(ttl > 0 && ttl <= 30_000, `${counter}: pttl ${ttl}`);
      }
    } finally {
      await client.close();
    }
  });
});

describe('waiting status requests: one watch per order, caps', () => {
  const order = (status: CheckoutOrder['status']) => ({ id_order: 7, status }) as CheckoutOrder;
  const waitFor = { seconds: 2, since: 'processing' as const };

  it('waiters on one order share one read per interval and one wake-up; past a cap, answered at once without waiting', async () => {
    const store = memoryClaimStore();
    let reads = 0;
    let status: CheckoutOrder['status'] = 'processing';
    const read = async () => {
      reads++;
      return order(status);
    };
    const waits = statusWaits({ store, pollMs: 200, caps: { perOrder: 3, perAddress: 2, perInstance: 4 } });
    const a = waits.wait(7, read, waitFor, undefined, 'a');
    const b = waits.wait(7, read, waitFor, undefined, 'a');
    const overAddress = await waits.wait(7, read, waitFor, undefined, 'a');
    assert.equal(overAddress.waited, false, 'the third from one address is answered at once');
    const c = waits.wait(7, read, waitFor, undefined, 'b');
    const overOrder = await waits.wait(7, read, waitFor, undefined, 'c');
    assert.equal(overOrder.waited, false, 'the fourth on one order is answered at once');
    const other = waits.wait(8, read, waitFor, undefined, 'd');
    const overInstance = await waits.wait(9, read, waitFor, undefined, 'e');
    assert.equal(overInstance.waited, false, 'the fifth on the instance is answered at once');
    assert.equal(waits.waiting, 4);
    await new Promise((resolve) => setTimeout(resolve, 450));
    // Order 7: one read to start, then one per 200 ms; order 8 the same; order 9 one read (over the cap).
    assert.ok(reads <= 2 * 4 + 1, `${reads} reads`);
    status = 'confirmed';
    const before = reads;
    await store.publish(orderChannel(7), 'confirmed');
    const answers = await Promise.all([a, b, c]);
    assert.deepEqual(answers.map((x) => [x.order.status, x.waited]), [['confirmed', true], ['confirmed', true], ['confirmed', true]]);
    assert.ok(reads - before <= 2, 'one wake-up, one read for every waiter (plus order 8 polling meanwhile)');
    assert.equal((await other).order.status, 'confirmed');
    assert.equal(waits.waiting, 0);
  });

  it('a waiter that leaves is answered with the last read; a first read that fails fails its waiters', async () => {
    const waits = statusWaits({ store: memoryClaimStore(), pollMs: 100, caps: { perOrder: 10, perAddress: 10, perInstance: 10 } });
    const leaving = new AbortController();
    const waiting = waits.wait(3, async () => order('processing'), waitFor, leaving.signal, 'a');
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaving.abort();
    assert.deepEqual((await waiting).order.status, 'processing');
    await assert.rejects(waits.wait(4, async () => Promise.reject(new Error('service down')), waitFor, undefined, 'a'), /service down/);
    assert.equal(waits.waiting, 0);
  });
});
