/**
 * The claim store: an atomic, shared record per key that makes "do this once" hold on any number of instances.
 * A key is claimed (with the request's digest and a lease) before the side effect, completed with the response
 * (compare-and-set on the fencing token), or released after a definite failure. Plus a tiny pub/sub to wake
 * waiters on other instances. `memoryClaimStore()` here; `createRedisStore()` (redis/store.ts, `pay-checkout/server/redis`) shares it.
 */
import type { LimitStore } from '../limits/limits.js';
import { errorFields, storeEvents, type EventSink } from '../events.js';
import { ClaimStoreError } from '../causes.js';
import { memoryOpenOrders, type OpenOrderStore } from './open-orders.js';

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
  /** The abuse limits' counters beside the claims (a shared store's); without it, the handler counts in memory. */
  limitStore?: LimitStore;
  /** The orders the sweep follows, beside the claims (once/open-orders.ts); without it, the handler keeps them in memory. */
  openOrders?: OpenOrderStore;
  /** The handler given this store passes its `onEvent`: the store's own events go there unless it has a sink of its own. */
  attachEvents?(sink: EventSink): void;
}

/** Thrown (or rejected) by a store that cannot answer: the handler turns it into 503 with Retry-After. */
export { ClaimStoreError };

/** `promise`, or a ClaimStoreError (`STORE what: no answer within N ms`) once `limitMs` has passed: every store call is bounded. */
export async function withinBound<T>(promise: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ClaimStoreError(`${what}: no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `attempt` in the background until it says done (true) or `untilMs` (Date.now()) passes: from `firstPauseMs`,
 * backing off to 5 s, a throw counting as not yet. For a store write that must land once the store is back (storing a
 * reply, a release, undoing a claim), since a lost one leaves a key held for a whole lease.
 */
export function keepTrying(attempt: () => Promise<boolean>, untilMs: number, firstPauseMs = 100): void {
  void (async () => {
    for (let pause = firstPauseMs; Date.now() < untilMs; pause = Math.min(Math.max(pause * 2, 100), 5_000)) {
      await new Promise((r) => setTimeout(r, pause).unref?.());
      if (await attempt().catch(() => false)) return;
    }
  })();
}

/** Socket errors that mean nothing was sent: the connection was never made. */
const neverSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether `error` (or a cause of it) says the connection was never made, so the request certainly did nothing. */
export function neverSent(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && neverSentCodes.has(code)) return true;
  }
  return false;
}

/**
 * Undoes a claim whose caller saw it fail (a timeout, a connection lost before the answer) although it may have
 * landed, with the token only the caller knows, so the key is not held by nobody for a whole lease. Tried until it
 * undoes the claim, or until it finds none `settleMs` after the failure (a claim still on its way could land until
 * then), or until the lease ends.
 */
export function undoLostClaim(error: unknown, release: () => Promise<boolean>, leaseMs: number, settleMs: number): void {
  if (neverSent(error)) return;
  const failedAt = Date.now();
  keepTrying(async () => (await release()) || Date.now() >= failedAt + settleMs, failedAt + leaseMs, 0);
}

/** Random fencing token: unguessable, so a token never matches a claim it did not take. */
export const newToken = () => crypto.randomUUID();

export interface MemoryClaimStoreOptions {
  /**
   * At most this many records; default 100,000. The oldest replies are forgotten first; a held claim never is
   * (forgetting it would let a retry create a second order): with only held claims left, a new one is refused (503).
   */
  maxEntries?: number;
  now?: () => number;
}

type Entry = { digest: string; until: number } & ({ token: string; response?: undefined } | { token?: undefined; response: string });

/** One subscription in a store's own listeners by channel; the function it returns ends that subscription alone. */
export function addListener(listeners: Map<string, Set<(message: string) => void>>, channel: string, listener: (message: string) => void): () => Promise<void> {
  const set = listeners.get(channel) ?? new Set();
  listeners.set(channel, set);
  // Wrapped, so the same function subscribed twice gets two independent subscriptions.
  const own = (message: string) => listener(message);
  set.add(own);
  return async () => {
    set.delete(own);
    if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel);
  };
}

/** One process only: right for a single long-running server and for tests, never for a fleet. */
export function memoryClaimStore(options: MemoryClaimStoreOptions = {}): ClaimStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  // Held claims and stored replies apart, so room is made from replies only, oldest first (Maps keep insertion order).
  const held = new Map<string, Entry>();
  const done = new Map<string, Entry>();
  const listeners = new Map<string, Set<(message: string) => void>>();
  let sweptAt = -Infinity;
  const events = storeEvents(undefined);

  const live = (key: string): Entry | undefined => {
    const entry = held.get(key) ?? done.get(key);
    if (entry && entry.until <= now()) {
      held.delete(key);
      done.delete(key);
      return undefined;
    }
    return entry;
  };
  const makeRoom = () => {
    for (const old of done.keys()) {
      if (held.size + done.size < maxEntries) return;
      done.delete(old);
    }
    // Only held claims left: drop the lapsed ones, at most once a second (a full scan).
    if (held.size >= maxEntries && now() - sweptAt >= 1_000) {
      sweptAt = now();
      for (const [key, entry] of held) if (entry.until <= now()) held.delete(key);
    }
    if (held.size >= maxEntries) throw new ClaimStoreError(`memory claim store: all ${maxEntries} records are claims still held; refusing new work`);
  };
  const holds = (key: string, token: string) => live(key)?.token === token;

  return {
    async claim(key, digest, leaseMs) {
      const entry = live(key);
      if (!entry) {
        makeRoom();
        const token = newToken();
        held.set(key, { digest, token, until: now() + leaseMs });
        return { state: 'claimed', token };
      }
      if (entry.digest !== digest) return { state: 'mismatch' };
      return entry.response !== undefined ? { state: 'done', response: entry.response } : { state: 'in_flight', digest };
    },
    async complete(key, token, response, ttlMs) {
      const entry = live(key);
      if (!entry || entry.token !== token) return false;
      held.delete(key);
      done.set(key, { digest: entry.digest, response, until: now() + ttlMs });
      return true;
    },
    async release(key, token) {
      if (!holds(key, token)) return false;
      held.delete(key);
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
            events.emit({ level: 'error', name: 'store_listener_failed', message: 'a claim store listener threw', error: errorFields(error) });
          }
        });
      }
    },
    async subscribe(channel, listener) {
      return addListener(listeners, channel, listener);
    },
    attachEvents: events.attach,
    openOrders: memoryOpenOrders({ now }),
  };
}
