/**
 * Node `http` adapter: IncomingMessage → Request, Response → ServerResponse. Type-only Node imports,
 * so importing `pay-checkout/server` stays safe on edge runtimes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../contract/errors.js';

export interface NodeListenerOptions {
  /** Unexpected adapter failures; default console.error. */
  onError?: (error: unknown) => void;
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
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const url = new URL(req.url ?? '/', `${encrypted ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(signal ? { signal } : {}) };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
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
  const onError = options.onError ?? ((error: unknown) => console.error('[pay-checkout] node adapter error:', error));
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Aborted when the client goes away before the answer is written, so a waiting status request stops waiting.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    void (async () => {
      try {
        await writeResponse(await handler(toRequest(req, gone.signal)), res);
      } catch (error) {
        onError(error);
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(errorBody('INTERNAL_SERVER_ERROR')));
        } else res.destroy();
      }
    })();
  };
}
