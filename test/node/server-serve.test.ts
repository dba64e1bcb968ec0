// serve(): the handler on bare Node holds against slow and greedy clients, on loopback with real sockets. Slow headers
// (slowloris) and a slow body are cut off by their timeouts; hundreds of sockets from one address beyond its cap are
// closed at once while a buyer from another address is answered; a buyer who aborts mid-body is not logged as an error.
// Timeouts are shortened so the test takes seconds; the defaults are in docs/site/servers/node.md.
import assert from 'node:assert/strict';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCheckoutHandler, serve, type RunningNodeServer } from '../../src/server/index.js';
import { resolveHandlerLink } from './handler-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

let sb: TestSandbox;
let running: RunningNodeServer;
const errors: unknown[] = [];
const port = () => Number(new URL(running.url).port);

before(async () => {
  sb = await startTestSandbox();
  const handler = createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: `${sb.origin}/v1`, resolveLink: resolveHandlerLink, onError: (e) => errors.push(e) });
  running = await serve(handler, {
    port: 0,
    host: '127.0.0.1',
    headersTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    maxConnectionsPerAddress: 20,
    onError: (e) => errors.push(e),
  });
});
after(async () => {
  await running.close();
  await sb.close();
});

/** A raw socket from a given loopback address; resolves once connected. */
function open(localAddress = '127.0.0.1'): Promise<Socket & { closedAt: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: port(), localAddress }) as Socket & { closedAt: Promise<number> };
    socket.closedAt = new Promise((done) => socket.once('close', () => done(performance.now())));
    socket.on('error', () => {});
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A buyer's request from `localAddress`, over its own connection. */
async function buyer(localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const socket = await open(localAddress);
  socket.write(`GET /v1/checkout/links/camiseta-m HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nConnection: close\r\n\r\n`);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  await socket.closedAt;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), ms: performance.now() - started };
}

const drip = (socket: Socket, text: string, everyMs: number) => {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++] ?? '');
  }, everyMs);
  return () => clearInterval(timer);
};

describe('serve(): a Node server that holds', () => {
  it('cuts off headers sent a byte at a time (slowloris) after the header timeout', async () => {
    const socket = await open();
    const started = performance.now();
    const stop = drip(socket, `GET /v1/checkout/links/camiseta-m HTTP/1.1\r\nHost: x\r\n${'X-Slow: y\r\n'.repeat(50)}\r\n`, 100);
    const closed = await socket.closedAt;
    stop();
    const ms = closed - started;
    assert.ok(ms >= 900 && ms < 4_000, `closed after ${ms.toFixed(0)} ms`);
  });

  it('cuts off a body sent a byte at a time after the request timeout', async () => {
    const socket = await open();
    const started = performance.now();
    socket.write(`POST /v1/checkout/links/camiseta-m/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: slow-body\r\nContent-Length: 400\r\n\r\n`);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const stop = drip(socket, '{"payment_gateway":{"id_payment_gateway":1}'.padEnd(400, ' '), 100);
    const closed = await socket.closedAt;
    stop();
    const ms = closed - started;
    assert.ok(ms >= 1_900 && ms < 6_000, `closed after ${ms.toFixed(0)} ms`);
    assert.doesNotMatch(text, /^HTTP\/1\.1 20/, 'no order made from a body that never arrived');
  });

  it('closes sockets from one address beyond its cap at once; a buyer from another address is answered', async (t) => {
    // The server's accepts, counted: it cannot close a connection it has not taken yet. On a busy machine this process
    // (client and server both) may take a second or more to accept 200 connections the kernel completed at once.
    let accepted = 0;
    const count = () => void (accepted += 1);
    running.server.prependListener('connection', count);
    const greedy = await Promise.all(Array.from({ length: 200 }, () => open('127.0.0.2').catch(() => null)));
    const sockets = greedy.filter((s): s is NonNullable<typeof s> => s !== null);
    // A socket the server reset before this process saw it connect failed to open: it was closed at once too.
    const resetBeforeOpen = greedy.length - sockets.length;
    while (accepted < greedy.length) await new Promise((r) => setTimeout(r, 10));
    running.server.off('connection', count);
    // Held without a byte; those past the cap and its few answered ones (8) are closed by the server as it accepts
    // them, the answered ones after 1 s, the rest later still: looked at within 950 ms of the last accept. The look
    // waits for the closes already pending when its timer fires (a close is seen in the loop's last phase, after I/O
    // and setImmediate), so a stalled process does not run the timer before resets that came in time.
    const deadline = new Promise((r) => setTimeout(() => setImmediate(() => setImmediate(() => r(false))), 950));
    const quickly = await Promise.all(sockets.map((s) => Promise.race([s.closedAt.then(() => true), deadline])));
    const closed = quickly.filter(Boolean).length + resetBeforeOpen;
    t.diagnostic(`${closed} of ${greedy.length} closed at once (${resetBeforeOpen} reset before they opened)`);
    assert.ok(closed >= 160, `${closed} of ${greedy.length} closed at once (${resetBeforeOpen} reset before they opened)`);
    const answered = await buyer('127.0.0.3');
    assert.equal(answered.status, 200);
    assert.ok(answered.ms < 2_000, `answered in ${answered.ms.toFixed(0)} ms`);
    for (const s of sockets) s.destroy();
  });

  it('tells a client at its cap to come back (503, Retry-After) rather than reset it; idle keep-alive connections count', async () => {
    // 20 keep-alive connections from one address, each answered and now idle: the cap's worth.
    const agent = new Agent({ keepAlive: true, maxSockets: 20, localAddress: '127.0.0.5' });
    const health = () =>
      new Promise<number>((resolve, reject) => {
        get(`${running.url}/v1/health`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0))).on('error', reject);
      });
    assert.deepEqual(new Set(await Promise.all(Array.from({ length: 20 }, health))), new Set([200]));
    assert.equal(Object.values(agent.freeSockets).flat().length, 20, 'every connection idle, kept alive');
    // One more connection from that address: answered, not reset.
    const socket = await open('127.0.0.5');
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\n\r\n`);
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    await socket.closedAt;
    assert.match(text, /^HTTP\/1\.1 503 /);
    assert.match(text, /\r\nretry-after: 1\r\n/i);
    assert.match(text, /"api_code":"SERVICE_UNAVAILABLE"/);
    // Once the client lets its idle connections go, it is answered again.
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await buyer('127.0.0.5')).status, 200);
  });

  it('does not log a buyer who aborts mid-body as an error, and keeps answering', async () => {
    errors.length = 0;
    for (let i = 0; i < 5; i++) {
      const socket = await open();
      socket.write(`POST /v1/checkout/links/camiseta-m/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: gone-${i}\r\nContent-Length: 500\r\n\r\n{"payment_gateway":`);
      await new Promise((r) => setTimeout(r, 50));
      socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(errors, []);
    assert.equal((await buyer('127.0.0.1')).status, 200);
  });
});
