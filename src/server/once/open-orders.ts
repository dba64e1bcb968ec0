/**
 * The open orders: one record per order the handler created while outcomes are wanted, keyed by what makes the order
 * unique (the service, the merchant, the order key: `uid`), holding the link it was made for. It is both the link an
 * outcome names (kept for `keepMs`, long after the order is final) and, while the order is open, its place in the
 * sweep's due set: leased to one reader at a time on the store's own clock, so instances never read one order at once
 * and a reader that died simply lets its lease run out. `memoryOpenOrders()` here; the Redis and PostgreSQL stores
 * carry their own (redis/open-orders.ts, postgres/open-orders.ts), shared by every instance and outliving them.
 */

/** What the create records: one write. */
export interface OpenOrder {
  /** The service, the merchant and the order key, as `orderUidOf` joins them: never reused by another order. */
  uid: string;
  id_order: number;
  /** The `order_key` sent at creation (the service's `id_external`). */
  order_key: string;
  /** The payment link's hash. */
  link: string;
  /** Whose key reads it: `''` for the handler's own merchant key; in partner mode, the shop's reference. */
  merchant: string;
  amount: number;
  /** Milliseconds since the epoch (this instance's clock). */
  created_at: number;
  /** When the service says the order expires, if it says. */
  expires_at: number | null;
}

export interface OpenOrderRecord extends OpenOrder {
  /** Whether the order is still followed (false once final, expired or past its budget). */
  open: boolean;
  /** Reads the sweep made of it so far. */
  reads: number;
}

export interface LeasedOrder {
  order: OpenOrderRecord;
  /** Fences what follows the read: a lease that ran out (and was taken by another instance) settles nothing. */
  token: string;
}

export interface OpenOrderStore {
  readonly kind: 'memory' | 'redis' | 'postgres';
  /** Records the order, open, its first read due in `firstReadInMs` (the store's clock), the record kept `keepMs`. */
  open(order: OpenOrder, firstReadInMs: number, keepMs: number): Promise<void>;
  /** The record by uid while it is kept, open or not. */
  get(uid: string): Promise<OpenOrderRecord | undefined>;
  /** Takes up to `limit` open orders that are due (the store's clock), each for `leaseMs`. */
  lease(leaseMs: number, limit: number): Promise<LeasedOrder[]>;
  /** After a lease: due again in `inMs`, one more read counted when `read`; false when `token` no longer holds it. */
  later(uid: string, token: string, inMs: number, read: boolean): Promise<boolean>;
  /** Someone else (a buyer's status check) is reading the order: its next read is not before `inMs` from now. */
  postpone(uid: string, inMs: number): Promise<void>;
  /** Not followed any more; the record stays (for the link of a later refund) until it is no longer kept. */
  close(uid: string): Promise<void>;
  /** How many orders are followed now. */
  count(): Promise<number>;
}

/** How long a record is kept: a refund (96 hours after purchase) and the service's webhook retries after it. */
export const openOrderKeepMs = 8 * 24 * 60 * 60 * 1000;

export interface MemoryOpenOrdersOptions {
  /** At most this many records; closed ones are forgotten first, oldest first. Default 100,000. */
  maxEntries?: number;
  now?: () => number;
}

type Entry = OpenOrderRecord & { next_at: number; keep_until: number; token: string | null };

/** One process only: lost on a restart, and each instance follows its own. For one instance and for tests. */
export function memoryOpenOrders(options: MemoryOpenOrdersOptions = {}): OpenOrderStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let seq = 0;
  const live = (uid: string) => {
    const entry = entries.get(uid);
    if (entry && entry.keep_until <= now()) entries.delete(uid);
    return entry && entry.keep_until > now() ? entry : undefined;
  };
  const record = (e: Entry): OpenOrderRecord => {
    const { next_at: _n, keep_until: _k, token: _t, ...rest } = e;
    return { ...rest };
  };
  const makeRoom = () => {
    for (const [uid, e] of entries) {
      if (entries.size < maxEntries) return;
      if (!e.open || e.keep_until <= now()) entries.delete(uid);
    }
  };
  return {
    kind: 'memory',
    async open(order, firstReadInMs, keepMs) {
      if (live(order.uid)) return;
      if (entries.size >= maxEntries) makeRoom();
      entries.set(order.uid, { ...order, open: true, reads: 0, next_at: now() + firstReadInMs, keep_until: now() + keepMs, token: null });
    },
    async get(uid) {
      const e = live(uid);
      return e && record(e);
    },
    async lease(leaseMs, limit) {
      const at = now();
      const due = [...entries.values()].filter((e) => e.open && e.next_at <= at && e.keep_until > at).sort((a, b) => a.next_at - b.next_at).slice(0, limit);
      return due.map((e) => {
        e.next_at = at + leaseMs;
        e.token = `m${(seq += 1)}`;
        return { order: record(e), token: e.token };
      });
    },
    async later(uid, token, inMs, read) {
      const e = live(uid);
      if (!e || e.token !== token) return false;
      e.token = null;
      if (read) e.reads += 1;
      e.next_at = now() + inMs;
      return true;
    },
    async postpone(uid, inMs) {
      const e = live(uid);
      if (e?.open) e.next_at = Math.max(e.next_at, now() + inMs);
    },
    async close(uid) {
      const e = live(uid);
      if (!e) return;
      e.open = false;
      e.token = null;
    },
    async count() {
      let n = 0;
      for (const e of entries.values()) if (e.open) n += 1;
      return n;
    },
  };
}
