/**
 * `createRedisStore()`: the claim store (claims.ts) shared through Redis, for any number of handler instances, on a
 * single server, a managed primary, a Sentinel group or a Cluster. Each state change is one Lua script on one node,
 * so it is atomic; leases and ttls are Redis expiries. Every call is bounded in time; a claim is acknowledged by a
 * replica (WAIT) where there is one; a node that came back empty is found by its epoch marker (scripts.ts) and the
 * claims this instance remembers (journal.ts) are written back before unknown keys are claimed again.
 */
import { redisLimitStore } from './limits.js';
import { errorFields, storeEvents, type EventSink } from '../events.js';
import { ClaimStoreError, newToken, undoLostClaim, withinBound, type ClaimResult, type ClaimStore, type ClaimView } from '../once/claims.js';
import { defaultClaimTimings } from '../once/exactly-once.js';
import { checkConnectOptions, connectLink, driverLoaded, type RedisConnectOptions } from './connect.js';
import { storeConnections } from './connections.js';
import { describeDurability, readDurability, type RedisDurability } from './durability.js';
import { createJournal } from './journal.js';
import { redisOpenOrders } from './open-orders.js';
import type { Listener, RedisLink } from './link.js';
import { allMarkerKeys, claimScript, completeScript, markerKey, releaseScript, restoreScript } from './scripts.js';

export interface RedisStoreOptions extends RedisConnectOptions {
  /** Prefix of every key and channel; default `pay-checkout:`. */
  prefix?: string;
  /** A command (or subscribe, unsubscribe, connect) unanswered in this time fails: the handler answers 503; close() gives replies under way as long. Default 2,000 ms. */
  commandTimeoutMs?: number;
  /** Replicas that must hold a claim before the service is called (WAIT); default `'auto'`: 1 where the master has replicas. */
  replicaAcks?: number | 'auto';
  /** How long a claim waits for its replica acknowledgement; default 1,000 ms. */
  replicaAckTimeoutMs?: number;
  /** How long this instance remembers its own claims, to write them back into a Redis that lost them; default the claim lease (16 min). */
  rememberMs?: number;
  /** After a node is found empty, unknown keys wait this long (503) while every instance writes back its claims; default 3,000 ms. */
  recoveryMs?: number;
  /** Every store failure (each distinct cause once until Redis answers again); default: a `store_error` event. */
  onError?: (error: unknown) => void;
  /** The store's events (`store_error`, `store_durability`, `store_write_back`); default the handler's `onEvent`, else the console. */
  onEvent?: EventSink;
}

/** The Redis claim store, plus what it found out about the deployment and a way to share its connection. */
export interface RedisStore extends ClaimStore {
  /** Settles once Redis first answered: whether a claim this store acknowledged can still be lost, and why. */
  readonly durability: Promise<RedisDurability>;
  /**
   * Runs one command on this store's connection, routed by `key` on a Cluster and to the primary on Sentinel, with
   * the store's time bound: for a rate limiter (or any counter) that should live beside the claims.
   */
  command(key: string, args: string[]): Promise<unknown>;
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const ms = (value: number) => String(Math.max(1, Math.ceil(value)));

export function createRedisStore(options: RedisStoreOptions): RedisStore {
  checkConnectOptions(options);
  const prefix = options.prefix ?? 'pay-checkout:';
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const ackTimeoutMs = options.replicaAckTimeoutMs ?? 1_000;
  const recoveryMs = options.recoveryMs ?? 3_000;
  const rememberMs = options.rememberMs ?? defaultClaimTimings.leaseMs;
  // rememberMs 0 turns write-back off (measured in docs/site/servers/exactly-once.md: what an empty restart then costs).
  const journal = createJournal(rememberMs, rememberMs > 0 ? 50_000 : 0);
  const said = new Set<string>();
  const events = storeEvents(options.onEvent);
  const durabilityEvent = (found: RedisDurability, text: string) =>
    events.emit({ level: found.canLoseClaims ? 'warn' : 'info', name: 'store_durability', message: `redis store: ${text}`, store: 'redis', can_lose_claims: found.canLoseClaims });
  /** Each distinct cause once, until Redis answers again: a reconnect loop or a 503 storm is a few lines, not thousands. */
  const say = (error: unknown) => {
    if (said.has(messageOf(error)) || said.size > 50) return;
    said.add(messageOf(error));
    if (options.onError) options.onError(error);
    else events.emit({ level: 'error', name: 'store_error', message: `redis store: ${messageOf(error)}`, store: 'redis', error: errorFields(error, undefined, false) });
  };

  /** Every client the store makes, so close() ends them all; replies under way get one command's bound. */
  const connections = storeConnections(timeoutMs);
  let link: Promise<RedisLink> | undefined;
  let ready: RedisLink | undefined;
  let failConnect: ((error: unknown) => void) | undefined;
  /** The error of the connection attempt under way, if it has failed once: later calls fail at once with it. */
  let connectTrouble: unknown;
  let generation: number | undefined;
  let markersWritten = false;
  let replicaAcks = 0;
  let resolveDurability: (value: RedisDurability) => void = () => {};
  const durability = new Promise<RedisDurability>((resolve) => (resolveDurability = resolve));
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const within = <T>(promise: Promise<T>, limitMs: number, what: string) => withinBound(promise, limitMs, `redis ${what}`);

  const connectionError = (error: unknown) => {
    say(error);
    failConnect?.(error);
    if (!ready) connectTrouble = error;
    // The master a sentinel named is gone: ask the sentinels again (a fixed address would be retried forever).
    else if (options.sentinel) dropConnection('the Sentinel master connection broke');
  };
  const connectLimitMs = Math.max(timeoutMs, 5_000);
  const connect = () => {
    if (link) return link;
    connectTrouble = undefined;
    let dropped = false;
    const attempt: Promise<RedisLink> = connectLink(options, connectionError, connections)
      .then(async (opened) => {
        try {
          await setUp(opened);
        } catch (error) {
          // A connection whose set-up failed is no one's: closed here, or its client would reconnect forever.
          void opened.close().catch(() => {});
          throw error;
        }
        if (dropped || closed) {
          void opened.close().catch(() => {});
          throw new ClaimStoreError(dropped ? 'redis: a connection given up on answered late' : 'redis: the store is closed');
        }
        ready = opened;
        failConnect = undefined;
        connectTrouble = undefined;
        return opened;
      })
      .catch((error: unknown) => {
        if (link === attempt) link = undefined;
        throw error;
      })
      .finally(() => clearTimeout(stuck));
    // A connection that opens but never answers (a stopped or vanished host) would hold every call: after the bound
    // later calls fail at once, and after twice the bound the attempt is dropped so the next call connects anew.
    let waited = 0;
    const stuck = setTimeout(() => {
      if (link !== attempt) return;
      connectTrouble ??= new ClaimStoreError(`redis connecting: no answer within ${connectLimitMs} ms`);
      if ((waited += 1) < 2) return void stuck.refresh();
      dropped = true;
      link = undefined;
    }, connectLimitMs);
    stuck.unref?.();
    attempt.catch(() => {});
    return (link = attempt);
  };
  /** Commands in a row that got no answer on the current connection. */
  let timeouts = 0;
  /** Drops a connection that answers READONLY (a demoted primary) or nothing at all; the next call reconnects. */
  const dropConnection = (why: string) => {
    if (options.client || !link) return;
    timeouts = 0;
    say(new Error(`${why}: reconnecting`));
    const old = link;
    link = undefined;
    ready = undefined;
    void old.then((l) => l.close()).catch(() => {});
  };

  /** Every failure, a timeout included, is a ClaimStoreError: the caller answers 503 and loses nothing. */
  let closed = false;
  const run = async <T>(what: string, work: (link: RedisLink) => Promise<T>): Promise<T> => {
    // After close(), background retries (an undo, a heartbeat) must not open a new connection.
    if (closed) throw new ClaimStoreError(`redis ${what}: the store is closed`);
    let current = ready;
    try {
      if (!current) {
        // The driver first: its loading is no wait on Redis, and not counted against the connect bound.
        if (!link) await driverLoaded(options);
        // Connecting fails at once on its first error (Redis down at start: 503 now, not after a long wait).
        const pending = connect();
        if (connectTrouble !== undefined) throw new ClaimStoreError(`redis ${what}: not connected (${messageOf(connectTrouble)})`, { cause: connectTrouble });
        const failed = new Promise<never>((_, reject) => (failConnect = reject));
        failed.catch(() => {});
        // Connecting (a Cluster's discovery, asking the sentinels) may take longer than one command.
        current = await within(Promise.race([pending, failed]), connectLimitMs, `${what} (connecting)`);
      }
      const result = await within(work(current), timeoutMs, what);
      timeouts = 0;
      said.clear();
      return result;
    } catch (error) {
      const message = messageOf(error);
      // Only the connection this call used, if it is still the current one: a late failure on a connection already
      // dropped must not drop the new one being made.
      const reconnect = (why: string) => current && current === ready && dropConnection(why);
      if (message.includes('READONLY')) reconnect('Redis answered READONLY (this node is now a replica)');
      else if (options.sentinel && ready && /offline|closed|ECONNRE/i.test(message)) reconnect('the Sentinel master does not answer');
      // Only a connection that was up and went quiet; a connection still being made is left to finish.
      if (message.includes('no answer within') && !message.includes('(connecting)') && ++timeouts >= 2) reconnect('Redis stopped answering');
      const failure = error instanceof ClaimStoreError ? error : new ClaimStoreError(`redis ${what}: ${message}`, { cause: error });
      say(failure);
      throw failure;
    }
  };

  const shas = new Map<string, Promise<string>>();
  /** EVALSHA, loading the script with EVAL when the node does not know it (first use, a restart, another node). */
  const evalOn = async (send: (args: string[]) => Promise<unknown>, script: string, keys: string[], args: string[]) => {
    let sha = shas.get(script);
    if (!sha) shas.set(script, (sha = sha1(script)));
    try {
      return await send(['EVALSHA', await sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!messageOf(error).includes('NOSCRIPT')) throw error;
      return send(['EVAL', script, String(keys.length), ...keys, ...args]);
    }
  };
  /** A write, then (with replicas) WAIT on the same connection: false when too few replicas acknowledged it. */
  const writeAcked = (l: RedisLink, key: string, script: string, keys: string[], args: string[]) =>
    l.onOneConnection(key, async (send) => {
      const reply = await evalOn(send, script, keys, args);
      if (replicaAcks === 0) return { reply, acked: true };
      const count = Number(await send(['WAIT', String(replicaAcks), String(ackTimeoutMs)]));
      return { reply, acked: count >= replicaAcks };
    });

  const keyOf = (key: string) => `${prefix}claim:${key}`;
  const markerOf = (claimKey: string, l: RedisLink) => markerKey(prefix, claimKey, l.topology === 'cluster');

  /** Writes `value` into every marker (one per slot on a Cluster), `nx`: only where missing. */
  const writeMarkers = async (l: RedisLink, value: string, nx: boolean) => {
    const keys = allMarkerKeys(prefix, l.topology === 'cluster');
    // In batches, so a buyer's command is not queued behind thousands of marker writes.
    for (let i = 0; i < keys.length; i += 256) {
      await Promise.all(keys.slice(i, i + 256).map((key) => l.send(key, ['SET', key, value, ...(nx ? ['NX'] : [])])));
    }
  };

  /** First connection: what this Redis can lose, said once; the epoch marker read (or written, on a fresh Redis). */
  const setUp = async (l: RedisLink) => {
    const found = await readDurability(l, options.replicaAcks ?? 'auto');
    // After a failover the new master may have no replica yet: said, since claims can then be lost again.
    if (generation !== undefined && found.replicaAcks !== replicaAcks) durabilityEvent(found, `now ${describeDurability(found)}`);
    replicaAcks = found.replicaAcks;
    if (generation === undefined) {
      const first = allMarkerKeys(prefix, l.topology === 'cluster')[0] ?? '';
      const current = (await l.send(first, ['GET', first])) as string | null;
      generation = current ? Number(current.split('|')[0]) : 0;
      // In the background: a Cluster has 16,384 markers. Until they are written, a missing one is written, not feared.
      void writeMarkers(l, `${generation}|0`, true).then(() => (markersWritten = true), say);
      resolveDurability(found);
      // One line at start: whether this deployment can lose a claim, so the merchant knows before a failover does.
      durabilityEvent(found, `${describeDurability(found)}${current ? '' : ' No epoch marker was found: a first start, or this Redis lost its data before this instance started.'}`);
      heartbeat = setInterval(() => void checkMarker().catch(() => {}), 1_000);
      heartbeat.unref?.();
    }
  };

  let recovering: Promise<void> | undefined;
  /**
   * A node lost its memory (`next` undefined: this instance found it and opens generation + 1, refusing unknown keys
   * for recoveryMs) or another instance found that (`next`: catch up). Either way: write back what this instance holds.
   */
  const recover = (l: RedisLink, next?: number) =>
    (recovering ??= (async () => {
      if (next === undefined) {
        next = (generation ?? 0) + 1;
        say(new Error(`Redis came back empty (its epoch marker is gone): unknown keys wait ${recoveryMs} ms while every instance writes back the claims it holds`));
        await writeMarkers(l, `${next}|${Date.now() + recoveryMs}`, false);
      }
      let restored = 0;
      for (const [key] of journal.live()) {
        // Read now, not from the list: the holder may have completed or released it since the loop began.
        const entry = journal.get(key);
        if (!entry) continue;
        const send = (a: string[]) => l.send(keyOf(key), a);
        const left = ms(entry.until - Date.now());
        if ((await evalOn(send, restoreScript, [keyOf(key)], [entry.digest, entry.token ?? '', entry.response ?? '', left])) === 1) restored += 1;
        // Completed or released while the write-back was on its way (Redis did not know the key yet, so that call found
        // nothing): done again on top of the restored claim, with its token, so it is never left held.
        const now = journal.get(key);
        if (entry.token === undefined || now === entry) continue;
        if (now?.response !== undefined) await evalOn(send, completeScript, [keyOf(key)], [entry.token, now.response, ms(now.until - Date.now())]);
        else await evalOn(send, releaseScript, [keyOf(key)], [entry.token]);
      }
      generation = Math.max(generation ?? 0, next);
      events.emit({ level: 'info', name: 'store_write_back', message: `redis store: generation ${generation}: wrote back ${restored} claim(s) this instance held.`, store: 'redis', generation: generation ?? 0, restored });
    })().finally(() => (recovering = undefined)));

  const checkMarker = async () => {
    const l = ready;
    if (!l || recovering) return;
    const first = allMarkerKeys(prefix, l.topology === 'cluster')[0] ?? '';
    const value = (await within(l.send(first, ['GET', first]), timeoutMs, 'marker')) as string | null;
    const seen = value ? Number(value.split('|')[0]) : undefined;
    if (seen === undefined) await recover(l);
    else if (seen > (generation ?? 0)) await recover(l, seen);
  };

  const releaseOn = async (key: string, token: string) => (await run('release', (l) => evalOn((a) => l.send(keyOf(key), a), releaseScript, [keyOf(key)], [token]))) === 1;

  /** Redis answered that it took no claim (it is writing back its claims): nothing to undo. */
  const refusals = new WeakSet<object>();
  const refusal = (message: string) => {
    const error = new ClaimStoreError(message);
    refusals.add(error);
    return error;
  };

  const claimOnce = (l: RedisLink, key: string, digest: string, token: string, leaseMs: number) =>
    writeAcked(l, keyOf(key), claimScript, [keyOf(key), markerOf(keyOf(key), l)], [digest, token, ms(leaseMs), String(generation ?? 0)]);

  const store: RedisStore = {
    durability,
    async claim(key, digest, leaseMs): Promise<ClaimResult> {
      const token = newToken();
      let reply: string[];
      try {
        reply = await run('claim', async (l) => {
          for (let attempt = 0; ; attempt++) {
            const { reply: answer, acked } = await claimOnce(l, key, digest, token, leaseMs);
            const [state, detail] = answer as string[];
            if (state === 'claimed' && !acked) throw new ClaimStoreError(`redis claim: no replica acknowledged it within ${ackTimeoutMs} ms`);
            const marker = markerOf(keyOf(key), l);
            if (attempt < 2 && state === 'amnesia' && !markersWritten) await l.send(marker, ['SET', marker, `${generation}|0`, 'NX']);
            else if (attempt < 2 && state === 'amnesia') await recover(l);
            else if (attempt < 2 && state === 'behind') await recover(l, Number(detail));
            else if (attempt < 2 && state === 'stale') await l.send(marker, ['SET', marker, `${generation}|${Date.now() + recoveryMs}`]);
            else if (state === 'recovering' || state === 'amnesia' || state === 'behind' || state === 'stale') {
              throw refusal('redis claim: Redis came back empty; unknown keys wait while every instance writes back its claims');
            } else return answer as string[];
          }
        });
      } catch (error) {
        // The claim may still run (or have run) after we gave up on it: a timeout, no replica ack, a master that died
        // after its replica got the claim. A command already sent runs within a bound or two, or never.
        if (!refusals.has(error as object)) undoLostClaim(error, async () => closed || (await releaseOn(key, token)), leaseMs, 2 * timeoutMs);
        throw error;
      }
      switch (reply[0]) {
        case 'claimed':
          journal.claimed(key, digest, token, leaseMs);
          return { state: 'claimed', token };
        case 'done':
          return { state: 'done', response: String(reply[1]) };
        case 'in_flight':
          return { state: 'in_flight', digest: String(reply[1]) };
        default:
          return { state: 'mismatch' };
      }
    },
    async complete(key, token, response, ttlMs) {
      // Remembered first: if Redis is away now and comes back empty, this reply is written back with the claim.
      journal.completed(key, token, response, ttlMs);
      const { reply, acked } = await run('complete', (l) => writeAcked(l, keyOf(key), completeScript, [keyOf(key)], [token, response, ms(ttlMs)]));
      if (!acked) throw new ClaimStoreError(`redis complete: no replica acknowledged it within ${ackTimeoutMs} ms`);
      return reply === 1;
    },
    async release(key, token) {
      journal.released(key, token);
      return releaseOn(key, token);
    },
    async inspect(key): Promise<ClaimView> {
      const [digest, token, response] = (await run('inspect', (l) => l.send(keyOf(key), ['HMGET', keyOf(key), 'd', 't', 'r']))) as (string | null)[];
      if (digest === null || digest === undefined) return { state: 'free' };
      if (response !== null && response !== undefined) return { state: 'done', digest, response };
      return { state: 'held', token: token ?? '', digest };
    },
    async publish(channel, message) {
      await run('publish', (l) => l.publish(prefix + channel, message));
    },
    async subscribe(channel, listener) {
      // Its own function per subscription, so unsubscribing one leaves the others on the same channel.
      const own: Listener = (message) => listener(message);
      const subscribed = await run('subscribe', async (l) => (await l.subscribe(prefix + channel, own), l));
      return async () => {
        await within(subscribed.unsubscribe(prefix + channel, own), timeoutMs, 'unsubscribe');
      };
    },
    attachEvents: events.attach,
    command: (key, args) => run(String(args[0] ?? 'command').toLowerCase(), (l) => l.send(key, args)),
    async close() {
      closed = true;
      clearInterval(heartbeat);
      const current = ready;
      link = undefined;
      ready = undefined;
      // Every client this store made ends (connections.ts): the pub/sub one, one still connecting or reconnecting to a
      // Redis that is gone. A connection attempt under way is not awaited: with Redis gone it would never settle.
      await Promise.all([current?.close(), connections.close()]);
    },
  };
  // The abuse limits' counters beside the claims, on the same routed connection (Cluster slots, Sentinel's primary).
  store.openOrders = redisOpenOrders({ command: store.command, prefix });
  store.limitStore = redisLimitStore({ command: store.command, ...(options.prefix !== undefined ? { prefix: `${options.prefix}limit:` } : {}) });
  // Connects now, so the start-up line says what this Redis can lose, and the first buyer does not wait for it.
  void connect().catch(() => {});
  return store;
}
