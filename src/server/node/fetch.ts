/**
 * The handler's calls to the merchant API over Node's own `http`/`https` with a keep-alive pool: the global
 * `fetch` (undici) costs several times the CPU per call, which on a busy server is the handler's main cost.
 * Reached through `nodeBuiltin()`, so edge runtimes keep the global `fetch`.
 */
import type * as Http from 'node:http';
import { timesOutItself } from '../../client/timed-send.js';
import { nodeBuiltin } from '../node-builtin.js';

type HttpModule = typeof Http;

/** How long a pooled connection may stay idle when the service sends no Keep-Alive hint (Node's own server closes at 5 s). */
export const idleSocketMs = 4_000;

/** A `fetch` for string or absent bodies over node:http(s); undefined where the runtime is not Node. */
export function nodeFetch(): typeof globalThis.fetch | undefined {
  const http = nodeBuiltin<HttpModule>('node:http');
  const https = nodeBuiltin<HttpModule>('node:https');
  if (!http || !https) return undefined;
  // An idle socket is dropped after 4 s, or a second before the service's `Keep-Alive: timeout=N` if sooner: reusing one the
  // service is closing resets the request, and a create reset after it was sent is in doubt, its claim held for a lease.
  // Node honours that hint only when the agent has a timeout of its own.
  const agentOptions = { keepAlive: true, timeout: idleSocketMs };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  return timesOutItself((input, init = {}) => {
    // Anything but what MerchantClient sends (a URL string, a string body) goes to the global fetch.
    if (typeof input !== 'string' || (init.body != null && typeof init.body !== 'string')) return globalThis.fetch(input, init);
    const url = new URL(input);
    const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : undefined;
    if (!agent) return globalThis.fetch(input, init);
    const body = init.body ?? undefined;
    const headers = rawHeaders(init.headers, url, body);
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
 * The request's headers as the flat name, value list `http.request` writes as they are (each still checked by Node):
 * MerchantClient's plain record copied without a Headers object in between or a `setHeader` per header, with the
 * body's length, and `Host` and the URL's credentials as `Authorization`, which Node adds only to headers given as an
 * object.
 */
function rawHeaders(init: HeadersInit | undefined, url: URL, body: string | undefined): string[] {
  const record = init && typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function' ? (init as Record<string, string>) : Object.fromEntries(new Headers(init));
  const list: string[] = [];
  let hasHost = false;
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
  if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)));
  return list;
}

/**
 * The answer's headers over Node's raw list (name, value, name, value…): `get` and `has` read the list itself, which
 * is all MerchantClient asks of them; anything else reads a real `Headers` made from the list on first use.
 */
class RawHeaders implements Headers {
  readonly #raw: readonly string[];
  #headers: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  #real(): Headers {
    if (this.#headers) return this.#headers;
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < this.#raw.length; i += 2) pairs.push([this.#raw[i] as string, this.#raw[i + 1] as string]);
    return (this.#headers = new Headers(pairs));
  }

  /** As `Headers.get`: every value of the name, in order, joined by `, `; null without one. */
  get(name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    const wanted = name.toLowerCase();
    const raw = this.#raw;
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
    this.#real().append(name, value);
  }

  delete(name: string): void {
    this.#real().delete(name);
  }

  set(name: string, value: string): void {
    this.#real().set(name, value);
  }

  getSetCookie(): string[] {
    return this.#real().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#real().forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#real().entries();
  }

  keys(): HeadersIterator<string> {
    return this.#real().keys();
  }

  values(): HeadersIterator<string> {
    return this.#real().values();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.#real()[Symbol.iterator]();
  }
}
