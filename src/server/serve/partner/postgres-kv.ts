/** The partner registry's keys in one PostgreSQL table (kv.ts): `key` primary, `value`, `expires_at` (ms, null for never). */
import { ClaimStoreError, withinBound } from '../../once/claims.js';
import type { PgPoolLike } from '../../postgres/store.js';
import { checkKey, type Kv } from './kv.js';

export interface PostgresKvOptions {
  url: string;
  /** Default `pay_checkout_partner`, created when missing. */
  table?: string;
  commandTimeoutMs?: number;
  now?: () => number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function postgresKv(options: PostgresKvOptions): Kv {
  const table = options.table ?? 'pay_checkout_partner';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(table)) throw new TypeError(`postgresKv: "${table}" must be a lower-case SQL name.`);
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const now = options.now ?? Date.now;
  let pool: Promise<PgPoolLike> | undefined;
  let prepared: Promise<unknown> | undefined;
  let closed = false;
  const makePool = async (): Promise<PgPoolLike> => {
    const pg = await import('pg');
    const Pool = (pg.default ?? pg).Pool;
    const made = new Pool({ connectionString: options.url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, keepAlive: true, max: 4, options: `-c synchronous_commit=on -c statement_timeout=${timeoutMs}` }) as unknown as PgPoolLike;
    made.on?.('error', () => {});
    return made;
  };
  const prepare = (p: PgPoolLike) =>
    (prepared ??= p
      .query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, value text NOT NULL, expires_at bigint)`)
      .catch((error: unknown) => {
        // Instances starting together race to create it; the loser's error says it exists.
        if (!['23505', '42P07'].includes(String((error as { code?: unknown }).code))) {
          prepared = undefined;
          throw error;
        }
      }));
  const query = async (what: string, text: string, values: unknown[]) => {
    if (closed) throw new ClaimStoreError(`postgres registry ${what}: closed`);
    try {
      const p = await (pool ??= makePool().catch((error: unknown) => {
        pool = undefined;
        throw error;
      }));
      return await withinBound(prepare(p).then(() => p.query(text, values)), timeoutMs, `postgres registry ${what}`);
    } catch (error) {
      throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`postgres registry ${what}: ${messageOf(error)}`, { cause: error });
    }
  };
  const live = '(expires_at IS NULL OR expires_at > $2)';
  let writes = 0;
  return {
    kind: 'postgres',
    async get(key) {
      const result = await query('get', `SELECT value FROM ${table} WHERE key = $1 AND ${live}`, [checkKey(key), now()]);
      return result.rows[0] ? String(result.rows[0].value) : null;
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      const result = await query('get', `SELECT key, value FROM ${table} WHERE key = ANY($1) AND ${live}`, [keys.map(checkKey), now()]);
      const found = new Map(result.rows.map((row) => [String(row.key), String(row.value)]));
      return keys.map((k) => found.get(k) ?? null);
    },
    async set(key, value, { ttlMs, onlyNew } = {}) {
      const at = now();
      // Now and then, the rows past their time go.
      if ((writes += 1) % 500 === 0) void query('sweep', `DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at <= $1`, [at]).catch(() => {});
      const expires = ttlMs ? at + Math.ceil(ttlMs) : null;
      const result = await query(
        'set',
        `INSERT INTO ${table} (key, value, expires_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
         ${onlyNew ? `WHERE ${table}.expires_at IS NOT NULL AND ${table}.expires_at <= $4` : 'WHERE $4::bigint IS NOT NULL'}`,
        [checkKey(key), value, expires, at],
      );
      return result.rowCount === 1;
    },
    async delete(key) {
      await query('delete', `DELETE FROM ${table} WHERE key = $1`, [checkKey(key)]);
    },
    async add(key, delta, ttlMs) {
      const at = now();
      const gone = `${table}.expires_at IS NOT NULL AND ${table}.expires_at <= $4`;
      const result = await query(
        'add',
        `INSERT INTO ${table} (key, value, expires_at) VALUES ($1, $2::bigint::text, $3) ON CONFLICT (key) DO UPDATE
         SET value = ((CASE WHEN ${gone} THEN 0 ELSE ${table}.value::bigint END) + $2::bigint)::text,
             expires_at = CASE WHEN ${gone} THEN EXCLUDED.expires_at ELSE ${table}.expires_at END
         RETURNING value`,
        [checkKey(key), Math.trunc(delta), at + Math.max(1, Math.ceil(ttlMs)), at],
      );
      return Number(result.rows[0]?.value ?? 0);
    },
    async scan(prefix) {
      const result = await query('scan', `SELECT key, value FROM ${table} WHERE starts_with(key, $1) AND ${live} ORDER BY key`, [checkKey(prefix), now()]);
      return result.rows.map((row) => [String(row.key), String(row.value)] as [string, string]);
    },
    async close() {
      closed = true;
      const p = await pool?.catch(() => undefined);
      pool = undefined;
      await p?.end?.();
    },
  };
}
