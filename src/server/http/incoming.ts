/**
 * The handler's transport-neutral request and answer. The web-standard `(Request) => Promise<Response>` wraps a
 * `Request` in an `Incoming`; `toNodeListener` builds one straight from Node's `IncomingMessage` (node/native.ts) and
 * writes the `Answer` itself, so on Node a create builds no Request, body stream, abort signal or Response.
 */
import type { OwnBody } from './body.js';
import { socketAddressOf } from './client-address.js';

export interface Incoming {
  readonly method: string;
  /** The URL's path as the WHATWG URL parser leaves it (dot segments resolved, still percent-encoded). */
  readonly path: string;
  readonly searchParams: URLSearchParams;
  readonly headers: { get(name: string): string | null };
  /** What the body is read from, within the contract's limits (body.ts). */
  readonly body: Request | OwnBody;
  /** The buyer went away before the answer was written. */
  readonly aborted: boolean;
  readonly signal: AbortSignal;
  /** The socket's address, where the adapter knows it. */
  readonly socketAddress: string | undefined;
  /** The web Request handed to the merchant's callbacks (`resolveLink`, `botCheck`, `clientAddress`); on Node built on first use. */
  readonly request: Request;
  /** Sends a 103 Early Hints naming these `Link` values before the answer, where the adapter can (Node's native path). */
  earlyHints?(links: readonly string[]): void;
}

/** What the handler answers: `text` is the whole body (null for none), header names lower-case as `Headers` gives them. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string | null;
  /** A body of bytes (a compressed file), in place of `text`. */
  bytes?: Uint8Array;
}

export type AnswerIncoming = (incoming: Incoming) => Promise<Answer>;

export function fromRequest(request: Request): Incoming {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    get searchParams() {
      return url.searchParams;
    },
    headers: request.headers,
    body: request,
    get aborted() {
      return request.signal.aborted;
    },
    get signal() {
      return request.signal;
    },
    socketAddress: socketAddressOf(request),
    request,
  };
}

/** The native entry behind each handler `createCheckoutHandler()` returned, for `toNodeListener`. */
const nativeEntries = new WeakMap<object, AnswerIncoming>();

export function withNativeEntry<H extends object>(handler: H, answer: AnswerIncoming): H {
  nativeEntries.set(handler, answer);
  return handler;
}

export const nativeEntryOf = (handler: object): AnswerIncoming | undefined => nativeEntries.get(handler);
