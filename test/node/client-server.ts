import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake service saw. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  contentType?: string;
  /** Never answer (to exercise timeouts). */
  hang?: boolean;
}

/** A real HTTP server on 127.0.0.1, an ephemeral port, answering from a script of routes. */
export class FakeService {
  readonly received: ReceivedRequest[] = [];
  readonly #routes = new Map<string, Reply>();
  #server: Server | undefined;
  baseUrl = '';

  /** `on('GET /v1/orders/1', {...})`; the query string is ignored when matching. */
  on(route: string, reply: Reply): this {
    this.#routes.set(route, reply);
    return this;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = req.url ?? '/';
        this.received.push({ method: req.method ?? '', url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const reply = this.#routes.get(`${req.method} ${url.split('?')[0]}`) ?? {
          status: 404,
          body: { code: 3014, api_code: 'NOT_FOUND', message: 'No such endpoint.', error: true },
        };
        if (reply.hang) return;
        const text = typeof reply.body === 'string' || reply.body === undefined ? (reply.body ?? '') : JSON.stringify(reply.body);
        const type = reply.contentType ?? (typeof reply.body === 'string' ? 'text/html' : 'application/json');
        res.writeHead(reply.status ?? 200, text ? { 'Content-Type': type } : {}).end(text);
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
    return this;
  }

  /** The one request received; fails loudly if there were more or fewer. */
  only(): ReceivedRequest {
    if (this.received.length !== 1) throw new Error(`expected 1 request, got ${this.received.length}`);
    return this.received[0] as ReceivedRequest;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
