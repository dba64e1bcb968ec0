/**
 * Optional shared memory of created orders, for merchant APIs that do not deduplicate `order_key`.
 * The handler itself keeps nothing; a merchant running many instances plugs in a shared store (Redis, KV, a table).
 */

/** What the handler remembers per `order_key`: the order it created and the digest of the body that created it. */
export interface IdempotencyRecord {
  id_order: number;
  body_digest: string;
}

export interface IdempotencyStore {
  get(orderKey: string): Promise<IdempotencyRecord | undefined>;
  set(orderKey: string, record: IdempotencyRecord): Promise<void>;
}

export interface MemoryIdempotencyStoreOptions {
  /** How long a key is remembered; default 24 hours. */
  ttlMs?: number;
  /** Oldest keys are forgotten beyond this many; default 10,000. */
  maxEntries?: number;
  now?: () => number;
}

/** An in-process store: right for one long-running server and for tests, not for serverless fleets. */
export function memoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { record: IdempotencyRecord; until: number }>();
  return {
    async get(orderKey) {
      const entry = entries.get(orderKey);
      if (!entry) return undefined;
      if (entry.until <= now()) {
        entries.delete(orderKey);
        return undefined;
      }
      return entry.record;
    },
    async set(orderKey, record) {
      entries.delete(orderKey);
      entries.set(orderKey, { record, until: now() + ttlMs });
      // Maps keep insertion order, so the first keys are the oldest.
      for (const key of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(key);
      }
    },
  };
}
