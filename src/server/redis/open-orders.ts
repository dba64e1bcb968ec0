/**
 * The open orders (once/open-orders.ts) in Redis, on the claim store's connection: a hash per order (`o` the record,
 * `r` reads, `open`, `t` the lease's token) and one sorted set of the open ones by due time. Every key carries the
 * `{sweep}` hash tag, so on a Cluster they live on one slot and each change is one Lua script, atomic. Due times and
 * leases are Redis' own `TIME`, so instances whose clocks differ still never read one order at once.
 */
import type { LeasedOrder, OpenOrder, OpenOrderRecord, OpenOrderStore } from '../once/open-orders.js';

export interface RedisOpenOrdersOptions {
  /** One command routed by `key` (the store's `command`). */
  command(key: string, args: string[]): Promise<unknown>;
  /** Default `pay-checkout:`, as the claim store's. */
  prefix?: string;
}

const clock = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: record, due set. ARGV: uid, record JSON, first read in ms, keep ms.
const openScript = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
${clock}
redis.call('HSET', KEYS[1], 'o', ARGV[2], 'r', 0, 'open', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
return 1`;

// KEYS: due set. ARGV: lease ms, limit, record key prefix, token.
const leaseScript = `${clock}
local out = {}
for _, uid in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))) do
  local key = ARGV[3] .. uid
  local v = redis.call('HMGET', key, 'o', 'r', 'open')
  if not v[1] or v[3] ~= '1' then
    redis.call('ZREM', KEYS[1], uid)
  else
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), uid)
    redis.call('HSET', key, 't', ARGV[4])
    out[#out + 1] = v[1]
    out[#out + 1] = v[2]
  end
end
return out`;

// KEYS: record, due set. ARGV: uid, token, in ms, read (1/0).
const laterScript = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[2] then return 0 end
${clock}
redis.call('HDEL', KEYS[1], 't')
if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[1], 'r', 1) end
if redis.call('HGET', KEYS[1], 'open') == '1' then redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1]) end
return 1`;

// KEYS: record, due set. ARGV: uid, in ms.
const postponeScript = `if redis.call('HGET', KEYS[1], 'open') ~= '1' then return 0 end
${clock}
local due = redis.call('ZSCORE', KEYS[2], ARGV[1])
if due and tonumber(due) < now + tonumber(ARGV[2]) then redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1]) end
return 1`;

// KEYS: record, due set. ARGV: uid.
const closeScript = `redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'open', 0) redis.call('HDEL', KEYS[1], 't') end
return 1`;

const recordOf = (json: unknown, reads: unknown, open: boolean): OpenOrderRecord => ({ ...(JSON.parse(String(json)) as OpenOrder), reads: Number(reads ?? 0), open });

export function redisOpenOrders(options: RedisOpenOrdersOptions): OpenOrderStore {
  const base = `${options.prefix ?? 'pay-checkout:'}{sweep}:`;
  const keys = { record: `${base}o:`, due: `${base}due` };
  const run = (script: string, scriptKeys: string[], args: string[]) => options.command(scriptKeys[0] ?? keys.due, ['EVAL', script, String(scriptKeys.length), ...scriptKeys, ...args]);
  return {
    kind: 'redis',
    async open(order, firstReadInMs, keepMs) {
      await run(openScript, [keys.record + order.uid, keys.due], [order.uid, JSON.stringify(order), String(Math.max(0, Math.ceil(firstReadInMs))), String(Math.ceil(keepMs))]);
    },
    async get(uid) {
      const [json, reads, open] = (await options.command(keys.record + uid, ['HMGET', keys.record + uid, 'o', 'r', 'open'])) as (string | null)[];
      return json ? recordOf(json, reads, open === '1') : undefined;
    },
    async lease(leaseMs, limit): Promise<LeasedOrder[]> {
      const token = crypto.randomUUID();
      const flat = (await run(leaseScript, [keys.due], [String(Math.ceil(leaseMs)), String(limit), keys.record, token])) as unknown[];
      const leased: LeasedOrder[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) leased.push({ order: recordOf(flat[i], flat[i + 1], true), token });
      return leased;
    },
    async later(uid, token, inMs, read) {
      return Number(await run(laterScript, [keys.record + uid, keys.due], [uid, token, String(Math.max(0, Math.ceil(inMs))), read ? '1' : '0'])) === 1;
    },
    async postpone(uid, inMs) {
      await run(postponeScript, [keys.record + uid, keys.due], [uid, String(Math.ceil(inMs))]);
    },
    async close(uid) {
      await run(closeScript, [keys.record + uid, keys.due], [uid]);
    },
    async count() {
      return Number(await options.command(keys.due, ['ZCARD', keys.due]));
    },
  };
}
