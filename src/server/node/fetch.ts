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
    const headers = plainHeaders(init.headers);
    const body = init.body ?? undefined;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
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
      const request = (url.protocol === 'https:' ? https : http).request(url, { method: init.method ?? 'GET', headers, agent }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', abort);
          // Name and value pairs as they came: one pass, no intermediate object.
          const answerHeaders: [string, string][] = [];
          const raw = answer.rawHeaders;
          for (let i = 0; i + 1 < raw.length; i += 2) answerHeaders.push([raw[i] as string, raw[i + 1] as string]);
          const status = answer.statusCode ?? 502;
          resolve(bufferedAnswer(status, answer.statusMessage ?? '', new Headers(answerHeaders), Buffer.concat(chunks)));
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

/** MerchantClient's headers are a plain record: copied as is (lower-cased), without a Headers object in between. */
function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init && typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    for (const [name, value] of Object.entries(init as Record<string, string>)) headers[name.toLowerCase()] = value;
    return headers;
  }
  new Headers(init).forEach((value, name) => (headers[name] = value));
  return headers;
}
