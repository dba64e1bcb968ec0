/**
 * What this instance itself claimed and completed within a lease, kept in its memory: when Redis comes back empty,
 * these are written back, so a retry of a create in flight (or just answered) finds its claim instead of a free key.
 */
export interface JournalEntry {
  digest: string;
  token?: string;
  response?: string;
  /** When the record stops mattering (Date.now() ms): its lease, or for a done record its ttl capped at a lease. */
  until: number;
}

export interface Journal {
  claimed(key: string, digest: string, token: string, leaseMs: number): void;
  completed(key: string, token: string, response: string, ttlMs: number): void;
  released(key: string, token: string): void;
  /** The entry now (a new object after each change), if it is still live. */
  get(key: string): JournalEntry | undefined;
  /** The live entries, oldest first. */
  live(): [string, JournalEntry][];
}

export function createJournal(leaseMs: number, maxEntries: number, now: () => number = Date.now): Journal {
  const entries = new Map<string, JournalEntry>();
  const put = (key: string, entry: JournalEntry) => {
    entries.delete(key);
    entries.set(key, entry);
    for (const [old, value] of entries) {
      if (entries.size <= maxEntries && value.until > now()) break;
      entries.delete(old);
    }
  };
  return {
    claimed: (key, digest, token, lease) => put(key, { digest, token, until: now() + lease }),
    completed(key, token, response, ttlMs) {
      const entry = entries.get(key);
      // A done record matters for a lease: after that a second order can no longer mean a second payment.
      if (entry?.token === token) put(key, { digest: entry.digest, response, until: now() + Math.min(ttlMs, leaseMs) });
    },
    released(key, token) {
      if (entries.get(key)?.token === token) entries.delete(key);
    },
    get(key) {
      const entry = entries.get(key);
      return entry && entry.until > now() ? entry : undefined;
    },
    live: () => [...entries].filter(([, entry]) => entry.until > now()),
  };
}
