/**
 * A relay killed with SIGKILL in the middle of an attempt loses nothing: the notice waits in the shared outbox (Redis,
 * PostgreSQL), its lease runs out, and another relay on the same store sends it, with the same id. The shop's first
 * answer never comes (the process dies holding it); the second is a 200.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRelay, postgresOutbox, redisOutbox, type Outbox } from '../../src/server/relay/index.js';
import type { ServerEvent } from '../../src/server/events.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';
import { startRedis, stopChild, type TestRedis } from './redis-harness.js';

const child = fileURLToPath(new URL('./relay-crash-process.ts', import.meta.url));
let redis: TestRedis;
let db: TestPostgres;
const attempts: { id: string; response: ServerResponse }[] = [];
const shop = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  // The first attempt is held unanswered; any later one is taken.
  request.on('end', () => {
    attempts.push({ id: (JSON.parse(body) as { id: string }).id, response });
    if (attempts.length > 1) response.writeHead(200).end();
  });
});

before(async () => {
  shop.listen(0, '127.0.0.1');
  [redis, db] = await Promise.all([startRedis(), startPostgres(), once(shop, 'listening')]);
});
after(async () => {
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
  await Promise.all([redis?.stop(), db?.stop()]);
});

const stores: Record<string, () => [string, () => Outbox]> = {
  redis: () => [redis.url, () => redisOutbox({ url: redis.url })],
  postgres: () => [db.url, () => postgresOutbox({ url: db.url })],
};

for (const [kind, store] of Object.entries(stores)) {
  describe(`a relay on ${kind} killed mid-attempt`, () => {
    it('leaves the notice to another relay on the same store, which delivers it with the same id', async () => {
      attempts.length = 0;
      const [url, outbox] = store();
      const notifyUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`;
      const first = spawn(process.execPath, ['--import', 'tsx', child, kind, url, notifyUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      first.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const deadline = Date.now() + 30_000;
      while (attempts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(attempts.length, 1, `the first attempt reached the shop; the process said: ${out}`);
      const id = /recorded (\S+)/.exec(out)?.[1];
      assert.equal(attempts[0]!.id, id);
      await stopChild(first, 'SIGKILL');

      const events: ServerEvent[] = [];
      const relay = createRelay({ outbox: outbox(), notifyUrl, secrets: ['relay-crash-app-secret'], firstRetryMs: 100, pollMs: 50, emit: (e) => events.push(e) });
      relay.start();
      try {
        while (!events.some((e) => e.name === 'notice_delivered') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(attempts.map((a) => a.id), [id, id]);
        assert.deepEqual(await relay.list(), []);
      } finally {
        await relay.close();
      }
    });
  });
}
