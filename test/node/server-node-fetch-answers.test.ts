/**
 * The handler's own fetch (nodeFetch, over undici's dispatcher, and its node:http fallback) reads the service's answer
 * as the global fetch does, whatever way it arrives:
 * its headers (repeated names, any case, iterated, copied into a Response) give what a real Headers gives, and a body
 * that comes in one read, in pieces, chunked or empty is read whole. A real loopback server, compared with undici's fetch.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpFetch, nodeFetch } from '../../src/server/node/fetch.js';

const body = JSON.stringify({ data: { id_order: 7, status: 'pending', note: 'ñandú '.repeat(50) } });
const bytes = Buffer.from(body);
const head = (extra: string) =>
  `HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nIdempotent-Replayed: true\r\nX-Dup: one\r\nx-dup: two\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n${extra}\r\n`;

/** Each path answers in its own way, written by hand on the socket. */
const ways: Record<string, (socket: net.Socket) => void> = {
  '/whole': (socket) => socket.write(head(`Content-Length: ${bytes.length}\r\n`) + body),
  '/pieces': (socket) => {
    socket.write(head(`Content-Length: ${bytes.length}\r\n`) + body.slice(0, 10));
    setTimeout(() => socket.write(bytes.subarray(Buffer.byteLength(body.slice(0, 10)), 200)), 30);
    setTimeout(() => socket.write(bytes.subarray(200)), 60);
  },
  '/chunked': (socket) => {
    socket.write(head('Transfer-Encoding: chunked\r\n'));
    const half = bytes.length >> 1;
    setTimeout(() => socket.write(`${half.toString(16)}\r\n`), 10);
    setTimeout(() => socket.write(Buffer.concat([bytes.subarray(0, half), Buffer.from(`\r\n${(bytes.length - half).toString(16)}\r\n`), bytes.subarray(half), Buffer.from('\r\n0\r\n\r\n')])), 40);
  },
  '/empty': (socket) => socket.write(head('Content-Length: 0\r\n')),
};

let server: net.Server;
let origin = '';
before(async () => {
  server = net.createServer((socket) => {
    let seen = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      // One request at a time per connection: answer each once its head and (tiny) body are in.
      for (let end = seen.indexOf('\r\n\r\n'); end >= 0; end = seen.indexOf('\r\n\r\n')) {
        const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, end))?.[1] ?? 0);
        if (seen.length < end + 4 + length) return;
        const path = seen.split(' ')[1] ?? '';
        seen = seen.slice(end + 4 + length);
        ways[path]?.(socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
after(() => server.close());

for (const [name, ownFetch] of Object.entries({ nodeFetch: nodeFetch()!, 'its node:http fallback': httpFetch()! })) {
  describe(`${name} reads the service's answers as fetch does`, () => {
    for (const path of Object.keys(ways)) {
      it(`a body ${path.slice(1)} is read whole, twice over one connection`, async () => {
        for (let i = 0; i < 2; i++) {
          const answer = await ownFetch(origin + path, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
          assert.equal(answer.status, 201);
          assert.equal(answer.statusText, 'Created');
          assert.equal(await answer.text(), path === '/empty' ? '' : body);
        }
      });
    }

    it('its headers give what a Headers gives: repeated names joined, any case, iterated, copied', async () => {
      const read = async (fetcher: typeof globalThis.fetch) => {
        const { headers } = await fetcher(`${origin}/whole`, { method: 'GET' });
        const forEach: string[] = [];
        headers.forEach((value, name) => forEach.push(`${name}=${value}`));
        return {
          get: ['x-dup', 'X-DUP', 'idempotent-replayed', 'set-cookie', 'retry-after'].map((name) => headers.get(name)),
          has: ['X-Dup', 'nope'].map((name) => headers.has(name)),
          entries: [...headers].filter(([name]) => name !== 'date' && name !== 'connection' && name !== 'keep-alive'),
          forEach: forEach.filter((entry) => !/^(date|connection|keep-alive)=/.test(entry)),
          setCookies: headers.getSetCookie(),
          copied: new Response('x', { headers }).headers.get('x-dup'),
        };
      };
      const ours = await read(ownFetch);
      assert.deepEqual(ours, await read(globalThis.fetch));
      assert.deepEqual(ours.get, ['one, two', 'one, two', 'true', 'a=1, b=2', null]);
    });
  });
}
