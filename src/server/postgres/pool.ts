/**
 * The PostgreSQL pool setup the claim store (store.ts) and the relay's outbox (serve/relay/postgres-outbox.ts) share: the
 * caller's own pool as given (never ended here), else one opened on first use from a connection string, bounded in
 * connecting and querying, kept alive, committing to disk before it answers, and cancelling on the server a statement
 * its caller gave up on. A failed open is forgotten, so the next query tries again. `pg` (an optional peer dependency)
 * is loaded only when a pool is opened here.
 */

/** The part of a node-postgres `Pool` this package uses; pass your own with `{ pool }`. */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  connect(): Promise<PgClientLike>;
  end?(): Promise<void>;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
  release(destroy?: boolean | Error): void;
}

export interface LazyPoolOptions {
  /** `postgres://user:password@host:port/database`: a pool is opened from it on first use, and ended by `close()`. */
  connectionString?: string | undefined;
  /** The caller's pool, used as it is and never ended here. */
  pool?: PgPoolLike | undefined;
  /** Connecting, a query, and a statement on the server are each bounded by this. */
  timeoutMs: number;
  /** The most connections a pool opened here holds; node-postgres's default (10) when unset. */
  max?: number;
  /** An idle connection of a pool opened here failed. */
  onError(error: unknown): void;
}

export interface LazyPool {
  /** The pool, opened on the first call. */
  get(): Promise<PgPoolLike>;
  /** Ends a pool opened here; the next `get()` would open another. */
  close(): Promise<void>;
}

export function lazyPool(options: LazyPoolOptions): LazyPool {
  const { timeoutMs } = options;
  let pool: Promise<PgPoolLike> | undefined;
  const open = async (): Promise<PgPoolLike> => {
    if (options.pool) return options.pool;
    const pg = await import('pg');
    const Pool = (pg.default ?? pg).Pool;
    const made = new Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      keepAlive: true,
      ...(options.max ? { max: options.max } : {}),
      // What is acknowledged is on disk (the server's default, made sure of per connection: a claim before the service
      // is called, a notice before its webhook is answered), and the server cancels a statement once its caller has
      // given up on it, so it cannot commit much later.
      options: `-c synchronous_commit=on -c statement_timeout=${timeoutMs}`,
    }) as unknown as PgPoolLike;
    made.on?.('error', options.onError);
    return made;
  };
  return {
    get: () =>
      (pool ??= open().catch((error: unknown) => {
        pool = undefined;
        throw error;
      })),
    async close() {
      const p = await pool?.catch(() => undefined);
      pool = undefined;
      if (p && !options.pool) await p.end?.();
    },
  };
}

/** `name` if it is a plain lower-case SQL name (a table, a channel), else a TypeError naming `owner`. */
export function sqlName(owner: string, name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new TypeError(`${owner}: "${name}" must be a lower-case SQL name (letters, digits, _).`);
  return name;
}
