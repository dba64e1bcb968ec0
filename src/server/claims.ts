/**
 * The claim store: an atomic, shared record per key that makes "do this once" hold on any number of instances.
 * A key is claimed (with the request's digest and a lease) before the side effect, completed with the response
 * (compare-and-set on the fencing token), or released after a definite failure. Plus a tiny pub/sub to wake
 * waiters on other instances. `memoryClaimStore()` here; `createRedisStore()` (redis/store.ts, `pay-checkout/server/redis`) shares it.
 */

/** What `claim()` found. `mismatch`: the key is held or done with another digest (another request body). */
export type ClaimResult =
  | { state: 'claimed'; token: string }
  | { state: 'in_flight'; digest: string }
  | { state: 'done'; response: string }
  | { state: 'mismatch' };

/** What `inspect()` sees, without changing anything: for resolving a held claim from elsewhere (a webhook). */
export type ClaimView =
  | { state: 'free' }
  | { state: 'held'; token: string; digest: string }
  | { state: 'done'; digest: string; response: string };

export type Unsubscribe = () => Promise<void>;

export interface ClaimStore {
  /** Atomically: a free (or lapsed) key is claimed for `leaseMs`; else its state, or `mismatch` for another digest. */
  claim(key: string, digest: string, leaseMs: number): Promise<ClaimResult>;
  /** Stores `response` for `ttlMs` if `token` still holds the claim; false when it does not (lapsed, taken over). */
  complete(key: string, token: string, response: string, ttlMs: number): Promise<boolean>;
  /** Frees the key if `token` still holds it, so the next request may try again; false when it does not. */
  release(key: string, token: string): Promise<boolean>;
  inspect(key: string): Promise<ClaimView>;
  /** At-most-once, best-effort delivery to the current subscribers on every instance. */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe>;
  /** Closes connections (Redis); the memory store has none. */
  close?(): Promise<void>;
}

/** Thrown (or rejected) by a store that cannot answer: the handler turns it into 503 with Retry-After. */
export class ClaimStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClaimStoreError';
  }
}

/** Random fencing token: unguessable, so a token never matches a claim it did not take. */
export const newToken = () => crypto.randomUUID();

export interface MemoryClaimStoreOptions {
  /** Oldest records are forgotten beyond this many (held claims included); default 100,000. */
  maxEntries?: number;
  now?: () => number;
}

type Entry = { digest: string; until: number } & ({ token: string; response?: undefined } | { token?: undefined; response: string });

/** One process only: right for a single long-running server and for tests, never for a fleet. */
export function memoryClaimStore(options: MemoryClaimStoreOptions = {}): ClaimStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const listeners = new Map<string, Set<(message: string) => void>>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.until <= now()) entries.delete(key);
    return entry && entry.until > now() ? entry : undefined;
  };
  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    // Maps keep insertion order, so the first keys are the oldest.
    for (const old of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(old);
    }
  };
  const holds = (key: string, token: string) => live(key)?.token === token;

  return {
    async claim(key, digest, leaseMs) {
      const entry = live(key);
      if (!entry) {
        const token = newToken();
        put(key, { digest, token, until: now() + leaseMs });
        return { state: 'claimed', token };
      }
      if (entry.digest !== digest) return { state: 'mismatch' };
      return entry.response !== undefined ? { state: 'done', response: entry.response } : { state: 'in_flight', digest };
    },
    async complete(key, token, response, ttlMs) {
      const entry = live(key);
      if (!entry || entry.token !== token) return false;
      put(key, { digest: entry.digest, response, until: now() + ttlMs });
      return true;
    },
    async release(key, token) {
      if (!holds(key, token)) return false;
      entries.delete(key);
      return true;
    },
    async inspect(key) {
      const entry = live(key);
      if (!entry) return { state: 'free' };
      return entry.response !== undefined ? { state: 'done', digest: entry.digest, response: entry.response } : { state: 'held', token: entry.token, digest: entry.digest };
    },
    async publish(channel, message) {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        // Later and isolated, as over Redis: a throwing listener neither stops the others nor the publisher.
        queueMicrotask(() => {
          try {
            listener(message);
          } catch (error) {
            console.error('[pay-checkout] claim store listener failed:', error);
          }
        });
      }
    },
    async subscribe(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      // Wrapped, so the same function subscribed twice gets two independent subscriptions.
      const own = (message: string) => listener(message);
      set.add(own);
      return async () => {
        set.delete(own);
        if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel);
      };
    },
  };
}
