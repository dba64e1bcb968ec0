/**
 * A fetch that times a request out itself when given `init.timeoutMs` (the server handler's Node `http` fetch), rejecting
 * with a `TimeoutError` DOMException: MerchantClient then makes no AbortController and signal per call, which on a busy
 * server cost more than the timer. Any other fetch, or a call with a signal of its own, goes through `send`.
 */
import { NetworkError, TimeoutError } from './errors.js';
import { send, type Answer } from './send.js';

const timingFetches = new WeakSet<object>();

export function timesOutItself<F extends typeof globalThis.fetch>(fetcher: F): F {
  timingFetches.add(fetcher);
  return fetcher;
}

/** Whether `fetcher` times requests out itself (a wrapper around it, such as the handler's tracing, says so too). */
export const isTimingFetch = (fetcher: object): boolean => timingFetches.has(fetcher);

const isTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError';

export async function timedSend(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined, fetcher?: typeof globalThis.fetch): Promise<Answer> {
  if (!fetcher || signal || timeoutMs <= 0 || !timingFetches.has(fetcher)) return send(url, init, timeoutMs, signal, fetcher);
  try {
    const response = await fetcher(url, { ...init, timeoutMs } as RequestInit);
    return { status: response.status, text: await response.text(), headers: response.headers };
  } catch (error) {
    throw isTimeout(error) ? new TimeoutError(timeoutMs, { cause: error }) : new NetworkError({ cause: error });
  }
}
