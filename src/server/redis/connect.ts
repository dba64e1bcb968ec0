/**
 * Opens the link (link.ts) that the store's options name: a URL (a Cluster node is recognised and the cluster client
 * used), `rootNodes` (Cluster), `sentinel` (Sentinel), or a client the merchant made. `redis` is loaded only here.
 */
import type { Connections } from './connections.js';
import { clusterLink, sentinelLink, singleLink, topologyOf, type AnyRedisClient, type RedisClientLike, type RedisClusterLike, type RedisLink, type RedisSentinelLike } from './link.js';

/** A Sentinel group: the master group's name and where the sentinels listen (no sentinel password yet); the master's password and TLS go in `clientOptions`. */
export interface RedisSentinelConfig {
  name: string;
  sentinelRootNodes: { host: string; port: number }[];
}

export interface RedisConnectOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://...` (a Cluster node is recognised); the store opens and closes its connections. */
  url?: string;
  /**
   * A node-redis client (v4 or later) made with createClient(), createCluster() or createSentinel(); the store never
   * closes it. Anything else is refused when the store is created.
   */
  client?: object;
  /** Cluster nodes to discover the Cluster from: `[{ url: 'redis://host:port' }]`. */
  rootNodes?: { url: string }[];
  /** A Sentinel group: `{ name, sentinelRootNodes: [{ host, port }] }`. */
  sentinel?: RedisSentinelConfig;
  /** node-redis client options for the connections the store opens (`socket: { tls, keepAlive, ... }`, `pingInterval`, `password`, ...). */
  clientOptions?: Record<string, unknown>;
}

/**
 * Node-redis options for the connections the store opens. No offline queue: while Redis is away a command fails at
 * once (503) instead of queueing; a ping every 5 s and TCP keep-alive make a silent connection show.
 */
export function clientDefaults(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const socket = { connectTimeout: 2_000, keepAlive: true, ...((extra.socket as object | undefined) ?? {}) };
  return { disableOfflineQueue: true, pingInterval: 5_000, ...extra, socket };
}

/** Checks the options when the store is created, so a wrong client fails there and then, not as 503s later. */
export function checkConnectOptions(options: RedisConnectOptions): void {
  const given = (['url', 'client', 'rootNodes', 'sentinel'] as const).filter((name) => options[name] !== undefined);
  if (given.length !== 1) throw new TypeError('createRedisStore: give exactly one of `url`, `client`, `rootNodes` (Cluster) or `sentinel`.');
  if (options.client) topologyOf(options.client);
  if (options.rootNodes && !(Array.isArray(options.rootNodes) && options.rootNodes.length > 0)) throw new TypeError('createRedisStore: `rootNodes` lists at least one `{ url }` of the Cluster.');
  if (options.sentinel && !(options.sentinel.name && options.sentinel.sentinelRootNodes?.length)) throw new TypeError('createRedisStore: `sentinel` needs `name` (the master group) and `sentinelRootNodes`.');
}

/** Asks each sentinel in turn which address the master group `name` has now. */
async function sentinelMaster(createClient: (options: object) => unknown, config: RedisSentinelConfig, connections: Connections): Promise<{ host: string; port: number }> {
  let lastError: unknown = new Error('no sentinel answered');
  for (const node of config.sentinelRootNodes) {
    const client = connections.add(createClient({ socket: { host: node.host, port: node.port, connectTimeout: 1_000, reconnectStrategy: false } }) as RedisClientLike);
    client.on('error', () => {});
    try {
      await connections.connect(client);
      const reply = (await client.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', config.name])) as string[] | null;
      if (reply?.[0] && reply[1]) return { host: reply[0], port: Number(reply[1]) };
      lastError = new Error(`sentinel ${node.host}:${node.port} knows no master named ${config.name}`);
    } catch (error) {
      lastError = error;
    } finally {
      await connections.drop(client);
    }
  }
  throw lastError;
}

const serverVersion = (info: unknown) => Number(/redis_version:(\d+)/.exec(String(info))?.[1] ?? '0');

async function openCluster(cluster: RedisClusterLike, owned: boolean, connections: Connections): Promise<RedisLink> {
  try {
    if (!cluster.isOpen) await (owned ? connections.connect(cluster) : cluster.connect());
    // Sharded pub/sub needs Redis 7 on every master.
    const infos = await Promise.all(cluster.masters.map(async (master) => (await cluster.nodeClient(master)).sendCommand(['INFO', 'server'])));
    return clusterLink(cluster, owned, infos.every((info) => serverVersion(info) >= 7), connections);
  } catch (error) {
    // A cluster client of ours that failed to open is no one's: dropped here, or it would go on reconnecting.
    if (owned) await connections.drop(cluster);
    throw error;
  }
}

/**
 * Connects as the options say; `onError` hears every connection error (node-redis reconnects by itself). Every client
 * it makes is in `connections`, so the store's close() ends it even while it is still connecting.
 */
let driver: Promise<typeof import('redis')> | undefined;

/**
 * The `redis` package, loaded once per process. Loading it is no wait on Redis (a cold process on a busy machine may
 * take seconds over it), so a store awaits it before its connect bound starts; a failure to load is tried again.
 */
export function redisDriver(): Promise<typeof import('redis')> {
  return (driver ??= import('redis').catch((error: unknown) => {
    driver = undefined;
    throw error;
  }));
}

/** Loads the driver a connection of these options needs (none for a client passed in); never throws (connecting says why). */
export const driverLoaded = (options: RedisConnectOptions): Promise<unknown> => (options.client ? Promise.resolve() : redisDriver().catch(() => {}));

export async function connectLink(options: RedisConnectOptions, onError: (error: unknown) => void, connections: Connections): Promise<RedisLink> {
  const listen = <T extends AnyRedisClient>(client: T) => (client.on('error', onError), connections.add(client));
  if (options.client) {
    const client = options.client as AnyRedisClient;
    switch (topologyOf(client)) {
      case 'cluster':
        return openCluster(client as RedisClusterLike, false, connections);
      case 'sentinel':
        if (!client.isOpen) await client.connect();
        return sentinelLink(client as RedisSentinelLike, false, connections);
      default:
        if (!client.isOpen) await client.connect();
        return singleLink(client as RedisClientLike, false, onError, connections);
    }
  }
  const redis = await redisDriver();
  const defaults = clientDefaults(options.clientOptions);
  if (options.sentinel) {
    // Asked of the sentinels at each connection, and no reconnecting to a fixed address: when the master goes, the
    // store drops the connection (store.ts) and the next call asks again, so it follows a failover in seconds.
    const { host, port } = await sentinelMaster(redis.createClient, options.sentinel, connections);
    const master = listen(redis.createClient({ ...defaults, socket: { ...(defaults.socket as object), host, port, reconnectStrategy: false } }) as unknown as RedisClientLike);
    try {
      await connections.connect(master);
      const role = String(await master.sendCommand(['ROLE']));
      if (!role.startsWith('master')) throw new Error(`Sentinel named ${host}:${port}, which is not a master yet`);
    } catch (error) {
      await connections.drop(master);
      throw error;
    }
    return { ...singleLink(master, true, onError, connections), topology: 'sentinel' };
  }
  const makeCluster = (rootNodes: { url: string }[]) =>
    listen(redis.createCluster({ rootNodes, defaults } as Parameters<typeof redis.createCluster>[0]) as unknown as RedisClusterLike);
  if (options.rootNodes) return openCluster(makeCluster(options.rootNodes), true, connections);
  const single = listen(redis.createClient({ url: options.url, ...defaults }) as unknown as RedisClientLike);
  try {
    await connections.connect(single);
    // A Cluster node behind a plain URL: every key on another node's slot would be MOVED, so use the cluster client.
    if (/cluster_enabled:1/.test(String(await single.sendCommand(['INFO', 'cluster'])))) {
      await connections.drop(single);
      return openCluster(makeCluster([{ url: String(options.url) }]), true, connections);
    }
  } catch (error) {
    await connections.drop(single);
    throw error;
  }
  return singleLink(single, true, onError, connections);
}
