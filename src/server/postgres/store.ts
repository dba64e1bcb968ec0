/**
 * `createPostgresStore()`: the claim store (claims.ts) in a PostgreSQL table, for merchants who already run one. Each
 * state change is one statement, atomic on its row; with synchronous commit a claim is on disk before the service is
 * called, so a crash or restart forgets nothing. Waking across instances is LISTEN/NOTIFY on one channel. Leases use
 * the database's clock. `pg` (an optional peer dependency) is loaded only here, and only when given a connection string.
 */
import { errorFields, storeEvents, type EventSink } from '../events.js';
import { postgresOpenOrders } from './open-orders.js';
import { lazyPool, sqlName, type PgClientLike, type PgPoolLike } from './pool.js';
import { addListener, ClaimStoreError, newToken, undoLostClaim, withinBound, type ClaimResult, type ClaimStore, type ClaimView } from '../once/claims.js';

export type { PgClientLike, PgPoolLike };

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; the store opens (and closes) its own pool. */
  connectionString?: string;
  /** An existing node-postgres Pool; the store never ends it. */
  pool?: PgPoolLike;
  /** The claims table; default `pay_checkout_claims`, created when missing. */
  table?: string;
  /** The open orders the sweep follows; default `pay_checkout_open_orders` (`<table>_open_orders` beside a claims table of another name). */
  openOrdersTable?: string;
  /** The NOTIFY channel; default `pay_checkout`. */
  channel?: string;
  /** A query unanswered in this time fails (the handler answers 503); default 2,000 ms. */
  commandTimeoutMs?: number;
  /** Every store failure (each distinct cause once until the database answers again); default: a `store_error` event. */
  onError?: (error: unknown) => void;
  /** The store's events (`store_error`, `store_durability`); default the handler's `onEvent`, else the console. */
  onEvent?: EventSink;
}

export interface PostgresDurability {
  synchronousCommit: string;
  fsync: string;
  /** Whether a claim this store acknowledged can be forgotten by a crash (synchronous_commit or fsync off). */
  canLoseClaims: boolean;
}

export interface PostgresStore extends ClaimStore {
  /** Settles once the database first answered: whether a committed claim survives a crash. */
  readonly durability: Promise<PostgresDurability>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  if (!options.connectionString === !options.pool) throw new TypeError('createPostgresStore: give exactly one of `connectionString` or `pool`.');
  const table = sqlName('createPostgresStore', options.table ?? 'pay_checkout_claims');
  const channel = sqlName('createPostgresStore', options.channel ?? 'pay_checkout');
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  let said = '';
  const events = storeEvents(options.onEvent);
  const say = (error: unknown) => {
    if (messageOf(error) === said) return;
    said = messageOf(error);
    if (options.onError) options.onError(error);
    else events.emit({ level: 'error', name: 'store_error', message: `postgres store: ${said}`, store: 'postgres', error: errorFields(error, undefined, false) });
  };

  const pool = lazyPool({ connectionString: options.connectionString, pool: options.pool, timeoutMs, onError: say });
  let resolveDurability: (value: PostgresDurability) => void = () => {};
  const durability = new Promise<PostgresDurability>((resolve) => (resolveDurability = resolve));
  let prepared: Promise<void> | undefined;
  const prepare = (p: PgPoolLike) =>
    (prepared ??= (async () => {
      await p.query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, digest text NOT NULL, token text, response text, expires_at timestamptz NOT NULL)`).catch((error: unknown) => {
        // Instances starting together race to create it: the one that loses gets a unique violation, and the table is there.
        if ((error as { code?: unknown }).code !== '23505' && (error as { code?: unknown }).code !== '42P07') throw error;
      });
      const settings = await p.query(`SELECT current_setting('synchronous_commit') AS sync, current_setting('fsync') AS fsync`);
      const row = settings.rows[0] ?? {};
      const found = { synchronousCommit: String(row.sync), fsync: String(row.fsync), canLoseClaims: row.sync === 'off' || row.fsync === 'off' };
      resolveDurability(found);
      events.emit({
        level: found.canLoseClaims ? 'warn' : 'info',
        name: 'store_durability',
        message: `postgres store: synchronous_commit ${found.synchronousCommit}, fsync ${found.fsync}: ${found.canLoseClaims ? 'CAN LOSE CLAIMS in a crash' : 'a committed claim survives a crash'}.`,
        store: 'postgres',
        can_lose_claims: found.canLoseClaims,
      });
    })().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    }));

  const within = <T>(promise: Promise<T>, what: string) => withinBound(promise, timeoutMs, `postgres ${what}`);
  /** Every failure, a timeout included, is a ClaimStoreError: the caller answers 503 and loses nothing. */
  let closed = false;
  const query = async (what: string, text: string, values: unknown[]) => {
    // After close(), background retries must not open a new pool.
    if (closed) throw new ClaimStoreError(`postgres ${what}: the store is closed`);
    try {
      const p = await pool.get();
      const result = await within(prepare(p).then(() => p.query(text, values)), what);
      said = '';
      return result;
    } catch (error) {
      const failure = error instanceof ClaimStoreError ? error : new ClaimStoreError(`postgres ${what}: ${messageOf(error)}`, { cause: error });
      say(failure);
      throw failure;
    }
  };
  const live = `expires_at > clock_timestamp()`;
  const until = (param: string) => `clock_timestamp() + ${param} * interval '1 millisecond'`;

  // LISTEN on one pooled connection kept for it; NOTIFY carries `channel\nmessage`.
  const listeners = new Map<string, Set<(message: string) => void>>();
  let listening: Promise<PgClientLike> | undefined;
  let stopListening = () => {};
  const listen = (): Promise<PgClientLike> => {
    if (listening) return listening;
    const current: Promise<PgClientLike> = (async () => {
      const p = await pool.get();
      const client = await within(p.connect(), 'listen');
      let gone = false;
      const lost = (error?: Error) => {
        if (error) say(error);
        if (gone) return;
        gone = true;
        if (listening === current) listening = undefined;
        client.release(true);
        // Back now (every second until the database answers) while anyone is still listening.
        const again = () => {
          if (listeners.size > 0) void listen().catch((e: unknown) => (say(e), setTimeout(again, 1_000).unref?.()));
        };
        setTimeout(again, 500).unref?.();
      };
      client.on('error', lost);
      client.on('end', () => lost());
      stopListening = () => lost();
      client.on('notification', ({ payload = '' }) => {
        const cut = payload.indexOf('\n');
        for (const listener of [...(listeners.get(payload.slice(0, cut)) ?? [])]) {
          try {
            listener(payload.slice(cut + 1));
          } catch (error) {
            events.emit({ level: 'error', name: 'store_listener_failed', message: 'a claim store listener threw', store: 'postgres', error: errorFields(error) });
          }
        }
      });
      await within(client.query(`LISTEN ${channel}`), 'listen');
      return client;
    })().catch((error: unknown) => {
      if (listening === current) listening = undefined;
      throw error;
    });
    return (listening = current);
  };

  const release = async (key: string, token: string) => (await query('release', `DELETE FROM ${table} WHERE key = $1 AND token = $2 AND ${live}`, [key, token])).rowCount === 1;
  // How long after a failed claim it could still commit: the server cancels it after statement_timeout (the bound)
  // on the store's own pool; a merchant's pool may have none, hence the margin.
  const settleMs = 2 * timeoutMs + 5_000;

  let claimsSinceSweep = 0;
  const sweep = () => {
    // Expired rows are invisible already; deleting them now and then keeps the table small.
    if ((claimsSinceSweep += 1) % 500 === 0) void query('sweep', `DELETE FROM ${table} WHERE expires_at < clock_timestamp() - interval '1 minute'`, []).catch(() => {});
  };

  const openOrdersTable = sqlName('createPostgresStore', options.openOrdersTable ?? (table === 'pay_checkout_claims' ? 'pay_checkout_open_orders' : `${table}_open_orders`.slice(0, 63)));
  return {
    durability,
    attachEvents: events.attach,
    openOrders: postgresOpenOrders({ query, table: openOrdersTable }),
    async claim(key, digest, leaseMs): Promise<ClaimResult> {
      sweep();
      for (let attempt = 0; attempt < 3; attempt++) {
        const token = newToken();
        const taken = await query(
          'claim',
          `INSERT INTO ${table} AS c (key, digest, token, response, expires_at) VALUES ($1, $2, $3, NULL, ${until('$4')})
           ON CONFLICT (key) DO UPDATE SET digest = EXCLUDED.digest, token = EXCLUDED.token, response = NULL, expires_at = EXCLUDED.expires_at
           WHERE c.expires_at <= clock_timestamp() RETURNING token`,
          [key, digest, token, Math.ceil(leaseMs)],
        ).catch((error: unknown) => {
          // Committed perhaps, with the answer lost (the server killed, the bound passed): undone with its token. A
          // statement still running is cancelled by the server within its statement_timeout; settleMs leaves room for that.
          undoLostClaim(error, async () => closed || (await release(key, token)), leaseMs, settleMs);
          throw error;
        });
        if (taken.rowCount === 1) return { state: 'claimed', token };
        const found = (await query('claim', `SELECT digest, token, response FROM ${table} WHERE key = $1 AND ${live}`, [key])).rows[0];
        // Lapsed between the two statements: try again.
        if (!found) continue;
        if (found.digest !== digest) return { state: 'mismatch' };
        return found.response !== null ? { state: 'done', response: String(found.response) } : { state: 'in_flight', digest };
      }
      throw new ClaimStoreError('postgres claim: the key kept changing under it');
    },
    async complete(key, token, response, ttlMs) {
      const result = await query('complete', `UPDATE ${table} SET token = NULL, response = $3, expires_at = ${until('$4')} WHERE key = $1 AND token = $2 AND ${live}`, [key, token, response, Math.ceil(ttlMs)]);
      return result.rowCount === 1;
    },
    release,
    async inspect(key): Promise<ClaimView> {
      const found = (await query('inspect', `SELECT digest, token, response FROM ${table} WHERE key = $1 AND ${live}`, [key])).rows[0];
      if (!found) return { state: 'free' };
      if (found.response !== null) return { state: 'done', digest: String(found.digest), response: String(found.response) };
      return { state: 'held', token: String(found.token), digest: String(found.digest) };
    },
    async publish(name, message) {
      await query('publish', 'SELECT pg_notify($1, $2)', [channel, `${name}\n${message}`]);
    },
    async subscribe(name, listener) {
      await listen().catch((error: unknown) => {
        say(error);
        throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`postgres subscribe: ${messageOf(error)}`, { cause: error });
      });
      return addListener(listeners, name, listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      const client = await listening?.catch(() => undefined);
      listening = undefined;
      await client?.query('UNLISTEN *').catch(() => {});
      stopListening();
      await pool.close();
    },
  };
}
