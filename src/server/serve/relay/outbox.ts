/**
 * The outbox the relay sends notices from: one entry per order and status (added atomically, so instances that
 * learn the same change together store it once), leased to one sender at a time, settled by that lease's token.
 * A lease that is never settled (a crashed instance) simply runs out and the entry is due again. `memoryOutbox()`
 * here; `redisOutbox()` and `postgresOutbox()` share it between instances and outlive them.
 */

export type DeliveryState = 'pending' | 'delivered' | 'given_up';

/** One notice and how its delivery goes. Times are milliseconds since the epoch. */
export interface OutboxEntry {
  /** The notice's `id`, the same on every attempt. */
  id: string;
  /** `<id_order>:<status>`: at most one entry each. */
  key: string;
  /** The notice's raw JSON body, signed as it is sent. */
  body: string;
  created_at: number;
  state: DeliveryState;
  /** Attempts since the entry was added or last redelivered. */
  attempts: number;
  /** When it is due (pending), or when its lease runs out while it is being sent. */
  next_at: number;
  /** Retries run until this plus the give-up time: the entry's creation, or its last redelivery. */
  window_from: number;
  last_error: string | null;
  last_status: number | null;
  delivered_at: number | null;
}

export interface NewOutboxEntry {
  id: string;
  key: string;
  body: string;
  created_at: number;
}

export interface LeasedEntry {
  entry: OutboxEntry;
  /** Fences the settlement: a lease that ran out (and was taken by another sender) settles nothing. */
  token: string;
}

export type Settlement =
  | { state: 'delivered'; at: number; status: number }
  /** `delay_ms`: the same time as a delay, which a shared outbox adds to its own clock (`next_at` is the sender's). */
  | { state: 'pending'; next_at: number; delay_ms?: number; error: string; status: number | null }
  | { state: 'given_up'; at: number; error: string; status: number | null };

export interface Outbox {
  readonly kind: 'memory' | 'redis' | 'postgres';
  /** Whether entries outlive this process (and are shared by instances on the same store). */
  readonly durable: boolean;
  /** Adds the entry unless one with its key (order and status) is there already: true when added. */
  add(entry: NewOutboxEntry): Promise<boolean>;
  /**
   * Takes up to `limit` due entries (or just `onlyId`, if due) for `leaseMs`, counting an attempt on each. A shared
   * outbox measures due times and leases on its own clock (Redis `TIME`, PostgreSQL's), never `now`: instances whose
   * clocks differ then never take one entry at once.
   */
  lease(now: number, leaseMs: number, limit: number, onlyId?: string): Promise<LeasedEntry[]>;
  settle(id: string, token: string, settlement: Settlement): Promise<boolean>;
  list(states: readonly DeliveryState[], limit?: number): Promise<OutboxEntry[]>;
  /** Makes the entry due at `now` with a fresh retry window, whatever its state: false when there is no such entry. */
  redeliver(id: string, now: number): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a delivered entry (and so its order and status) is remembered: past any refund and webhook retry. */
export const deliveredKeepMs = 30 * 24 * 60 * 60 * 1000;
/** At most this many entries listed at once. */
export const listLimit = 1_000;

export interface MemoryOutboxOptions {
  /** At most this many entries; the oldest delivered are forgotten first. Default 100,000. */
  maxEntries?: number;
}

/** Entries in this process only: lost on a restart, and each instance has its own. For one instance in development. */
export function memoryOutbox(options: MemoryOutboxOptions = {}): Outbox {
  const maxEntries = options.maxEntries ?? 100_000;
  const byId = new Map<string, OutboxEntry & { token: string | null }>();
  const byKey = new Map<string, string>();
  let seq = 0;
  const copy = (e: OutboxEntry & { token: string | null }): OutboxEntry => {
    const { token: _token, ...entry } = e;
    return entry;
  };
  const forgetDelivered = () => {
    for (const [id, e] of byId) {
      if (byId.size < maxEntries) return;
      if (e.state !== 'delivered') continue;
      byId.delete(id);
      byKey.delete(e.key);
    }
  };
  return {
    kind: 'memory',
    durable: false,
    async add(entry) {
      if (byKey.has(entry.key)) return false;
      if (byId.size >= maxEntries) forgetDelivered();
      byKey.set(entry.key, entry.id);
      byId.set(entry.id, { ...entry, state: 'pending', attempts: 0, next_at: entry.created_at, window_from: entry.created_at, last_error: null, last_status: null, delivered_at: null, token: null });
      return true;
    },
    async lease(now, leaseMs, limit, onlyId) {
      const due = [...(onlyId ? [byId.get(onlyId)].filter((e) => e !== undefined) : byId.values())]
        .filter((e) => e.state === 'pending' && e.next_at <= now)
        .sort((a, b) => a.next_at - b.next_at)
        .slice(0, limit);
      return due.map((e) => {
        e.attempts += 1;
        e.next_at = now + leaseMs;
        e.token = `m${(seq += 1)}`;
        return { entry: copy(e), token: e.token };
      });
    },
    async settle(id, token, settlement) {
      const e = byId.get(id);
      if (!e || e.token !== token) return false;
      e.token = null;
      e.state = settlement.state;
      if (settlement.state === 'delivered') {
        e.delivered_at = settlement.at;
        e.last_status = settlement.status;
        e.last_error = null;
      } else {
        e.last_error = settlement.error;
        e.last_status = settlement.status;
        if (settlement.state === 'pending') e.next_at = settlement.next_at;
      }
      return true;
    },
    async list(states, limit = listLimit) {
      return [...byId.values()].filter((e) => states.includes(e.state)).slice(0, limit).map(copy);
    },
    async redeliver(id, now) {
      const e = byId.get(id);
      if (!e) return false;
      Object.assign(e, { state: 'pending', next_at: now, window_from: now, attempts: 0, token: null });
      return true;
    },
    async close() {},
  };
}
