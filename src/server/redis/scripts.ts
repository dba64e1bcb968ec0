/**
 * The store's Lua scripts and the keys they touch. Each script touches a claim and the epoch marker of the claim's
 * own Cluster slot, so it runs on one node. The marker says this Redis still has its memory: missing, the node
 * restarted empty; another epoch, some instance found that and the claims it remembered are being written back.
 */

// Marker value: `generation|untilMs`. The generation grows by one each time a node is found empty; untilMs ends the
// recovery window in which unknown keys are not claimed, while every instance writes back what it remembers.
// ARGV[4]: the caller's generation. A higher one on the node: catch up first; a lower one: the marker is being rewritten.
const markerCheck = `local m = redis.call('GET', KEYS[2])
if not m then return {'amnesia'} end
local bar = string.find(m, '|', 1, true)
local gen = tonumber(string.sub(m, 1, bar - 1))
if gen > tonumber(ARGV[4]) then return {'behind', tostring(gen)} end
if gen < tonumber(ARGV[4]) then return {'stale'} end`;

// d: body digest, t: fencing token while held, r: the stored response once done.
// ARGV: digest, token, leaseMs, generation.
export const claimScript = `${markerCheck}
local v = redis.call('HMGET', KEYS[1], 'd', 't', 'r')
if not v[1] then
  local now = redis.call('TIME')
  if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) < tonumber(string.sub(m, bar + 1)) then return {'recovering'} end
  redis.call('HSET', KEYS[1], 'd', ARGV[1], 't', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'claimed', ARGV[2]}
end
if v[1] ~= ARGV[1] then return {'mismatch'} end
if v[3] then return {'done', v[3]} end
return {'in_flight', v[1]}`;

// ARGV: token, response, ttlMs.
export const completeScript = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 't')
redis.call('HSET', KEYS[1], 'r', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

export const releaseScript = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

// Writes back a claim an instance remembers, unless the key is already there. ARGV: digest, token or '', response or '', ttlMs.
export const restoreScript = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'd', ARGV[1], 'r', ARGV[3])
else redis.call('HSET', KEYS[1], 'd', ARGV[1], 't', ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** CRC16/XMODEM, Redis Cluster's key hash. */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

export const slotCount = 16_384;

/** The Cluster slot of a key: the hash of its `{tag}` when it has a non-empty one, else of the whole key. */
export function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  return crc16(close > open + 1 ? key.slice(open + 1, close) : key) % slotCount;
}

let tags: string[] | undefined;
/** For each slot, a short tag that hashes to it (built once, about 160,000 hashes). */
function slotTags(): string[] {
  if (tags) return tags;
  const found: string[] = new Array(slotCount);
  let left = slotCount;
  for (let n = 0; left > 0; n++) {
    const tag = n.toString(36);
    const slot = crc16(tag) % slotCount;
    if (found[slot] === undefined) {
      found[slot] = tag;
      left -= 1;
    }
  }
  return (tags = found);
}

/** The epoch marker beside `claimKey`: one key on a single server, one per slot on a Cluster. */
export const markerKey = (prefix: string, claimKey: string, cluster: boolean) => (cluster ? `${prefix}epoch:{${slotTags()[slotOf(claimKey)]}}` : `${prefix}epoch`);

/** Every marker key (for writing a new epoch everywhere). */
export const allMarkerKeys = (prefix: string, cluster: boolean) => (cluster ? slotTags().map((tag) => `${prefix}epoch:{${tag}}`) : [`${prefix}epoch`]);
