/**
 * The handler's calls to the merchant API over undici's dispatcher (the client under Node's own `fetch`, used here
 * without `fetch`'s web objects) with a keep-alive pool, or over Node's own `http`/`https` where undici cannot be
 * loaded (a bundle shipped without its dependencies): the global `fetch` costs several times the CPU per call, and
 * `http.request` about twice undici's dispatcher, which on a busy server is the handler's main cost. Reached through
 * `nodeBuiltin()`, so edge runtimes keep the global `fetch` and load neither.
 */
import type * as Http from 'node:http';
import type * as Module from 'node:module';
import type * as Undici from 'undici';
import { timesOutItself } from '../../client/timed-send.js';
import { nodeBuiltin } from '../node-builtin.js';

type HttpModule = typeof Http;
type UndiciModule = typeof Undici;

/** How long a pooled connection may stay idle when the service sends no Keep-Alive hint (Node's own server closes at 5 s). */
export const idleSocketMs = 4_000;
/** How long before the service's `Keep-Alive: timeout=N` a pooled connection is dropped. */
const keepAliveMarginMs = 1_000;

/** A `fetch` for string or absent bodies over undici, else node:http(s); undefined where the runtime is not Node. */
export function nodeFetch(): typeof globalThis.fetch | undefined {
  const undici = loadUndici();
  return undici ? undiciFetch(undici) : httpFetch();
}

/** undici (a dependency) where the built-ins are, by a name no bundler follows; undefined where it is not installed. */
function loadUndici(): UndiciModule | undefined {
  const module = nodeBuiltin<typeof Module>('node:module');
  try {
    return module?.createRequire(import.meta.url)('undici') as UndiciModule | undefined;
  } catch {
    return undefined;
  }
}

/** What MerchantClient sends (a URL string, a string body, http or https) as its URL; anything else goes to the global fetch. */
const ownCall = (input: RequestInfo | URL, init: RequestInit): URL | undefined => {
  if (typeof input !== 'string' || (init.body != null && typeof init.body !== 'string')) return undefined;
  const url = new URL(input);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
};

/** The service calls over undici's `Agent.dispatch`: no `Request`, `Response`, stream or `AbortController` per call. */
export function undiciFetch(undici: UndiciModule): typeof globalThis.fetch {
  // The idle-socket rule of the http path below: 4 s, or a second before the service's Keep-Alive hint if sooner.
  const agent = new undici.Agent({ keepAliveTimeout: idleSocketMs, keepAliveTimeoutThreshold: keepAliveMarginMs });
  return timesOutItself((input, init = {}) => {
    const url = ownCall(input, init);
    if (!url) return globalThis.fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const body = (init.body ?? undefined) as string | undefined;
    const call = new ServiceCall(signal);
    // MerchantClient's timeout as a plain timer (client/timed-send.ts), the request aborted when it fires.
    const timeoutMs = (init as { timeoutMs?: number }).timeoutMs;
    if (timeoutMs) call.timer = setTimeout(timeUp, timeoutMs, call);
    const method = (init.method ?? 'GET') as Undici.Dispatcher.HttpMethod;
    agent.dispatch({ origin: url.origin, path: url.pathname + url.search, method, headers: rawHeaders(init.headers, url, body, false), body: body ?? null }, call);
    return call.answer;
  });
}

function timeUp(call: ServiceCall) {
  call.stop(new DOMException('The operation timed out.', 'TimeoutError'));
}

/** One call as undici's handler: the answer's status, headers and bytes, settled once. */
class ServiceCall implements Undici.Dispatcher.DispatchHandlers {
  readonly answer: Promise<Response>;
  timer: ReturnType<typeof setTimeout> | undefined;
  // TypeScript's `private` here and in RawHeaders, not `#`: the server bundle's browser target lowers `#` members to a
  // WeakMap each, looked up on every access (measured: the built handler 1.3–1.4× the source's CPU per create).
  private resolve!: (answer: Response) => void;
  private reject!: (error: unknown) => void;
  private abort: ((error: Error) => void) | undefined;
  /** Why the call was stopped (its timeout, the caller's signal): what it rejects with, whatever undici says after. */
  private stopped: Error | undefined;
  private settled = false;
  private status = 0;
  private statusText = '';
  private readonly headers: string[] = [];
  private readonly chunks: Buffer[] = [];
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort: (() => void) | undefined;

  constructor(signal: AbortSignal | undefined) {
    this.answer = new Promise<Response>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.signal = signal;
    if (signal) {
      this.onAbort = () => this.stop(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Ends the call now (its timeout, the caller's signal): the request is aborted as soon as undici has handed it a connection. */
  stop(error: Error): void {
    if (this.settled || this.stopped) return;
    this.stopped = error;
    if (this.abort) this.abort(error);
    else this.finish(error);
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.stopped) return abort(this.stopped);
    this.abort = abort;
  }

  onHeaders(status: number, headers: Buffer[], _resume: () => void, statusText: string): boolean {
    if (status < 200) return true; // informational: the real answer follows
    this.status = status;
    this.statusText = statusText;
    // Each name and value as Latin-1, as Node's own fetch reads them.
    for (const part of headers) this.headers.push(part.toString('latin1'));
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const chunks = this.chunks;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.finish(undefined, bufferedAnswer(this.status, this.statusText, new RawHeaders(this.headers), body));
  }

  onError(error: Error): void {
    this.finish(this.stopped ?? error);
  }

  private finish(error: unknown, answer?: Response): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
    if (answer) this.resolve(answer);
    else this.reject(error);
  }
}

/** The service calls over node:http(s), where undici cannot be loaded. */
export function httpFetch(): typeof globalThis.fetch | undefined {
  const http = nodeBuiltin<HttpModule>('node:http');
  const https = nodeBuiltin<HttpModule>('node:https');
  if (!http || !https) return undefined;
  // An idle socket is dropped after 4 s, or a second before the service's `Keep-Alive: timeout=N` if sooner: reusing one the
  // service is closing resets the request, and a create reset after it was sent is in doubt, its claim held for a lease.
  // Node honours that hint only when the agent has a timeout of its own.
  const agentOptions = { keepAlive: true, timeout: idleSocketMs };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  return timesOutItself((input, init = {}) => {
    const url = ownCall(input, init);
    if (!url) return globalThis.fetch(input, init);
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const body = (init.body ?? undefined) as string | undefined;
    const headers = rawHeaders(init.headers, url, body, true);
    const signal = init.signal ?? undefined;
    // MerchantClient's timeout as a plain timer (client/timed-send.ts), the request destroyed when it fires.
    const timeoutMs = (init as { timeoutMs?: number }).timeoutMs;
    return new Promise<Response>((resolve, rejectWith) => {
      if (signal?.aborted) return rejectWith(signal.reason);
      let timedOut: DOMException | undefined;
      const timer = timeoutMs ? setTimeout(() => request.destroy((timedOut = new DOMException('The operation timed out.', 'TimeoutError'))), timeoutMs) : undefined;
      const reject = (error: unknown) => {
        clearTimeout(timer);
        rejectWith(timedOut ?? error);
      };
      const done = (answer: Http.IncomingMessage, text: Buffer) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        resolve(bufferedAnswer(answer.statusCode ?? 502, answer.statusMessage ?? '', new RawHeaders(answer.rawHeaders), text));
      };
      // The headers as a raw list: Node writes them as given (each still checked), with no per-header setHeader pass.
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: init.method ?? 'GET', headers, agent }, (answer) => {
        // A small answer is parsed whole in the same read as its headers: it is taken in one piece once this read is
        // through, with no stream listeners; a longer one is read as it comes.
        queueMicrotask(() => {
          if (answer.complete) return done(answer, (answer.read() as Buffer | null) ?? empty);
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () => done(answer, Buffer.concat(chunks)));
        });
      });
      const abort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal?.addEventListener('abort', abort, { once: true });
      request.on('error', (error) => {
        signal?.removeEventListener('abort', abort);
        reject(error);
      });
      request.end(body);
    });
  });
}

const empty = Buffer.alloc(0);

/**
 * The service's answer, already in memory, as the part of a Response that MerchantClient reads (`status`, `headers`,
 * `text()`): a real Response would wrap the bytes in a web stream only to read them back, which on Node 20 costs
 * more CPU than the rest of the answer's handling.
 */
function bufferedAnswer(status: number, statusText: string, headers: Headers, body: Buffer): Response {
  let used = false;
  const text = async () => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return body.toString('utf8');
  };
  const answer = {
    status,
    statusText,
    ok: status >= 200 && status < 300,
    headers,
    get bodyUsed() {
      return used;
    },
    text,
    json: async () => JSON.parse(await text()) as unknown,
  };
  return answer as unknown as Response;
}

/**
 * The request's headers as the flat name, value list `http.request` and undici write as they are (each still checked):
 * MerchantClient's plain record copied without a Headers object in between or a `setHeader` per header, and the URL's
 * credentials as `Authorization`; for Node's `http` (`forHttp`) also `Host` and the body's length, which Node adds
 * only to headers given as an object (undici adds both itself, and refuses a length other than the body's).
 */
function rawHeaders(init: HeadersInit | undefined, url: URL, body: string | undefined, forHttp: boolean): string[] {
  const record = init && typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function' ? (init as Record<string, string>) : Object.fromEntries(new Headers(init));
  const list: string[] = [];
  let hasHost = !forHttp;
  let hasAuthorization = false;
  for (const name in record) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' && body !== undefined) continue;
    if (lower === 'host') hasHost = true;
    else if (lower === 'authorization') hasAuthorization = true;
    list.push(lower, record[name] as string);
  }
  if (!hasHost) list.push('host', url.host);
  if (!hasAuthorization && (url.username || url.password)) {
    list.push('authorization', `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
  }
  if (forHttp && body !== undefined) list.push('content-length', String(Buffer.byteLength(body)));
  return list;
}

/**
 * The answer's headers over Node's raw list (name, value, name, value…): `get` and `has` read the list itself, which
 * is all MerchantClient asks of them; anything else reads a real `Headers` made from the list on first use.
 */
class RawHeaders implements Headers {
  private readonly raw: readonly string[];
  private made: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.raw = raw;
  }

  private real(): Headers {
    if (this.made) return this.made;
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < this.raw.length; i += 2) pairs.push([this.raw[i] as string, this.raw[i + 1] as string]);
    return (this.made = new Headers(pairs));
  }

  /** As `Headers.get`: every value of the name, in order, joined by `, `; null without one. */
  get(name: string): string | null {
    if (this.made) return this.made.get(name);
    const wanted = name.toLowerCase();
    const raw = this.raw;
    let value: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i] as string;
      if (key.length === wanted.length && key.toLowerCase() === wanted) value = value === null ? (raw[i + 1] as string) : `${value}, ${raw[i + 1] as string}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  append(name: string, value: string): void {
    this.real().append(name, value);
  }

  delete(name: string): void {
    this.real().delete(name);
  }

  set(name: string, value: string): void {
    this.real().set(name, value);
  }

  getSetCookie(): string[] {
    return this.real().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.real().forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  entries(): HeadersIterator<[string, string]> {
    return this.real().entries();
  }

  keys(): HeadersIterator<string> {
    return this.real().keys();
  }

  values(): HeadersIterator<string> {
    return this.real().values();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.real()[Symbol.iterator]();
  }
}
