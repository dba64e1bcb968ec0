/** The partner registry's keys in Redis (kv.ts), over the claim store's own connection helpers; one `{partner}` hash tag, so a Cluster keeps them on one slot. */
import { ClaimStoreError, withinBound } from '../../once/claims.js';
import { connectLink } from '../../redis/connect.js';
import { storeConnections } from '../../redis/connections.js';
import type { RedisLink } from '../../redis/link.js';
import { checkKey, type Kv } from './kv.js';

export interface RedisKvOptions {
  url: string;
  /** Default `pay-checkout:{partner}:`. */
  prefix?: string;
  commandTimeoutMs?: number;
}

/** INCRBY, and the counter's expiry when it is new. */
const addScript = "local v = redis.call('INCRBY', KEYS[1], ARGV[1]) if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return v";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function redisKv(options: RedisKvOptions): Kv {
  const base = options.prefix ?? 'pay-checkout:{partner}:';
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const connections = storeConnections(timeoutMs);
  let link: Promise<RedisLink> | undefined;
  /** The link once made: a command then waits on no connecting bound (a timer and a race fewer per command). */
  let made: RedisLink | undefined;
  let closed = false;
  const connect = () =>
    // Each command is bounded by `withinBound` below, and sent by the link without node-redis's own per-command timeout
    // (link.ts, `bounded`); the client's default stays on its PING.
    (link ??= connectLink({ url: options.url }, () => {}, connections).then(
      (current) => (made = current),
      (error: unknown) => {
        link = undefined;
        throw error;
      },
    ));
  const send = async (what: string, args: string[]): Promise<unknown> => {
    if (closed) throw new ClaimStoreError(`redis registry ${what}: closed`);
    try {
      const current = made ?? (await withinBound(connect(), Math.max(timeoutMs, 5_000), `redis registry ${what} (connecting)`));
      return await withinBound(current.send(base, args), timeoutMs, `redis registry ${what}`);
    } catch (error) {
      throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`redis registry ${what}: ${messageOf(error)}`, { cause: error });
    }
  };
  return {
    kind: 'redis',
    async get(key) {
      const value = await send('get', ['GET', base + checkKey(key)]);
      return value === null || value === undefined ? null : String(value);
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      const values = (await send('get', ['MGET', ...keys.map((k) => base + checkKey(k))])) as unknown[];
      return values.map((v) => (v === null || v === undefined ? null : String(v)));
    },
    async set(key, value, { ttlMs, onlyNew } = {}) {
      const args = ['SET', base + checkKey(key), value, ...(ttlMs ? ['PX', String(Math.ceil(ttlMs))] : []), ...(onlyNew ? ['NX'] : [])];
      return (await send('set', args)) !== null;
    },
    async delete(key) {
      await send('delete', ['DEL', base + checkKey(key)]);
    },
    async add(key, delta, ttlMs) {
      const value = await send('add', ['EVAL', addScript, '1', base + checkKey(key), String(Math.trunc(delta)), String(Math.max(1, Math.ceil(ttlMs)))]);
      return Number(value);
    },
    async scan(prefix) {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = (await send('scan', ['SCAN', cursor, 'MATCH', `${base.replace(/[{}*?[\]]/g, '\\$&')}${checkKey(prefix)}*`, 'COUNT', '1000'])) as [string, string[]];
        cursor = String(next);
        keys.push(...found.map(String));
      } while (cursor !== '0');
      const out: [string, string][] = [];
      for (let i = 0; i < keys.length; i += 500) {
        const batch = keys.slice(i, i + 500);
        const values = (await send('scan', ['MGET', ...batch])) as unknown[];
        batch.forEach((key, j) => {
          const value = values[j];
          if (value !== null && value !== undefined) out.push([key.slice(base.length), String(value)]);
        });
      }
      return out;
    },
    async close() {
      closed = true;
      await connections.close();
      const current = await link?.catch(() => undefined);
      await current?.close();
    },
  };
}
