// Test helper: a real webhook receiver on 127.0.0.1 and an ephemeral port, scripted per request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** What the receiver does with the Nth request (0-based): answer, or hang without ever answering. */
export type ReceiverReply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<ReceivedDelivery[]>;
  /** Hung requests whose connection the sender has closed (it gave up, as it should). */
  readonly abandoned: number;
  close(): Promise<void>;
}

export async function startReceiver(reply: (index: number, request: ReceivedDelivery) => ReceiverReply = () => ({ status: 200 })): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  let abandoned = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedDelivery = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: performance.now(),
      };
      const index = received.push(request) - 1;
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = reply(index, request);
      if (answer === 'hang') {
        // Never answer: the sender must give up by itself. 'close' before a response means it hung up.
        res.once('close', () => abandoned++);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve: () => resolve(received) }));
    },
    get abandoned() {
      return abandoned;
    },
    close() {
      server.closeAllConnections(); // hanging requests included
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port that nothing listens on: bind one, note it, release it. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
