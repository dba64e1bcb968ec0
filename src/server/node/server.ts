/**
 * Node `http` adapter: IncomingMessage → Request, Response → ServerResponse, or for createCheckoutHandler()'s own
 * handlers no Request and Response at all (native.ts). Type-only Node imports,
 * so importing `pay-checkout/server` stays safe on edge runtimes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorBody } from '../../contract/errors.js';
import { rememberSocketAddress } from '../http/client-address.js';
import { nativeEntryOf } from '../http/incoming.js';
import { answerFailure, nativeListener, webRequest } from './native.js';
import { unreadText } from '../http/text-response.js';
import { errorFields, safeSink, type EventSink } from '../events.js';
import type { DrainableCheckoutHandler } from '../options.js';

export interface NodeListenerOptions {
  /** Unexpected adapter failures; default an `adapter_error` event. */
  onError?: (error: unknown) => void;
  /** The adapter's and serve()'s events (`adapter_error`, `shutdown_started`, …); default one console line each. */
  onEvent?: EventSink;
}

type Handler = (request: Request) => Promise<Response>;

/** Streams the request body on demand, so the handler's 100 KB limit stops reading early. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = req[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = (await chunks.next()) as IteratorResult<Buffer>;
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    },
    cancel() {
      // Not destroyed: the socket still has to carry the 413; Node discards the rest of the body.
      req.pause();
    },
  });
}

export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  return webRequest(req, signal, bodyStream(req));
}

export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  // An unread request body (a refused upload) must not be read into the next request on this socket.
  if (response.status === 413) headers.connection = 'close';
  const text = unreadText(response);
  if (text !== undefined) {
    if (!('content-length' in headers)) headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  // A whole body in one chunk (every JSON answer) goes out as one write with its length, not chunked.
  if (second.done) {
    if (!('content-length' in headers)) headers['content-length'] = String(first.value?.byteLength ?? 0);
    res.writeHead(response.status, headers);
    res.end(first.value);
    return;
  }
  res.writeHead(response.status, headers);
  const write = async (value: Uint8Array) => {
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
  };
  if (first.value) await write(first.value);
  await write(second.value);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    await write(value);
  }
  res.end();
}

/** `http.createServer(toNodeListener(handler))`. */
export function toNodeListener(handler: Handler, options: NodeListenerOptions = {}) {
  const sink = safeSink(options.onEvent);
  const onError = options.onError ?? ((error: unknown) => sink({ level: 'error', name: 'adapter_error', message: 'node adapter error', error: errorFields(error) }));
  // A handler from createCheckoutHandler() is served without a Request and a Response (native.ts); any other
  // (a merchant's wrapper, another framework's handler) through them.
  const native = nativeEntryOf(handler);
  if (native) return nativeListener(native, onError);
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Aborted when the client goes away before the answer is written, so a waiting status request stops waiting.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    // A body cut off mid-way errors the request first: mark it gone before the handler sees the read fail.
    req.on('error', () => gone.abort());
    void (async () => {
      try {
        const request = toRequest(req, gone.signal);
        rememberSocketAddress(request, req.socket.remoteAddress);
        await writeResponse(await handler(request), res);
      } catch (error) {
        answerFailure(error, gone.signal.aborted || req.destroyed, res, onError);
      }
    })();
  };
}

export interface ServeOptions extends NodeListenerOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Interface to listen on; default every interface, as `server.listen()` does. */
  host?: string;
  /** The whole header block must arrive within this; default 10 s (slowloris headers). */
  headersTimeoutMs?: number;
  /** The whole request, headers and body, must arrive within this; default 30 s (a body sent a byte at a time). */
  requestTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this; default 5 s. */
  keepAliveTimeoutMs?: number;
  /** A socket with no traffic either way is closed after this; default 60 s (above the 25 s of a waiting status request). */
  idleTimeoutMs?: number;
  /** Open connections in all; more are closed at once. Default 512: well under the usual `ulimit -n` of 1024. */
  maxConnections?: number;
  /** On `close()`: how long requests under way (creates at the service) may take to finish; default 10,000 ms. */
  graceMs?: number;
  /**
   * On `close()`: how long it still accepts connections (and answers as usual) after `/health/ready` turned 503, so a
   * load balancer probing readiness stops sending to it before its socket closes; default 0. Behind Kubernetes or a
   * load balancer, a little over two probe intervals (servers/operating.md).
   */
  acceptForMs?: number;
  /**
   * Open connections from one client address; more are closed at once, so one client cannot take every slot. Default 32;
   * behind a proxy or load balancer every connection comes from it: set `Infinity` there (the proxy holds slow clients).
   */
  maxConnectionsPerAddress?: number;
}

export interface RunningNodeServer {
  server: Server;
  /** `http://HOST:PORT` as bound. */
  url: string;
  /**
   * A graceful shutdown: stops accepting connections; answers every waiting status request at once with the current
   * status; lets the requests under way (creates at the service) finish within `graceMs`, each answer closing its
   * connection; then closes every connection. `{ graceMs: 0 }` closes at once.
   */
  close(options?: { graceMs?: number; acceptForMs?: number }): Promise<void>;
}

export const defaultServeOptions = {
  port: 3000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 32,
  graceMs: 10_000,
  acceptForMs: 0,
} as const;

/**
 * The handler on a bare Node `http` server that holds against slow and greedy clients: header, body, keep-alive and
 * idle timeouts, and connection caps in all and per client address. Resolves once it listens.
 */
export async function serve(handler: Handler, options: ServeOptions = {}): Promise<RunningNodeServer> {
  const o = { ...defaultServeOptions, ...options };
  // Imported here, not at the top: `pay-checkout/server` must load on edge runtimes, which have no node:http.
  const { createServer } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:http');
  const listener = toNodeListener(handler, options);
  const open = new Set<ServerResponse>();
  /** Connections taken whose first request has not come yet: at a shutdown they are answered, not reset. */
  const fresh = new Set<Socket>();
  let closing = false;
  let allAnswered: (() => void) | undefined;
  const server = createServer(
    {
      headersTimeout: o.headersTimeoutMs,
      requestTimeout: o.requestTimeoutMs,
      keepAliveTimeout: o.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (default 30 s, which would let a slow client hold longer).
      connectionsCheckingInterval: Math.max(250, Math.min(1_000, o.headersTimeoutMs / 4)),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      fresh.delete(req.socket);
      // A connection just past its address's cap: told to come back, not reset (capPerAddress).
      if (overCap.has(req.socket)) return void tooManyConnections(res);
      // Every answer under way is tracked, so close() can wait for them; during a shutdown each closes its connection.
      open.add(res);
      if (closing) res.setHeader('connection', 'close');
      res.once('close', () => {
        open.delete(res);
        if (open.size === 0) allAnswered?.();
      });
      listener(req, res);
    },
  );
  server.maxConnections = o.maxConnections;
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    fresh.add(socket);
    socket.once('close', () => fresh.delete(socket));
  });
  server.setTimeout(o.idleTimeoutMs, (socket: Socket) => socket.destroy());
  const overCap = capPerAddress(server, o.maxConnectionsPerAddress, Math.min(o.headersTimeoutMs, overCapWaitMs));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const drain = (handler as Partial<DrainableCheckoutHandler>).drain;
  let closed: Promise<void> | undefined;
  const close = async (graceMs: number, acceptForMs: number) => {
    closing = true;
    const drained = drain?.call(handler, { graceMs, acceptForMs });
    if (acceptForMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptForMs));
    // Stops listening without http.Server#close()'s closing of idle connections at once: a connection just accepted,
    // its request not read yet, counts as idle there, and would be reset; each is answered and closed instead.
    const stopListening = (Object.getPrototypeOf(Object.getPrototypeOf(server)) as { close(this: Server, done: () => void): void }).close;
    // Connections the kernel completed and this process has not taken yet would be reset by closing the listener: a
    // busy process takes them a loop turn late. Those waiting now are taken first (setImmediate runs after the I/O).
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = new Promise<void>((resolve) => stopListening.call(server, () => resolve()));
    const graceEnd = Date.now() + graceMs;
    // Answers not yet started say `Connection: close`, so a client (or proxy) sends nothing more on them.
    for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
    const answered = open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allAnswered = resolve));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all([drained, answered]), grace]);
    clearTimeout(timer);
    // A connection taken whose request has not been read yet (a busy process reads it a turn or more later) is given
    // a moment for it, which is answered with `Connection: close`; closing every connection now would reset it.
    for (const until = Math.min(graceEnd, Date.now() + freshWaitMs); (fresh.size > 0 || open.size > 0) && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    server.closeAllConnections();
    // http.Server#close() now: it also stops the timeouts' checking interval (the listener is closed already).
    server.close(() => {});
    await stopped;
  };
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: (closeOptions = {}) => (closed ??= close(closeOptions.graceMs ?? o.graceMs, closeOptions.acceptForMs ?? o.acceptForMs)),
  };
}

/**
 * Connections past an address's cap that are answered rather than reset: a client at the cap (a pool a little
 * larger than 32, or one whose idle keep-alive connections still count) learns to wait. Past these, reset at once.
 */
const overCapAnswered = 8;
/** At a shutdown, how long a connection taken with no request yet still has to send one, before it is closed. */
const freshWaitMs = 1_000;
/** How long such a connection has to send its request, before it is closed. */
const overCapWaitMs = 2_000;

/** `503` with `Retry-After: 1`, and the connection closed: this address holds all the connections it may. */
function tooManyConnections(res: ServerResponse): void {
  const body = JSON.stringify(errorBody('SERVICE_UNAVAILABLE', { description: 'Too many connections from this address; try again in a second.' }));
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'retry-after': '1', connection: 'close', 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * Counts open connections per client address; each counts from its accept to its close, an idle keep-alive one too.
 * A connection past `cap` is answered 503 with `Retry-After` (the returned set marks it) for the first
 * `overCapAnswered` past it, each given `waitMs` to send its request; further ones are closed at once.
 */
function capPerAddress(server: Server, cap: number, waitMs: number): WeakSet<Socket> {
  const overCap = new WeakSet<Socket>();
  if (!Number.isFinite(cap)) return overCap;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= cap + overCapAnswered) return void socket.destroy();
    if (count >= cap) {
      overCap.add(socket);
      const timer = setTimeout(() => socket.destroy(), waitMs);
      socket.once('close', () => clearTimeout(timer));
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  return overCap;
}

/**
 * A command's server ends gracefully on SIGINT or SIGTERM, once: waiting status requests answered now, requests under
 * way given `graceMs` (servers/operating.md), then the process exits 0.
 */
export function closeOnSignals(running: { close(options: { graceMs: number }): Promise<unknown> }, graceMs = 10_000): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      void running.close({ graceMs }).finally(() => process.exit(0));
    });
  }
}
