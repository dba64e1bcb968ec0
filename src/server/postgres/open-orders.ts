/**
 * The open orders (once/open-orders.ts) in a PostgreSQL table beside the claims, on the claim store's pool. A lease is
 * one UPDATE over rows picked `FOR UPDATE SKIP LOCKED`, so two instances never take one order; due times and leases
 * are the database's `clock_timestamp()`, never an instance's clock.
 */
import type { LeasedOrder, OpenOrder, OpenOrderRecord, OpenOrderStore } from '../once/open-orders.js';

export type PgQuery = (what: string, text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;

export interface PostgresOpenOrdersOptions {
  query: PgQuery;
  /** Default `pay_checkout_open_orders`, created when missing. */
  table: string;
}

const at = (param: string) => `clock_timestamp() + ${param} * interval '1 millisecond'`;

const recordOf = (row: Record<string, unknown>): OpenOrderRecord => ({ ...(JSON.parse(String(row.body)) as OpenOrder), reads: Number(row.reads ?? 0), open: row.open === true });

export function postgresOpenOrders({ query, table }: PostgresOpenOrdersOptions): OpenOrderStore {
  let prepared: Promise<unknown> | undefined;
  const prepare = () =>
    (prepared ??= (async () => {
      const ignoreRace = (error: unknown) => {
        // Instances starting together race to create it; the loser's error says it exists.
        if (!['23505', '42P07'].includes(String((error as { code?: unknown }).code))) throw error;
      };
      await query(
        'open orders table',
        `CREATE TABLE IF NOT EXISTS ${table} (uid text PRIMARY KEY, body text NOT NULL, open boolean NOT NULL, reads integer NOT NULL DEFAULT 0,
         next_at timestamptz NOT NULL, token text, keep_until timestamptz NOT NULL)`,
        [],
      ).catch(ignoreRace);
      await query('open orders index', `CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (next_at) WHERE open`, []).catch(ignoreRace);
    })().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    }));
  const run = async (what: string, text: string, values: unknown[]) => {
    await prepare();
    return query(what, text, values);
  };
  let opened = 0;
  return {
    kind: 'postgres',
    async open(order, firstReadInMs, keepMs) {
      // Records no longer kept are deleted now and then, so the table holds about eight days of orders.
      if ((opened += 1) % 500 === 0) void run('open orders sweep', `DELETE FROM ${table} WHERE keep_until < clock_timestamp()`, []).catch(() => {});
      await run(
        'open order',
        `INSERT INTO ${table} (uid, body, open, reads, next_at, keep_until) VALUES ($1, $2, true, 0, ${at('$3')}, ${at('$4')}) ON CONFLICT (uid) DO NOTHING`,
        [order.uid, JSON.stringify(order), Math.max(0, Math.ceil(firstReadInMs)), Math.ceil(keepMs)],
      );
    },
    async get(uid) {
      const row = (await run('open order read', `SELECT body, reads, open FROM ${table} WHERE uid = $1 AND keep_until > clock_timestamp()`, [uid])).rows[0];
      return row ? recordOf(row) : undefined;
    },
    async lease(leaseMs, limit): Promise<LeasedOrder[]> {
      const token = crypto.randomUUID();
      const result = await run(
        'open orders lease',
        `UPDATE ${table} SET next_at = ${at('$1')}, token = $2 WHERE uid IN (
           SELECT uid FROM ${table} WHERE open AND next_at <= clock_timestamp() AND keep_until > clock_timestamp()
           ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING body, reads, open`,
        [Math.ceil(leaseMs), token, limit],
      );
      return result.rows.map((row) => ({ order: recordOf(row), token }));
    },
    async later(uid, token, inMs, read) {
      const result = await run(
        'open order later',
        `UPDATE ${table} SET token = NULL, reads = reads + $3, next_at = ${at('$4')} WHERE uid = $1 AND token = $2`,
        [uid, token, read ? 1 : 0, Math.max(0, Math.ceil(inMs))],
      );
      return result.rowCount === 1;
    },
    async postpone(uid, inMs) {
      await run('open order postpone', `UPDATE ${table} SET next_at = GREATEST(next_at, ${at('$2')}) WHERE uid = $1 AND open`, [uid, Math.ceil(inMs)]);
    },
    async close(uid) {
      await run('open order close', `UPDATE ${table} SET open = false, token = NULL WHERE uid = $1`, [uid]);
    },
    async count() {
      const row = (await run('open orders count', `SELECT count(*) AS n FROM ${table} WHERE open AND keep_until > clock_timestamp()`, [])).rows[0];
      return Number(row?.n ?? 0);
    },
  };
}
