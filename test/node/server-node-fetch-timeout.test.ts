/**
 * MerchantClient's timeout over the handler's own fetch (nodeFetch, and its node:http fallback) is a plain timer, no AbortController per call
 * (client/timed-send.ts): a service that answers late, or stops half-way through its body, still ends in the client's
 * TimeoutError within the timeout; a caller's own signal still aborts; an answer in time is read whole. And a URL
 * reaches the service as given (path, query, credentials), on a reused connection as on the first.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { AbortedError, MerchantClient, TimeoutError } from '../../src/client/index.js';
import { httpFetch, nodeFetch } from '../../src/server/node/fetch.js';

const order = { data: { id_order: 7, id_external: 'k', status: 'pending', total: 50000, currency: 'COP', purchase_date: '2026-03-02T15:00:00.000Z' } };
const servers: http.Server[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** `GET /v1/orders/7` answered after `delayMs`; `half`: headers and half the body at once, the rest never. */
async function service(delayMs: number, half = false): Promise<string> {
  const text = JSON.stringify(order);
  const server = http.createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    if (half) return void res.write(text.slice(0, 20));
    setTimeout(() => res.end(text), delayMs);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

for (const [name, ownFetch] of Object.entries({ nodeFetch, 'its node:http fallback': httpFetch })) {
  const client = (baseUrl: string, timeoutMs: number) => new MerchantClient({ merchantKey: 'mk_test_demo', baseUrl, fetch: ownFetch()!, timeoutMs });

  describe(`MerchantClient's timeout over ${name}`, () => {
    it('an answer in time is read whole', async () => {
      const found = await client(await service(10), 1_000).getOrder(7);
      assert.equal(found.id_order, 7);
    });

    it('a late answer is a TimeoutError, within the timeout', async () => {
      const started = performance.now();
      await assert.rejects(client(await service(2_000), 200).getOrder(7), TimeoutError);
      const took = performance.now() - started;
      assert.ok(took >= 190 && took < 1_500, `${took} ms`);
    });

    it('a body that stops half-way is a TimeoutError', async () => {
      await assert.rejects(client(await service(0, true), 200).getOrder(7), TimeoutError);
    });

    it("a caller's own signal still aborts", async () => {
      const controller = new AbortController();
      const pending = client(await service(2_000), 5_000).getOrder(7, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(pending, AbortedError);
    });

    it('a URL reaches the service as given, path, query and credentials, every time', async () => {
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.host} ${req.headers.authorization ?? '-'}`);
        res.end('{}');
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const { port } = server.address() as AddressInfo;
      const fetch = ownFetch()!;
      const url = `http://us%40er:p%3Ass@127.0.0.1:${port}/v1/orders/a%20b/../c?wait=25&since=pending`;
      for (let i = 0; i < 2; i++) assert.equal((await fetch(url, { method: 'POST', body: '{}' })).status, 200);
      const expected = `POST /v1/orders/c?wait=25&since=pending 127.0.0.1:${port} Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
      assert.deepEqual(seen, [expected, expected]);
    });
  });
}
