/**
 * `createRedisStore()`: the claim store (claims.ts) shared through Redis, for any number of handler instances.
 * Each state change is one Lua script, so it is atomic on the server; leases and ttls are Redis expiries, so one
 * clock (Redis's) decides when a claim lapses. Pub/sub runs on a duplicated connection, as Redis requires.
 * The only file that loads `redis` (an optional peer dependency), and only when given a URL.
 */
import { ClaimStoreError, newToken, type ClaimResult, type ClaimStore, type ClaimView } from '../claims.js';

type Listener = (message: string, channel: string) => void;

/** The part of a node-redis (v4 and later) client this store uses; pass your own with `{ client }`. */
export interface RedisClientLike {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): RedisClientLike;
  subscribe(channel: string, listener: Listener): Promise<unknown>;
  unsubscribe(channel: string, listener: Listener): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://...`; the store opens (and closes) its own connections. */
  url?: string;
  /** An existing node-redis client; the store never closes it, only the subscriber it duplicates from it. */
  client?: RedisClientLike;
  /** Prefix of every key and channel; default `pay-checkout:`. */
  prefix?: string;
  /** A command unanswered in this time fails (the handler answers 503); default 2,000 ms. */
  commandTimeoutMs?: number;
  /** Connection errors (Redis reconnects by itself); default console.error, once per distinct message. */
  onError?: (error: unknown) => void;
}

// d: body digest, t: fencing token while held, r: the stored response once done.
const claimScript = `local v = redis.call('HMGET', KEYS[1], 'd', 't', 'r')
if not v[1] then
  redis.call('HSET', KEYS[1], 'd', ARGV[1], 't', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'claimed', ARGV[2]}
end
if v[1] ~= ARGV[1] then return {'mismatch'} end
if v[3] then return {'done', v[3]} end
return {'in_flight', v[1]}`;

const completeScript = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 't')
redis.call('HSET', KEYS[1], 'r', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

const releaseScript = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createRedisStore(options: RedisStoreOptions): ClaimStore {
  if (!options.url === !options.client) throw new TypeError('createRedisStore: give exactly one of `url` or `client`.');
  const prefix = options.prefix ?? 'pay-checkout:';
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const connectTimeoutMs = Math.max(timeoutMs, 10_000);
  let lastError = '';
  const onError =
    options.onError ??
    ((error: unknown) => {
      // A reconnect loop repeats the same error every attempt; say it once.
      if (messageOf(error) === lastError) return;
      lastError = messageOf(error);
      console.error('[pay-checkout] redis store:', lastError);
    });

  const open = async (client: RedisClientLike) => {
    if (!client.isOpen) await client.connect();
    return client;
  };
  const makeMain = async (): Promise<RedisClientLike> => {
    if (options.client) return open(options.client);
    const { createClient } = await import('redis');
    // No offline queue: while Redis is down a command fails at once (503) instead of waiting for a reconnect.
    const client = createClient({ url: options.url, disableOfflineQueue: true }) as unknown as RedisClientLike;
    client.on('error', onError);
    return open(client);
  };
  let main: Promise<RedisClientLike> | undefined;
  let subscriber: Promise<RedisClientLike> | undefined;
  const mainClient = () => (main ??= makeMain().catch((error: unknown) => {
    main = undefined;
    throw error;
  }));
  const subscriberClient = () =>
    (subscriber ??= mainClient().then((m) => {
      const sub = m.duplicate();
      sub.on('error', onError);
      return open(sub);
    }).catch((error: unknown) => {
      subscriber = undefined;
      throw error;
    }));

  const within = async <T>(promise: Promise<T>, limitMs: number, what: string): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ClaimStoreError(`redis ${what}: no answer within ${limitMs} ms`)), limitMs);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  /** Every failure, a timeout included, is a ClaimStoreError: the caller answers 503 and loses nothing. */
  const command = async <T>(what: string, run: (client: RedisClientLike) => Promise<T>): Promise<T> => {
    try {
      // Connecting (the first time, or after Redis came back) has its own, longer limit than one command.
      const client = await within(mainClient(), connectTimeoutMs, `${what} (connecting)`);
      return await within(run(client), timeoutMs, what);
    } catch (error) {
      throw error instanceof ClaimStoreError ? error : new ClaimStoreError(`redis ${what}: ${messageOf(error)}`, { cause: error });
    }
  };

  const shas = new Map<string, Promise<string>>();
  /** EVALSHA, loading the script with EVAL when Redis does not know it (first use, or after a restart). */
  const evalScript = (what: string, script: string, key: string, args: string[]) =>
    command(what, async (client) => {
      let sha = shas.get(script);
      if (!sha) shas.set(script, (sha = sha1(script)));
      try {
        return await client.sendCommand(['EVALSHA', await sha, '1', key, ...args]);
      } catch (error) {
        if (!messageOf(error).includes('NOSCRIPT')) throw error;
        return client.sendCommand(['EVAL', script, '1', key, ...args]);
      }
    });

  const keyOf = (key: string) => `${prefix}claim:${key}`;
  const ms = (value: number) => String(Math.max(1, Math.ceil(value)));

  return {
    async claim(key, digest, leaseMs): Promise<ClaimResult> {
      const token = newToken();
      let reply: string[];
      try {
        reply = (await evalScript('claim', claimScript, keyOf(key), [digest, token, ms(leaseMs)])) as string[];
      } catch (error) {
        // The claim may still run after we gave up on it (a timeout): undo it with the token only we know, on the
        // same connection, so it lands after the claim and the key is not held by nobody for a whole lease.
        void evalScript('release', releaseScript, keyOf(key), [token]).catch(() => {});
        throw error;
      }
      switch (reply[0]) {
        case 'claimed':
          return { state: 'claimed', token: String(reply[1]) };
        case 'done':
          return { state: 'done', response: String(reply[1]) };
        case 'in_flight':
          return { state: 'in_flight', digest: String(reply[1]) };
        default:
          return { state: 'mismatch' };
      }
    },
    async complete(key, token, response, ttlMs) {
      return (await evalScript('complete', completeScript, keyOf(key), [token, response, ms(ttlMs)])) === 1;
    },
    async release(key, token) {
      return (await evalScript('release', releaseScript, keyOf(key), [token])) === 1;
    },
    async inspect(key): Promise<ClaimView> {
      const [digest, token, response] = (await command('inspect', (c) => c.sendCommand(['HMGET', keyOf(key), 'd', 't', 'r']))) as (string | null)[];
      if (digest === null || digest === undefined) return { state: 'free' };
      if (response !== null && response !== undefined) return { state: 'done', digest, response };
      return { state: 'held', token: token ?? '', digest };
    },
    async publish(channel, message) {
      await command('publish', (c) => c.sendCommand(['PUBLISH', prefix + channel, message]));
    },
    async subscribe(channel, listener) {
      const sub = await subscriberClient().catch((error: unknown) => {
        throw new ClaimStoreError(`redis subscribe: ${messageOf(error)}`, { cause: error });
      });
      // Its own function per subscription, so unsubscribing one leaves the others on the same channel.
      const own: Listener = (message) => listener(message);
      await sub.subscribe(prefix + channel, own);
      return async () => {
        await sub.unsubscribe(prefix + channel, own);
      };
    },
    async close() {
      const closeClient = async (client: Promise<RedisClientLike> | undefined) => {
        const c = await client?.catch(() => undefined);
        if (c?.isOpen) await (c.close ?? c.quit)?.call(c);
      };
      await closeClient(subscriber);
      if (!options.client) await closeClient(main);
      main = subscriber = undefined;
    },
  };
}
