/**
 * `redisOutbox()`: the relay's outbox (outbox.ts) in Redis, shared by every instance on it. Each change of an entry is
 * one Lua script, so adding (with its order-and-status key), leasing and settling are atomic. Every key carries the
 * `{outbox}` hash tag, so on a Cluster they all live on one slot. Pending entries sit in a sorted set by due time; a
 * lease moves an entry's time to the lease's end, so an entry whose sender died is simply due again then.
 */
import { ClaimStoreError, withinBound } from '../../once/claims.js';
import { checkConnectOptions, connectLink, driverLoaded, type RedisConnectOptions } from '../../redis/connect.js';
import { storeConnections } from '../../redis/connections.js';
import type { RedisLink } from '../../redis/link.js';
import { deliveredKeepMs, listLimit, type DeliveryState, type Outbox, type OutboxEntry } from './outbox.js';

export interface RedisOutboxOptions extends RedisConnectOptions {
  /** Prefix of every key; default `pay-checkout:`, as the claim store's. */
  prefix?: string;
  /** A command unanswered in this time fails (the notice stays in the outbox); default 2,000 ms. */
  commandTimeoutMs?: number;
}

// Due times and leases are Redis' own clock (TIME), never an instance's: two instances whose clocks differ never
// take one entry at once. created_at and window_from stay the sender's (the give-up window is its business).
const clock = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: dedupe key, entry, due set. ARGV: id, key, body, created_at.
const addScript = `if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
${clock}
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'key', ARGV[2], 'body', ARGV[3], 'created_at', ARGV[4], 'state', 'pending',
  'attempts', 0, 'next_at', now, 'window_from', ARGV[4])
redis.call('ZADD', KEYS[3], now, ARGV[1])
return 1`;

// KEYS: due set. ARGV: (unused: the sender's now), leaseMs, limit, entry key prefix, token, only id ('' for any).
const leaseScript = `${clock}
local ids
if ARGV[6] ~= '' then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[6])
  if not score or tonumber(score) > now then return {} end
  ids = {ARGV[6]}
else
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
end
local out = {}
for _, id in ipairs(ids) do
  local entry = ARGV[4] .. id
  if redis.call('HGET', entry, 'state') ~= 'pending' then
    redis.call('ZREM', KEYS[1], id)
  else
    local untilMs = now + tonumber(ARGV[2])
    redis.call('ZADD', KEYS[1], untilMs, id)
    redis.call('HINCRBY', entry, 'attempts', 1)
    redis.call('HSET', entry, 'token', ARGV[5], 'next_at', untilMs)
    out[#out + 1] = redis.call('HGETALL', entry)
  end
end
return out`;

// KEYS: entry, due set, given-up set. ARGV: token, state, delay ms (pending), error, status, at, keepMs, id, dedupe key prefix.
const settleScript = `if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'token')
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'last_error', ARGV[4], 'last_status', ARGV[5])
if ARGV[2] == 'pending' then
  ${clock}
  redis.call('HSET', KEYS[1], 'next_at', now + tonumber(ARGV[3]))
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[8])
  return 1
end
redis.call('ZREM', KEYS[2], ARGV[8])
if ARGV[2] == 'given_up' then
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[8])
else
  redis.call('HSET', KEYS[1], 'delivered_at', ARGV[6])
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
  redis.call('PEXPIRE', ARGV[9] .. redis.call('HGET', KEYS[1], 'key'), ARGV[7])
end
return 1`;

// KEYS: entry, due set, given-up set. ARGV: the sender's now (the new window's start), id, dedupe key prefix.
const redeliverScript = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
${clock}
redis.call('HDEL', KEYS[1], 'token', 'delivered_at')
redis.call('HSET', KEYS[1], 'state', 'pending', 'next_at', now, 'window_from', ARGV[1], 'attempts', 0)
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', ARGV[3] .. redis.call('HGET', KEYS[1], 'key'))
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[2])
return 1`;

// KEYS: due set, given-up set. ARGV: entry key prefix, limit, which ('pending' / 'given_up' / 'both').
const listScript = `local out = {}
local function take(set)
  for _, id in ipairs(redis.call('ZRANGE', set, 0, tonumber(ARGV[2]) - 1)) do
    local e = redis.call('HGETALL', ARGV[1] .. id)
    if #e > 0 then out[#out + 1] = e end
  end
end
if ARGV[3] ~= 'given_up' then take(KEYS[1]) end
if ARGV[3] ~= 'pending' then take(KEYS[2]) end
return out`;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const numberOr = (value: string | undefined, fallback: number | null) => (value === undefined || value === '' ? fallback : Number(value));

function entryOf(flat: unknown): OutboxEntry {
  const pairs = flat as string[];
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) f[String(pairs[i])] = String(pairs[i + 1]);
  return {
    id: f.id ?? '',
    key: f.key ?? '',
    body: f.body ?? '',
    created_at: Number(f.created_at),
    state: (f.state ?? 'pending') as DeliveryState,
    attempts: Number(f.attempts ?? 0),
    next_at: Number(f.next_at),
    window_from: Number(f.window_from ?? f.created_at),
    last_error: f.last_error || null,
    last_status: numberOr(f.last_status, null),
    delivered_at: numberOr(f.delivered_at, null),
  };
}

export function redisOutbox(options: RedisOutboxOptions): Outbox {
  checkConnectOptions(options);
  const base = `${options.prefix ?? 'pay-checkout:'}{outbox}:`;
  const keys = { entry: `${base}e:`, dedupe: `${base}k:`, due: `${base}due`, givenUp: `${base}given-up` };
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const connections = storeConnections(timeoutMs);
  let link: Promise<RedisLink> | undefined;
  let ready = false;
  let closed = false;
  /** The connection attempt's first error: later calls fail at once with it while node-redis goes on reconnecting. */
  let trouble: unknown;
  let failConnect: ((error: unknown) => void) | undefined;
  /** Drops a connection that is closed, demoted (READONLY) or whose Sentinel master is gone: the next call connects anew. */
  const dropLink = () => {
    if (options.client || !link) return;
    const old = link;
    link = undefined;
    ready = false;
    void old.then((l) => l.close()).catch(() => {});
  };
  const connectionError = (error: unknown) => {
    // The master a sentinel named is gone: ask the sentinels again rather than retry its address for ever.
    if (ready) return void (options.sentinel && dropLink());
    trouble = error;
    failConnect?.(error);
  };

  const connect = () => {
    if (!link) {
      trouble = undefined;
      const attempt: Promise<RedisLink> = connectLink(options, connectionError, connections).then(
        (opened) => ((ready = true), (trouble = undefined), opened),
        (error: unknown) => {
          if (link === attempt) link = undefined;
          throw error;
        },
      );
      attempt.catch(() => {});
      link = attempt;
    }
    return link;
  };

  const run = async (what: string, script: string, scriptKeys: string[], args: string[]): Promise<unknown> => {
    if (closed) throw new ClaimStoreError(`redis outbox ${what}: the outbox is closed`);
    try {
      // The driver first: its loading is no wait on Redis, and not counted against the connect bound.
      if (!link) await driverLoaded(options);
      const pending = connect();
      if (trouble !== undefined) throw new ClaimStoreError(`redis outbox ${what}: not connected (${messageOf(trouble)})`, { cause: trouble });
      const failed = new Promise<never>((_, reject) => (failConnect = reject));
      failed.catch(() => {});
      const current = await withinBound(Promise.race([pending, failed]), Math.max(timeoutMs, 5_000), `redis outbox ${what} (connecting)`);
      return await withinBound(current.send(base, ['EVAL', script, String(scriptKeys.length), ...scriptKeys, ...args]), timeoutMs, `redis outbox ${what}`);
    } catch (error) {
      if (ready && /client is closed|READONLY|ECONNREFUSED|offline|Socket closed/i.test(messageOf(error))) dropLink();
      throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`redis outbox ${what}: ${messageOf(error)}`, { cause: error });
    }
  };

  return {
    kind: 'redis',
    durable: true,
    async add(entry) {
      const added = await run('add', addScript, [keys.dedupe + entry.key, keys.entry + entry.id, keys.due], [entry.id, entry.key, entry.body, String(entry.created_at)]);
      return Number(added) === 1;
    },
    async lease(now, leaseMs, limit, onlyId) {
      const token = crypto.randomUUID();
      const rows = (await run('lease', leaseScript, [keys.due], [String(now), String(Math.ceil(leaseMs)), String(limit), keys.entry, token, onlyId ?? ''])) as unknown[];
      return rows.map((row) => ({ entry: entryOf(row), token }));
    },
    async settle(id, token, s) {
      const nextAt = s.state === 'pending' ? String(Math.max(0, Math.round(s.delay_ms ?? s.next_at - Date.now()))) : '';
      const at = s.state === 'pending' ? '' : String(s.at);
      const error = s.state === 'delivered' ? '' : s.error;
      const status = s.status === null ? '' : String(s.status);
      const done = await run('settle', settleScript, [keys.entry + id, keys.due, keys.givenUp], [token, s.state, nextAt, error, status, at, String(deliveredKeepMs), id, keys.dedupe]);
      return Number(done) === 1;
    },
    async list(states, limit = listLimit) {
      const wantPending = states.includes('pending');
      const wantGivenUp = states.includes('given_up');
      if (!wantPending && !wantGivenUp) return [];
      const which = wantPending && wantGivenUp ? 'both' : wantPending ? 'pending' : 'given_up';
      const rows = (await run('list', listScript, [keys.due, keys.givenUp], [keys.entry, String(limit), which])) as unknown[];
      return rows.map(entryOf);
    },
    async redeliver(id, now) {
      return Number(await run('redeliver', redeliverScript, [keys.entry + id, keys.due, keys.givenUp], [String(now), id, keys.dedupe])) === 1;
    },
    async close() {
      closed = true;
      // Every client it made, a connecting or reconnecting one too; then the link, had it opened.
      await connections.close();
      const current = ready ? await link?.catch(() => undefined) : undefined;
      await current?.close();
    },
  };
}
