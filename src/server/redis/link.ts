/**
 * One way to talk to any Redis deployment node-redis reaches: a single server or managed primary endpoint, a Cluster
 * (each command routed by its key's slot), or a Sentinel-managed primary. The store (store.ts) speaks only to this.
 */
import { ClaimStoreError } from '../once/claims.js';
import type { Connections } from './connections.js';

export type Listener = (message: string, channel: string) => void;
export type RedisTopology = 'single' | 'cluster' | 'sentinel';

/** The per-command options node-redis takes (v5 and later; v4 ignores them). */
export interface CommandOptions {
  timeout?: number;
}

/**
 * What every command sent through a link carries: no driver timeout. Each caller (the store's `run`, the outbox, the
 * registry) bounds its commands itself (`withinBound`), and node-redis's own per-command timeout (5 s by default)
 * would arm an AbortSignal timer per command on top (measured 19 µs a command against 1.15 µs without). The client's
 * own default stays on what the driver sends by itself (its PING every `pingInterval`) and on the connecting checks.
 */
export const bounded: CommandOptions = Object.freeze({ timeout: 0 });

/** What a node-redis single client (v4 and later, `createClient()`) has that this store uses. */
export interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady?: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: string[], options?: CommandOptions): Promise<unknown>;
  duplicate(): RedisClientLike;
  subscribe(channel: string, listener: Listener): Promise<unknown>;
  unsubscribe(channel: string, listener: Listener): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): unknown;
}

/** What a node-redis cluster client (`createCluster()`) has that this store uses. */
export interface RedisClusterLike {
  readonly isOpen: boolean;
  readonly isReady?: boolean;
  readonly masters: readonly object[];
  connect(): Promise<unknown>;
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[], options?: CommandOptions): Promise<unknown>;
  subscribe(channel: string, listener: Listener): Promise<unknown>;
  unsubscribe(channel: string, listener: Listener): Promise<unknown>;
  sSubscribe(channel: string, listener: Listener): Promise<unknown>;
  sUnsubscribe(channel: string, listener: Listener): Promise<unknown>;
  nodeClient(node: unknown): Promise<{ sendCommand(args: string[], options?: CommandOptions): Promise<unknown> }>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close?(): Promise<unknown>;
  destroy?(): unknown;
}

/** What a node-redis sentinel client (`createSentinel()`) has that this store uses. */
export interface RedisSentinelLike {
  readonly isOpen: boolean;
  readonly isReady?: boolean;
  connect(): Promise<unknown>;
  sendCommand(isReadonly: boolean | undefined, args: string[], options?: CommandOptions): Promise<unknown>;
  subscribe(channel: string, listener: Listener): Promise<unknown>;
  unsubscribe(channel: string, listener: Listener): Promise<unknown>;
  acquire(): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close?(): Promise<unknown>;
  destroy?(): unknown;
}

export type AnyRedisClient = RedisClientLike | RedisClusterLike | RedisSentinelLike;

/** The store's view of Redis: commands routed by key, pub/sub, and the masters for INFO. */
export interface RedisLink {
  readonly topology: RedisTopology;
  /** Sends one command; on a cluster to the master owning `key`'s slot (any master when `key` is undefined). */
  send(key: string | undefined, args: string[]): Promise<unknown>;
  /** Runs `work` on one connection to `key`'s master, so a WAIT in it covers the writes before it. */
  onOneConnection<T>(key: string, work: (send: (args: string[]) => Promise<unknown>) => Promise<T>): Promise<T>;
  /** The same command on every master (INFO, marker checks): one answer each. */
  onEveryMaster(args: string[]): Promise<unknown[]>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, listener: Listener): Promise<void>;
  unsubscribe(channel: string, listener: Listener): Promise<void>;
  /** Ends what the store opened (connections.ts), pub/sub included; a client the merchant passed is left open. */
  close(): Promise<void>;
}

const has = (value: object, ...names: string[]) => names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

/** Which kind of node-redis client this is, or why it is refused (the store fails at creation, not with a 503 later). */
export function topologyOf(client: unknown): RedisTopology {
  if (client && typeof client === 'object') {
    if (has(client, 'acquire', 'sendCommand', 'subscribe')) return 'sentinel';
    if (has(client, 'nodeClient', 'sSubscribe', 'sendCommand') && 'masters' in client) return 'cluster';
    if (has(client, 'sendCommand', 'duplicate', 'subscribe', 'unsubscribe', 'connect') && 'isOpen' in client) return 'single';
  }
  throw new TypeError(
    'createRedisStore: `client` must be a node-redis client (redis v4 or later): createClient(), createCluster() or createSentinel(). ' +
      'For another library, pass `{ url }`, `{ rootNodes }` (Cluster) or `{ sentinel }` and let the store connect.',
  );
}

/**
 * A single server: commands on one connection, pub/sub on a duplicate (a subscribed connection runs nothing else),
 * opened at the first subscribe. Once closed, it opens nothing more: an unsubscribe that comes late (a wait whose
 * subscribe was answered after close() began) has nothing left to undo.
 */
export function singleLink(main: RedisClientLike, owned: boolean, onError: (error: unknown) => void, connections: Connections): RedisLink {
  let closed = false;
  /** The pub/sub client as soon as it is made (so close() can end it while it connects), and its connecting. */
  let subscriber: { client: RedisClientLike; connected: Promise<RedisClientLike> } | undefined;
  const subscriberClient = (): Promise<RedisClientLike> => {
    if (closed) return Promise.reject(new ClaimStoreError('redis: the connection is closed'));
    if (!subscriber) {
      const client = connections.add(main.duplicate());
      client.on('error', onError);
      const made = { client, connected: connections.connect(client) };
      made.connected.catch(() => {
        if (subscriber === made) subscriber = undefined;
        void connections.end(client);
      });
      subscriber = made;
    }
    return subscriber.connected;
  };
  return {
    topology: 'single',
    send: (_key, args) => main.sendCommand(args, bounded),
    onOneConnection: (_key, work) => work((args) => main.sendCommand(args, bounded)),
    onEveryMaster: async (args) => [await main.sendCommand(args, bounded)],
    publish: async (channel, message) => void (await main.sendCommand(['PUBLISH', channel, message], bounded)),
    subscribe: async (channel, listener) => void (await (await subscriberClient()).subscribe(channel, listener)),
    unsubscribe: async (channel, listener) => {
      // Without a pub/sub connection (closed, never opened, or failed) there is no subscription to end.
      if (closed || !subscriber) return;
      await (await subscriber.connected).unsubscribe(channel, listener);
    },
    async close() {
      closed = true;
      const sub = subscriber?.client;
      subscriber = undefined;
      await Promise.all([sub && connections.end(sub), owned && connections.end(main)]);
    },
  };
}

/**
 * A Cluster: each command to the master of its key's slot (node-redis follows MOVED/ASK); wake-ups on sharded
 * pub/sub (SPUBLISH/SSUBSCRIBE, Redis 7) so a message stays on its slot's shard, else on classic pub/sub.
 */
export function clusterLink(cluster: RedisClusterLike, owned: boolean, sharded: boolean, connections: Connections): RedisLink {
  return {
    topology: 'cluster',
    send: (key, args) => cluster.sendCommand(key, false, args, bounded),
    onOneConnection: (key, work) => work((args) => cluster.sendCommand(key, false, args, bounded)),
    onEveryMaster: (args) => Promise.all(cluster.masters.map(async (master) => (await cluster.nodeClient(master)).sendCommand(args, bounded))),
    publish: async (channel, message) => void (await cluster.sendCommand(channel, false, [sharded ? 'SPUBLISH' : 'PUBLISH', channel, message], bounded)),
    subscribe: async (channel, listener) => void (await (sharded ? cluster.sSubscribe(channel, listener) : cluster.subscribe(channel, listener))),
    unsubscribe: async (channel, listener) => void (await (sharded ? cluster.sUnsubscribe(channel, listener) : cluster.unsubscribe(channel, listener))),
    close: async () => {
      if (owned) await connections.end(cluster);
    },
  };
}

/** A Sentinel-managed primary: node-redis finds the current master and follows a failover by itself. */
export function sentinelLink(sentinel: RedisSentinelLike, owned: boolean, connections: Connections): RedisLink {
  return {
    topology: 'sentinel',
    send: (_key, args) => sentinel.sendCommand(false, args, bounded),
    // One master connection (node-redis's default masterPoolSize of 1), so a WAIT covers the claim sent before it.
    onOneConnection: (_key, work) => work((args) => sentinel.sendCommand(false, args, bounded)),
    onEveryMaster: async (args) => [await sentinel.sendCommand(false, args, bounded)],
    publish: async (channel, message) => void (await sentinel.sendCommand(false, ['PUBLISH', channel, message], bounded)),
    subscribe: async (channel, listener) => void (await sentinel.subscribe(channel, listener)),
    unsubscribe: async (channel, listener) => void (await sentinel.unsubscribe(channel, listener)),
    close: async () => {
      if (owned) await connections.end(sentinel);
    },
  };
}
