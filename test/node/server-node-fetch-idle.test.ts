/**
 * The handler's pooled connections to the merchant API are not reused once the service may be closing them: a create
 * written on such a socket is reset after it was sent, so its outcome is in doubt and its claim is held for the lease
 * (the stuck claim of a PostgreSQL storm: `read ECONNRESET` 70 ms into creates sent after a 5 s lull).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { httpFetch, idleSocketMs, nodeFetch } from '../../src/server/node/fetch.js';

const servers: http.Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** A loopback server closing idle connections after `keepAliveTimeout` (0: never, and no Keep-Alive hint sent). */
async function service(keepAliveTimeout: number): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = http.createServer((_, res) => res.end('{}'));
  server.keepAliveTimeout = keepAliveTimeout;
  server.on('connection', () => (connections += 1));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`, connections: () => connections };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const post = (fetch: typeof globalThis.fetch, url: string) => fetch(url, { method: 'POST', body: '{}' }).then((r) => r.status);

// Both clients at once, each with its own services: the file takes the waits of one.
describe('both clients', { concurrency: true }, () => {
  for (const [name, ownFetch] of Object.entries({ nodeFetch, 'its node:http fallback': httpFetch })) {
    describe(`the handler's connection pool (${name})`, () => {
      it('reuses a connection while the service keeps it, and not in the last second before its Keep-Alive timeout', async () => {
        const fetch = ownFetch()!;
        const { url, connections } = await service(3_000);
        assert.equal(await post(fetch, url), 200);
        await sleep(100);
        assert.equal(await post(fetch, url), 200);
        assert.equal(connections(), 1, 'reused well within the hint');
        // 2.5 s idle: the service still holds it for 0.5 s, too close to its close to send a create on it.
        await sleep(2_500);
        assert.equal(await post(fetch, url), 200);
        assert.equal(connections(), 2, 'a new connection, not the one the service is about to close');
      });

      it(`without a Keep-Alive hint, drops a connection idle for ${idleSocketMs} ms`, async () => {
        const fetch = ownFetch()!;
        const { url, connections } = await service(0);
        assert.equal(await post(fetch, url), 200);
        await sleep(idleSocketMs + 500);
        assert.equal(await post(fetch, url), 200);
        assert.equal(connections(), 2);
      });
    });
  }
});
