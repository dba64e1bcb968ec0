/**
 * `toNodeListener`'s path to a handler made by `createCheckoutHandler()`: the handler's core reads Node's
 * `IncomingMessage` and its answer is written straight to the `ServerResponse`, so a create builds no web `Request`,
 * body stream, abort signal or `Response` (on Node 20 they cost more CPU than the JSON they carry). The web Request
 * the merchant's callbacks receive is built only when one of them touches it, without a body (the handler has read
 * it), its signal aborted when the buyer goes away.
 * Type-only Node imports, so importing `pay-checkout/server` stays safe on edge runtimes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../../contract/errors.js';
import type { OwnBody } from '../http/body.js';
import type { Answer, AnswerIncoming, Incoming } from '../http/incoming.js';

/** The request line and headers as a web Request; `body`: the socket's body as a stream (the adapter's web path). */
export function webRequest(req: IncomingMessage, signal: AbortSignal | undefined, body: ReadableStream<Uint8Array> | undefined): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const scheme = encrypted ? 'https' : 'http';
  const target = req.url ?? '/';
  let url: URL;
  try {
    url = new URL(target, `${scheme}://${req.headers.host ?? 'localhost'}`);
  } catch {
    // A Host header no URL takes (Node's parser passes any) is no reason to fail the request: the URL gets `localhost`.
    url = new URL(target, `${scheme}://localhost`);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(signal ? { signal } : {}) };
  if (body && method !== 'GET' && method !== 'HEAD') {
    init.body = body;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * A web Request made on first touch: `instanceof Request` holds from the start, and any property, method or `fetch(it)`
 * reaches the real one, built then. Most `resolveLink(hash)`s never look at it, and building it costs about 6% of a
 * create's CPU (measured A/B).
 */
export function lazyRequest(build: () => Request): Request {
  const target = Object.create(Request.prototype) as Request & Lazy;
  target[lazyOf] = { build, real: undefined };
  return new Proxy(target, lazyTraps);
}

/** Where a lazy Request keeps its builder and, once built, the real one (on the proxy's target, never seen through it). */
const lazyOf = Symbol('lazy request');
type Lazy = { [lazyOf]: { build: () => Request; real: Request | undefined } };
const made = (target: Lazy): Request => {
  const lazy = target[lazyOf];
  return (lazy.real ??= lazy.build());
};
/** One set of traps for every lazy Request: nothing but the target and its record is made per request. */
const lazyTraps: ProxyHandler<Request & Lazy> = {
  get(target, key) {
    const request = made(target);
    const value: unknown = Reflect.get(request, key, request);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(request) : value;
  },
  has: (target, key) => Reflect.has(made(target), key),
  set: (target, key, value) => Reflect.set(made(target), key, value),
  ownKeys: (target) => Reflect.ownKeys(made(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(made(target), key),
};

/** The whole body, or undefined once it passes `limit` (then no more is read: the socket carries the 413 and closes). */
function readWithin(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return Promise.resolve(new Uint8Array());
  // Parsed to its end already (a small body comes in the same read as the headers): taken from the buffer in one piece.
  if (req.complete) return Promise.resolve(req.readableLength > limit ? undefined : ((req.read() as Buffer | null) ?? new Uint8Array()));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Closed before the end: the buyer cut the body off.
    const onClose = () => onError(new Error('The request body was cut off.'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function targetUrl(target: string): URL {
  try {
    return new URL(target, 'http://localhost');
  } catch {
    return new URL('http://localhost/');
  }
}

/**
 * An `Incoming` over Node's request; `gone()` marks the buyer gone (the adapter calls it). A class, not an object of
 * closures: nothing but its fields is made per request. It is its own header getter and body.
 */
class NodeIncoming implements Incoming, OwnBody {
  readonly method: string;
  readonly path: string;
  readonly socketAddress: string | undefined;
  readonly headers = this;
  readonly body = this;
  // TypeScript's `private`, not `#`: the server bundle's browser target lowers `#` members to a WeakMap each, looked
  // up on every access (measured: the built handler 1.3–1.4× the source's CPU per create).
  private readonly nodeReq: IncomingMessage;
  private readonly nodeRes: ServerResponse | undefined;
  private readonly url: URL;
  private isGone = false;
  private controller: AbortController | undefined;
  private made: Request | undefined;

  constructor(req: IncomingMessage, res?: ServerResponse) {
    this.nodeReq = req;
    this.nodeRes = res;
    // The same parse as the web Request's URL, so both paths route alike (dot segments, encoding); the host plays no
    // part. A target no URL parser takes (`GET http://[x/...`, which Node's own parser lets through) is a 404.
    this.url = targetUrl(req.url ?? '/');
    this.method = req.method ?? 'GET';
    this.path = this.url.pathname;
    this.socketAddress = req.socket.remoteAddress;
  }

  get searchParams(): URLSearchParams {
    return this.url.searchParams;
  }

  get(name: string): string | null {
    const value = this.nodeReq.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  readWithin(limit: number): Promise<Uint8Array | undefined> {
    return readWithin(this.nodeReq, limit);
  }

  get aborted(): boolean {
    return this.isGone;
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.isGone) this.controller.abort();
    return this.controller.signal;
  }

  get request(): Request {
    const req = this.nodeReq;
    // Its signal follows the buyer's connection, as on the web path; following a signal costs several times a Request
    // that does not (Node 20), so it is paid only by a callback that touches the Request.
    return (this.made ??= lazyRequest(() => webRequest(req, this.signal, undefined)));
  }

  earlyHints(links: readonly string[]): void {
    const res = this.nodeRes;
    if (res && !res.headersSent && links.length > 0 && typeof res.writeEarlyHints === 'function') res.writeEarlyHints({ link: [...links] });
  }

  gone(): void {
    this.isGone = true;
    this.controller?.abort();
  }
}

/** Status, headers in the order a `Response`'s `Headers` gives them, and the text in one write with its length. */
export function writeAnswer({ status, headers, text, bytes }: Answer, res: ServerResponse): void {
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) sorted[name] = headers[name] as string;
  // An unread request body (a refused upload) must not be read into the next request on this socket.
  if (status === 413) sorted.connection = 'close';
  if (bytes) {
    sorted['content-length'] = String(bytes.byteLength);
    res.writeHead(status, sorted);
    return void res.end(bytes);
  }
  if (text === null) {
    res.writeHead(status, sorted);
    return void res.end();
  }
  sorted['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(status, sorted);
  res.end(text);
}

/** The request's Incoming, for the listeners below (made once, not per request). */
const incomingOf = Symbol('incoming');
type Carrying = { [incomingOf]?: NodeIncoming };

/** Gone when the client leaves before the answer is written, so a waiting status request stops waiting. */
function onResponseClose(this: ServerResponse & Carrying): void {
  if (!this.writableFinished) this[incomingOf]?.gone();
}

/** A body cut off mid-way errors the request first: marked gone before the handler sees the read fail. */
function onRequestError(this: IncomingMessage & Carrying): void {
  this[incomingOf]?.gone();
}

async function answerNative(answer: AnswerIncoming, onError: (error: unknown) => void, req: IncomingMessage, res: ServerResponse, incoming: NodeIncoming): Promise<void> {
  try {
    writeAnswer(await answer(incoming), res);
  } catch (error) {
    answerFailure(error, incoming.aborted || req.destroyed, res, onError);
  }
}

export function nativeListener(answer: AnswerIncoming, onError: (error: unknown) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const incoming = new NodeIncoming(req, res);
    (req as Carrying)[incomingOf] = incoming;
    (res as Carrying)[incomingOf] = incoming;
    res.on('close', onResponseClose);
    req.on('error', onRequestError);
    void answerNative(answer, onError, req, res, incoming);
  };
}

/**
 * The last resort of both Node paths (this one and node/server.ts's web one) when answering threw: nothing for a client
 * already `gone` (an aborted upload, a closed tab: nobody to answer, nothing to report); else the error reported and a
 * 500 in the contract's words (its message never sent), or the connection cut when the head already went out.
 */
export function answerFailure(error: unknown, gone: boolean, res: ServerResponse, onError: (error: unknown) => void): void {
  if (gone) return void res.destroy();
  onError(error);
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(errorBody('INTERNAL_SERVER_ERROR')));
}
