/**
 * A shop's notify URL is not a way into the partner's network: loopback, private, link-local and metadata addresses
 * are refused at registration (by a real partner-mode serve on a real Redis), and at delivery the address the host
 * resolves to is checked inside the connection's own lookup, so a name that resolves to loopback later is never
 * connected to; a redirect is never followed. Local shops allowed, they are taken.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isPublicAddress, notifyUrlRefusal, postChecked } from '../../src/server/serve/partner/public-address.js';
import { parsePartnerServeSettings } from '../../src/server/serve/partner/settings.js';
import { startServeCommand as startServe, type RunningServeCommand as RunningServe } from '../../src/server/serve/index.js';
import { rawSettings } from '../../src/server/serve/settings.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let serve: RunningServe;

before(async () => {
  redis = await startRedis();
  const settings = parsePartnerServeSettings(
    rawSettings({
      PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
      PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
      PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
      PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64'),
      PAY_CHECKOUT_REDIS_URL: redis.url,
      // Never called: registering without a merchant key asks nothing of the service.
      PAY_CHECKOUT_BASE_URL: 'http://127.0.0.1:9/v1',
      PORT: '0',
      HOST: '127.0.0.1',
    }),
  );
  serve = await startServe(settings, { onEvent: () => {} });
});
after(async () => {
  await serve?.close();
  await redis?.stop();
});

const register = async (notifyUrl: string) => {
  const response = await fetch(`${serve.url}/v1/stores`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Tienda', notify_url: notifyUrl }) });
  return { status: response.status, json: (await response.json()) as { api_code?: string; validation_errors?: { field: string }[]; data?: { status: string } } };
};

describe('notify URLs of shops in partner mode', () => {
  it('refuses loopback, private, link-local, metadata and plain-http notify URLs at registration', async () => {
    for (const url of ['https://127.0.0.1/notify', 'https://localhost/notify', 'https://10.0.0.7/n', 'https://192.168.1.1/n', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/n', 'https://[::ffff:127.0.0.1]/n', 'https://[fd00:ec2::254]/n', 'http://93.184.216.34/n']) {
      const refused = await register(url);
      assert.equal(refused.status, 400, `${url}: ${JSON.stringify(refused.json)}`);
      assert.equal(refused.json.api_code, 'NOTIFY_URL_NOT_PUBLIC', url);
      assert.equal(refused.json.validation_errors?.[0]?.field, 'notify_url');
    }
    const taken = await register('https://93.184.216.34/notify');
    assert.equal(taken.status, 201, JSON.stringify(taken.json));
    assert.equal(taken.json.data?.status, 'pending');
  });

  it('tells public addresses from the others, IPv6 forms of IPv4 included', async () => {
    for (const address of ['93.184.216.34', '2606:4700:4700::1111', '8.8.8.8']) assert.equal(isPublicAddress(address), true, address);
    for (const address of ['127.0.0.1', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.0.1', '100.64.0.1', '169.254.169.254', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', 'not-an-ip']) {
      assert.equal(isPublicAddress(address), false, address);
    }
    assert.equal(await notifyUrlRefusal('http://127.0.0.1:8080/notify', { allowLocal: true }), undefined);
    assert.match((await notifyUrlRefusal('https://shop.example/notify', { allowLocal: false, lookup: ((_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) => cb(null, [{ address: '127.0.0.1', family: 4 }])) as never })) ?? '', /public address/);
  });

  it('never connects to a host that resolves to loopback at delivery time, and never follows a redirect', async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const port = (listener.address() as AddressInfo).port;
    // The name was public when the shop registered; now it resolves to this machine.
    const rebound = ((_host: string, _options: unknown, callback: (error: null, addresses: { address: string; family: number }[]) => void) => callback(null, [{ address: '127.0.0.1', family: 4 }])) as never;
    const result = await postChecked(`https://shop.example:${port}/notify`, { 'content-type': 'application/json' }, '{}', { allowLocal: false, lookup: rebound, timeoutMs: 2_000 });
    assert.equal(result.error, 'ADDRESS_NOT_PUBLIC');
    assert.equal(connections, 0);
    listener.close();

    let followed = 0;
    const redirecting = createHttpServer((request, response) => {
      if (request.url === '/elsewhere') followed += 1;
      response.writeHead(request.url === '/elsewhere' ? 200 : 307, { location: '/elsewhere' }).end();
    });
    redirecting.listen(0, '127.0.0.1');
    await once(redirecting, 'listening');
    const answered = await postChecked(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/notify`, {}, '{}', { allowLocal: true, timeoutMs: 2_000 });
    assert.equal(answered.status, 307);
    assert.equal(followed, 0);
    redirecting.closeAllConnections();
    redirecting.close();
  });
});
