/**
 * The node-redis clients a store opened, so its close() ends every one: ready, still connecting, reconnecting to a
 * Redis that is gone, or made after close() began. A client the merchant passed in is never one of them.
 */
import { ClaimStoreError } from '../once/claims.js';

/** What ending a node-redis client takes: single, Cluster or Sentinel; `quit` and `disconnect` are node-redis 4's. */
export interface Closable {
  readonly isReady?: boolean;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): unknown;
  disconnect?(): Promise<unknown>;
}

export interface Connections {
  /** Takes in a client just made; once closed, the client is ended at once and this throws. */
  add<T extends Closable>(client: T): T;
  /**
   * Connects a client taken in. One ended meanwhile can still finish connecting (node-redis's destroy() misses a socket
   * not made yet), and would then live on, pinging: it is ended again, and this throws.
   */
  connect<T extends Closable & { connect(): Promise<unknown> }>(client: T): Promise<T>;
  /**
   * Ends one client. A ready one gets `graceMs` for the replies under way, then its socket is dropped; one that is
   * not ready (connecting, or reconnecting to a Redis that is gone) has nothing to finish and stops at once.
   */
  end(client: Closable): Promise<void>;
  /** Drops one client's socket at once: a connection given up on. */
  drop(client: Closable): Promise<void>;
  /** Ends every client, and refuses any made from now on. */
  close(): Promise<void>;
}

/** Drops a client's socket now; one already ended (or a Sentinel's async destroy failing) is no error. */
async function destroy(client: Closable): Promise<void> {
  try {
    await (client.destroy ?? client.disconnect)?.call(client);
  } catch {
    // Already ended.
  }
}

export function storeConnections(graceMs: number): Connections {
  const clients = new Set<Closable>();
  let closed = false;

  /** Each client's ending, so a client ended twice (its link's close and the store's at once) is closed once. */
  const ending = new WeakMap<Closable, Promise<void>>();
  const end = (client: Closable): Promise<void> => {
    clients.delete(client);
    let ended = ending.get(client);
    if (!ended) ending.set(client, (ended = endOnce(client)));
    return ended;
  };
  const endOnce = async (client: Closable) => {
    // node-redis's close() waits for every reply: from a Redis that went away, or one gone silent, it never comes.
    const graceful = client.close ?? client.quit;
    if (!client.isReady || !graceful) return destroy(client);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const closing = Promise.resolve().then(() => graceful.call(client));
    const finished = await Promise.race([closing.then(() => true, () => false), graceOver]);
    clearTimeout(timer);
    if (!finished) await destroy(client);
  };

  return {
    add(client) {
      if (closed) {
        void destroy(client);
        throw new ClaimStoreError('redis: the store is closed');
      }
      clients.add(client);
      return client;
    },
    async connect(client) {
      await client.connect();
      if (clients.has(client)) return client;
      await destroy(client);
      throw new ClaimStoreError('redis: the connection was closed while it opened');
    },
    end,
    async drop(client) {
      clients.delete(client);
      await destroy(client);
    },
    async close() {
      closed = true;
      await Promise.all([...clients].map(end));
    },
  };
}
