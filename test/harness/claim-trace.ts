/**
 * A claim's life, for finding out why a storm left a key held: every call a handler instance makes on its claim
 * store (claim, complete, release, inspect), with its answer or error, one JSON line each in a file per instance.
 * The store's own start-up and write-back lines (console.info) go to the same file, in order.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClaimStore } from '../../src/server/once/claims.js';

export interface TraceLine {
  at: number;
  pid: number;
  op: string;
  key?: string;
  token?: string;
  result?: unknown;
  error?: string;
  /** The call's time on the store, ms. */
  ms?: number;
}

/** `store` with every claim call written to `file`; also copies console.info and .warn (the store's start-up and write-back lines) there. */
export function traceClaims<S extends ClaimStore>(store: S, file: string): S {
  const write = (line: Omit<TraceLine, 'at' | 'pid'>) => appendFileSync(file, `${JSON.stringify({ at: Date.now(), pid: process.pid, ...line })}\n`);
  for (const level of ['info', 'warn'] as const) {
    const log = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      write({ op: 'log', result: args.map(String).join(' ') });
      log(...args);
    };
  }
  const traced = <A extends unknown[], R>(op: string, call: (...args: A) => Promise<R>, describe: (args: A) => Partial<TraceLine>) =>
    async (...args: A): Promise<R> => {
      const started = Date.now();
      try {
        const result = await call(...args);
        write({ op, ...describe(args), result, ms: Date.now() - started });
        return result;
      } catch (error) {
        write({ op, ...describe(args), error: error instanceof Error ? error.message : String(error), ms: Date.now() - started });
        throw error;
      }
    };
  // The store object itself stays the prototype, so its other members (durability, command, limitStore) still work.
  return Object.assign(Object.create(store) as S, {
    claim: traced('claim', store.claim.bind(store), ([key]) => ({ key })),
    complete: traced('complete', store.complete.bind(store), ([key, token]) => ({ key, token })),
    release: traced('release', store.release.bind(store), ([key, token]) => ({ key, token })),
    inspect: traced('inspect', store.inspect.bind(store), ([key]) => ({ key })),
  });
}

/** `fetch` with each `POST …/orders` written to `file`: its `order_key`, then its status or error (with its code). */
export function traceOrderCalls(fetch: typeof globalThis.fetch, file: string): typeof globalThis.fetch {
  const write = (line: Omit<TraceLine, 'at' | 'pid'>) => appendFileSync(file, `${JSON.stringify({ at: Date.now(), pid: process.pid, ...line })}\n`);
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method !== 'POST' || !url.endsWith('/orders') || typeof init.body !== 'string') return fetch(input, init);
    const key = (JSON.parse(init.body) as { order_key?: string }).order_key;
    const started = Date.now();
    write({ op: 'service call', ...(key ? { key } : {}) });
    try {
      const response = await fetch(input, init);
      write({ op: 'service answer', ...(key ? { key } : {}), result: response.status, ms: Date.now() - started });
      return response;
    } catch (error) {
      const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
      write({ op: 'service answer', ...(key ? { key } : {}), error: `${error instanceof Error ? error.message : String(error)} (${String(code)})`, ms: Date.now() - started });
      throw error;
    }
  };
}

/** Every traced line about `keys` (and every log line) from the files in `dir`, in time order. */
export function claimLives(dir: string, keys: readonly string[]): TraceLine[] {
  const wanted = new Set(keys);
  const lines = readdirSync(dir).flatMap((name) =>
    readFileSync(path.join(dir, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as TraceLine),
  );
  return lines.filter((line) => line.op === 'log' || (line.key !== undefined && wanted.has(line.key))).sort((a, b) => a.at - b.at);
}
