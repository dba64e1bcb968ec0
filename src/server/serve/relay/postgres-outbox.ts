/**
 * `postgresOutbox()`: the relay's outbox (outbox.ts) in a PostgreSQL table, shared by every instance on it. The order
 * and status are a unique key, so an entry is added once; a lease is one UPDATE over rows picked `FOR UPDATE SKIP
 * LOCKED`, so two instances never take the same row; a settlement matches the lease's token. `pg` (an optional peer
 * dependency) is loaded only here.
 */
import { ClaimStoreError, withinBound } from '../../once/claims.js';
import { lazyPool, sqlName, type PgPoolLike } from '../../postgres/pool.js';
import { deliveredKeepMs, listLimit, type DeliveryState, type Outbox, type OutboxEntry } from './outbox.js';

export interface PostgresOutboxOptions {
  /** `postgres://user:password@host:port/database`; the outbox opens (and closes) its own pool. */
  url?: string;
  /** An existing node-postgres Pool; never ended by the outbox. */
  pool?: PgPoolLike;
  /** Default `pay_checkout_outbox`, created when missing. */
  table?: string;
  /** A query unanswered in this time fails (the notice stays in the outbox); default 2,000 ms. */
  commandTimeoutMs?: number;
}

/** Due times and leases on the database's clock, in ms, never an instance's: instances whose clocks differ never take one row at once. */
const dbNow = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const entryOf = (row: Record<string, unknown>): OutboxEntry => ({
  id: String(row.id),
  key: String(row.key),
  body: String(row.body),
  created_at: Number(row.created_at),
  state: String(row.state) as DeliveryState,
  attempts: Number(row.attempts),
  next_at: Number(row.next_at),
  window_from: Number(row.window_from),
  last_error: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
  last_status: numberOrNull(row.last_status),
  delivered_at: numberOrNull(row.delivered_at),
});

export function postgresOutbox(options: PostgresOutboxOptions): Outbox {
  if (!options.url === !options.pool) throw new TypeError('postgresOutbox: give exactly one of `url` or `pool`.');
  const table = sqlName('postgresOutbox', options.table ?? 'pay_checkout_outbox');
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  // A few connections: the relay sends a handful of notices at a time. An idle connection's failure shows in the next query.
  const pool = lazyPool({ connectionString: options.url, pool: options.pool, timeoutMs, max: 4, onError: () => {} });
  let prepared: Promise<unknown> | undefined;
  let closed = false;

  const prepare = (p: PgPoolLike) =>
    (prepared ??= (async () => {
      const ignoreRace = (error: unknown) => {
        // Instances starting together race to create it; the loser's error says it exists.
        if (!['23505', '42P07'].includes(String((error as { code?: unknown }).code))) throw error;
      };
      await p
        .query(
          `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, key text NOT NULL UNIQUE, body text NOT NULL, created_at bigint NOT NULL,
           state text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_at bigint NOT NULL, window_from bigint NOT NULL, token text,
           last_error text, last_status integer, delivered_at bigint)`,
        )
        .catch(ignoreRace);
      await p.query(`CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (next_at) WHERE state = 'pending'`).catch(ignoreRace);
    })().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    }));

  const query = async (what: string, text: string, values: unknown[]) => {
    if (closed) throw new ClaimStoreError(`postgres outbox ${what}: the outbox is closed`);
    try {
      const p = await pool.get();
      return await withinBound(
        prepare(p).then(() => p.query(text, values)),
        timeoutMs,
        `postgres outbox ${what}`,
      );
    } catch (error) {
      throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`postgres outbox ${what}: ${messageOf(error)}`, { cause: error });
    }
  };

  let settled = 0;
  const sweep = (now: number) => {
    // Delivered rows are kept a while (the order-and-status key with them), then deleted now and then.
    if ((settled += 1) % 200 === 0) void query('sweep', `DELETE FROM ${table} WHERE state = 'delivered' AND delivered_at < $1`, [now - deliveredKeepMs]).catch(() => {});
  };

  return {
    kind: 'postgres',
    durable: true,
    async add(entry) {
      const result = await query(
        'add',
        `INSERT INTO ${table} (id, key, body, created_at, state, attempts, next_at, window_from) VALUES ($1, $2, $3, $4, 'pending', 0, ${dbNow}, $4) ON CONFLICT DO NOTHING`,
        [entry.id, entry.key, entry.body, entry.created_at],
      );
      return result.rowCount === 1;
    },
    async lease(_now, leaseMs, limit, onlyId) {
      const token = crypto.randomUUID();
      const result = await query(
        'lease',
        `UPDATE ${table} SET attempts = attempts + 1, token = $2, next_at = ${dbNow} + $1 WHERE id IN (
           SELECT id FROM ${table} WHERE state = 'pending' AND next_at <= ${dbNow} AND ($4::text IS NULL OR id = $4)
           ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING *`,
        [Math.ceil(leaseMs), token, limit, onlyId ?? null],
      );
      return result.rows.map((row) => ({ entry: entryOf(row), token }));
    },
    async settle(id, token, s) {
      sweep(s.state === 'pending' ? s.next_at : s.at);
      const result = await query(
        'settle',
        `UPDATE ${table} SET token = NULL, state = $3, next_at = COALESCE(${dbNow} + $4, next_at), last_error = $5, last_status = $6, delivered_at = $7 WHERE id = $1 AND token = $2`,
        [id, token, s.state, s.state === 'pending' ? Math.max(0, Math.round(s.delay_ms ?? s.next_at - Date.now())) : null, s.state === 'delivered' ? null : s.error, s.status, s.state === 'delivered' ? s.at : null],
      );
      return result.rowCount === 1;
    },
    async list(states, limit = listLimit) {
      const result = await query('list', `SELECT * FROM ${table} WHERE state = ANY($1) ORDER BY created_at LIMIT $2`, [[...states], limit]);
      return result.rows.map(entryOf);
    },
    async redeliver(id, now) {
      const result = await query(
        'redeliver',
        `UPDATE ${table} SET state = 'pending', next_at = ${dbNow}, window_from = $2, attempts = 0, token = NULL, delivered_at = NULL WHERE id = $1`,
        [id, now],
      );
      return result.rowCount === 1;
    },
    async close() {
      closed = true;
      await pool.close();
    },
  };
}
