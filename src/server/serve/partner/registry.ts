/**
 * The shops of partner mode, in Redis or PostgreSQL (kv.ts): each shop's record, and the indexes that find one by its
 * API key's hash, by a link's hash, by an order, and by the service's `id_store`. Secrets are sealed under the shop's
 * own data key (keyring.ts) and its API key is kept only as a hash, so a copy of the store holds none in clear. A shop
 * that never connects is forgotten after `pendingTtlMs` (its record and API key index expire together).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { apiKeyHash, randomToken, sameHash, type Keyring, type WrappedKey } from './keyring.js';
import type { Kv } from './kv.js';

export type ShopStatus = 'pending' | 'connected' | 'disconnected';
export type DisconnectReason = 'integration_uninstalled' | 'store_deleted' | 'shop_request' | 'operator';

/** A shop as stored: public fields in clear, secrets sealed, the API key only hashed. */
export interface ShopRecord {
  store_id: string;
  name: string;
  notify_url: string;
  allowed_origins: string[];
  status: ShopStatus;
  created_at: number;
  status_since: number;
  /** Null once revoked (the shop deleted itself). */
  api_key_hash: string | null;
  data_key: WrappedKey;
  notify_secret: string;
  merchant_key: string | null;
  id_store: number | null;
  disconnect_reason?: DisconnectReason;
  /** Until when a shop never connected is kept (its registration plus `pendingTtlMs`); gone once it connects. */
  pending_until?: number;
}

/** A link a shop made through `POST /v1/stores/me/links`; the shopper it knows is sealed. */
export interface ShopLink {
  store_id: string;
  description: string;
  amount: number | null;
  reference: string;
  redirect_link: string | null;
  expires_at: string | null;
  store_name: string;
  shopper: string | null;
  created_at: number;
  paid: boolean;
}

/** An order made on a shop's link: which shop, which link, when. */
export interface ShopOrder {
  store_id: string;
  link: string;
  at?: number;
}
/** The shops kept under one order id, at most (the latest). */
const ordersPerId = 4;

/** A `store_onboarded` that named no shop of ours, kept for `stores bind` (the merchant key sealed). */
export interface UnboundOnboarding {
  id_store: number;
  store_name: string | null;
  data_key: WrappedKey;
  merchant_key: string;
  at: number;
}

export const pendingTtlMs = 24 * 60 * 60 * 1000;
/** How long a connect_url's token is good for (a pending shop lives no longer anyway). */
export const connectTokenTtlMs = 24 * 60 * 60 * 1000;
export const unboundTtlMs = 7 * 24 * 60 * 60 * 1000;
/** Long enough for a refund (96 h) and the service's webhook retries after it. */
export const orderTtlMs = 30 * 24 * 60 * 60 * 1000;
const idempotencyTtlMs = 24 * 60 * 60 * 1000;

const keys = {
  shop: (id: string) => `shop:${id}`,
  apiKey: (hash: string) => `apikey:${hash}`,
  link: (hash: string) => `link:${hash}`,
  order: (id: number) => `order:${id}`,
  idStore: (id: number) => `idstore:${id}`,
  unbound: (id: number) => `onboarded:${id}`,
  idempotency: (storeId: string, keyHash: string) => `idem:${storeId}:${keyHash}`,
  /** Shops registered in one hour and not connected since (the cap on pending shops). */
  pendingCount: (hour: number) => `pending-count:${hour}`,
};
const hourMs = 60 * 60 * 1000;

/** Link hashes as the service makes them, in a form safe for a key. */
const linkKey = (hash: string) => keys.link(Buffer.from(hash, 'utf8').toString('base64url'));

export interface ShopSecrets {
  merchantKey: string | null;
  notifySecret: string;
}

export interface Registry {
  /**
   * A new pending shop, counted among the pending ones; undefined (nothing written) when `pendingMax` are pending
   * already. Without `pendingMax` it is counted and never refused (a shop that brings its merchant key connects at once).
   */
  register(input: { name: string; notify_url: string; allowed_origins: string[] }, options?: { pendingMax?: number }): Promise<{ record: ShopRecord; apiKey: string; notifySecret: string } | undefined>;
  /** Shops registered in the last `pendingTtlMs` and never connected (as counted: one whose record is gone early still counts until its hour ends). */
  pendingCount(): Promise<number>;
  byApiKey(apiKey: string): Promise<ShopRecord | undefined>;
  get(storeId: string): Promise<ShopRecord | undefined>;
  /**
   * A token for the shop's connect_url: the time it was made and an HMAC of the shop's id and that time under a key
   * drawn from the shop's own data key. Nothing is stored; it is good while the shop is not connected, for
   * `connectTokenTtlMs`, and only for tokens made since the shop's status last changed (so a connection uses up
   * every earlier one, and a disconnection does too).
   */
  connectToken(record: ShopRecord): string;
  /** Whether a token is this shop's, fresh and unused (compared in constant time). */
  connectTokenGood(record: ShopRecord, token: string): boolean;
  /** Connects the shop with its merchant key (kept sealed), forever (no longer forgotten). */
  connect(storeId: string, merchantKey: string, idStore: number | null): Promise<ShopRecord | undefined>;
  /** Wipes the merchant key; `revoke` also ends the API key. Undefined when there is no such shop. */
  disconnect(storeId: string, reason: DisconnectReason, options?: { revoke?: boolean }): Promise<{ before: ShopRecord; after: ShopRecord } | undefined>;
  secrets(record: ShopRecord): ShopSecrets;
  /** The shop whose service `id_store` this is, where one was connected with it. */
  byIdStore(idStore: number): Promise<string | undefined>;
  putLink(hash: string, link: ShopLink): Promise<void>;
  link(hash: string): Promise<ShopLink | undefined>;
  openShopper(link: ShopLink, record: ShopRecord): unknown;
  sealShopper(record: ShopRecord, shopper: unknown): string;
  markPaid(hash: string): Promise<void>;
  /** Records which shop's link an order was made on. */
  setOrder(idOrder: number, storeId: string, hash: string): Promise<void>;
  /**
   * The shops with an order of this id, the latest last: the service's ids are its own, and two shops' orders may
   * share one (a service numbering per store, or again after a reset), so an id alone may name more than one.
   */
  orders(idOrder: number): Promise<ShopOrder[]>;
  /** The shop's order of this id. */
  order(idOrder: number, storeId: string): Promise<ShopOrder | undefined>;
  /** Orders made through each shop's links since `since` (the operator's list). */
  ordersSince(since: number): Promise<Map<string, number>>;
  keepUnbound(idStore: number, storeName: string | null, merchantKey: string): Promise<void>;
  takeUnbound(idStore: number): Promise<{ merchantKey: string; storeName: string | null } | undefined>;
  /** Claims an Idempotency-Key of a shop for a request's digest (`claimed`), or what is there. */
  idempotency(storeId: string, key: string, digest: string): Promise<{ state: 'claimed' } | { state: 'in_flight' } | { state: 'mismatch' } | { state: 'done'; response: string }>;
  completeIdempotency(storeId: string, key: string, digest: string, response: string | null): Promise<void>;
  list(): Promise<ShopRecord[]>;
  /** Re-wraps every data key under the first key: how many were re-wrapped, of how many. */
  rotate(): Promise<{ rewrapped: number; total: number }>;
  /** Opens one data key per wrapping key in use; throws KeyringError naming what failed. */
  selfTest(): Promise<{ shops: number; keyIds: string[] }>;
  close(): Promise<void>;
}

export interface RegistryOptions {
  kv: Kv;
  keyring: Keyring;
  now?: () => number;
}

export function createRegistry({ kv, keyring, now = Date.now }: RegistryOptions): Registry {
  const parse = <T>(text: string | null): T | undefined => {
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  };
  /** The unwrapped data keys, by shop and wrapping: unwrapping is one AES operation, but a buyer's request needs none. */
  const dataKeys = new Map<string, Buffer>();
  const dataKeyOf = (record: { store_id: string; data_key: WrappedKey }) => {
    const id = `${record.store_id}:${record.data_key.wrapped}`;
    let key = dataKeys.get(id);
    if (!key) {
      key = keyring.unwrap(record.store_id, record.data_key);
      if (dataKeys.size > 10_000) dataKeys.clear();
      dataKeys.set(id, key);
    }
    return key;
  };
  /** How long a shop that never connected is still kept; undefined for one that connected once (kept for good). */
  const keptMs = (record: ShopRecord) => {
    const until = record.status === 'connected' ? undefined : (record.pending_until ?? (record.status === 'pending' ? record.created_at + pendingTtlMs : undefined));
    return until === undefined ? undefined : Math.max(1, until - now());
  };
  const pendingHours = () => {
    const last = Math.floor(now() / hourMs);
    return Array.from({ length: Math.ceil(pendingTtlMs / hourMs) + 1 }, (_, i) => keys.pendingCount(last - i));
  };
  const countPending = (createdAt: number, delta: number) => kv.add(keys.pendingCount(Math.floor(createdAt / hourMs)), delta, Math.floor(createdAt / hourMs) * hourMs + hourMs + pendingTtlMs - now());
  const save = async (record: ShopRecord) => {
    const ttlMs = keptMs(record);
    await kv.set(keys.shop(record.store_id), JSON.stringify(record), ttlMs ? { ttlMs } : {});
    if (record.api_key_hash) await kv.set(keys.apiKey(record.api_key_hash), record.store_id, ttlMs ? { ttlMs } : {});
  };
  const get = async (storeId: string) => (/^st_[A-Za-z0-9_-]{8,64}$/.test(storeId) ? parse<ShopRecord>(await kv.get(keys.shop(storeId))) : undefined);
  const unboundAad = (idStore: number) => `onboarded-${idStore}`;
  /** An order id's shops, as stored: a list, or (written before there could be more than one) a single one. */
  const ordersOf = (text: string | null): ShopOrder[] => {
    const value = parse<ShopOrder | ShopOrder[]>(text);
    const list = Array.isArray(value) ? value : value ? [value] : [];
    return list.filter((order) => typeof order?.store_id === 'string' && typeof order.link === 'string');
  };
  const connectMac = (record: ShopRecord, at: string) => {
    const key = Buffer.from(hkdfSync('sha256', dataKeyOf(record), Buffer.alloc(0), 'pay-checkout connect token', 32));
    return createHmac('sha256', key).update(`${record.store_id}\n${at}`).digest('base64url');
  };

  const registry: Registry = {
    async register(input, { pendingMax } = {}) {
      const at = now();
      await countPending(at, 1);
      if (pendingMax !== undefined && (await registry.pendingCount()) > pendingMax) {
        await countPending(at, -1);
        return undefined;
      }
      const storeId = randomToken('st_', 16);
      const apiKey = randomToken('pcs_');
      const notifySecret = randomToken('pcn_');
      const { stored, key } = keyring.newDataKey(storeId);
      const record: ShopRecord = {
        store_id: storeId,
        name: input.name,
        notify_url: input.notify_url,
        allowed_origins: input.allowed_origins,
        status: 'pending',
        created_at: at,
        status_since: at,
        api_key_hash: apiKeyHash(apiKey),
        data_key: stored,
        notify_secret: keyring.sealField(storeId, key, 'notify_secret', notifySecret),
        merchant_key: null,
        id_store: null,
        pending_until: at + pendingTtlMs,
      };
      await save(record);
      return { record, apiKey, notifySecret };
    },
    async pendingCount() {
      return (await kv.getMany(pendingHours())).reduce((sum, value) => sum + Math.max(0, Number(value ?? 0) || 0), 0);
    },
    async byApiKey(apiKey) {
      const hash = apiKeyHash(apiKey);
      const storeId = await kv.get(keys.apiKey(hash));
      const record = storeId ? await get(storeId) : undefined;
      // The index and the record agree, or the key is not (or no longer) this shop's.
      return record && record.api_key_hash === hash ? record : undefined;
    },
    get,
    connectToken(record) {
      const at = Math.max(now(), record.status_since).toString(36);
      return `${at}.${connectMac(record, at)}`;
    },
    connectTokenGood(record, token) {
      const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match || record.status === 'connected' || record.api_key_hash === null) return false;
      const at = parseInt(match[1] as string, 36);
      if (!(at >= record.status_since && at <= now() + 60_000 && now() - at <= connectTokenTtlMs)) return false;
      return sameHash(match[2] as string, connectMac(record, match[1] as string));
    },
    async connect(storeId, merchantKey, idStore) {
      const record = await get(storeId);
      if (!record) return undefined;
      const at = now();
      const connected: ShopRecord = {
        ...record,
        status: 'connected',
        status_since: record.status === 'connected' ? record.status_since : at,
        merchant_key: keyring.sealField(storeId, dataKeyOf(record), 'merchant_key', merchantKey),
        id_store: idStore ?? record.id_store,
      };
      delete connected.disconnect_reason;
      delete connected.pending_until;
      await save(connected);
      // No longer pending: counted no more (its registration's hour), so another shop may register.
      if (record.pending_until !== undefined) await countPending(record.created_at, -1).catch(() => undefined);
      if (connected.id_store !== null) await kv.set(keys.idStore(connected.id_store), storeId);
      return connected;
    },
    async disconnect(storeId, reason, { revoke = false } = {}) {
      const before = await get(storeId);
      if (!before) return undefined;
      const after: ShopRecord = {
        ...before,
        status: 'disconnected',
        status_since: before.status === 'disconnected' ? before.status_since : now(),
        merchant_key: null,
        disconnect_reason: before.status === 'disconnected' ? (before.disconnect_reason ?? reason) : reason,
        api_key_hash: revoke ? null : before.api_key_hash,
      };
      // Kept, so the operator lists it and it can connect again; one that never connected is still forgotten in time.
      const ttlMs = keptMs(after);
      await kv.set(keys.shop(storeId), JSON.stringify(after), ttlMs ? { ttlMs } : {});
      if (revoke && before.api_key_hash) await kv.delete(keys.apiKey(before.api_key_hash));
      else if (after.api_key_hash) await kv.set(keys.apiKey(after.api_key_hash), storeId, ttlMs ? { ttlMs } : {});
      return { before, after };
    },
    secrets(record) {
      const key = dataKeyOf(record);
      return {
        merchantKey: record.merchant_key ? keyring.openField(record.store_id, key, 'merchant_key', record.merchant_key) : null,
        notifySecret: keyring.openField(record.store_id, key, 'notify_secret', record.notify_secret),
      };
    },
    async byIdStore(idStore) {
      return (await kv.get(keys.idStore(idStore))) ?? undefined;
    },
    async putLink(hash, link) {
      await kv.set(linkKey(hash), JSON.stringify(link));
    },
    async link(hash) {
      return parse<ShopLink>(await kv.get(linkKey(hash)));
    },
    openShopper(link, record) {
      if (!link.shopper) return undefined;
      return JSON.parse(keyring.openField(record.store_id, dataKeyOf(record), 'shopper', link.shopper)) as unknown;
    },
    sealShopper(record, shopper) {
      return keyring.sealField(record.store_id, dataKeyOf(record), 'shopper', JSON.stringify(shopper));
    },
    async markPaid(hash) {
      const link = await registry.link(hash);
      if (link && !link.paid) await kv.set(linkKey(hash), JSON.stringify({ ...link, paid: true }));
    },
    async setOrder(idOrder, storeId, hash) {
      const order: ShopOrder = { store_id: storeId, link: hash, at: now() };
      // One write for an id no shop has yet (every order, unless the service's ids repeat); else added to its shops.
      if (await kv.set(keys.order(idOrder), JSON.stringify([order]), { ttlMs: orderTtlMs, onlyNew: true })) return;
      const others = (await registry.orders(idOrder)).filter((held) => held.store_id !== storeId);
      await kv.set(keys.order(idOrder), JSON.stringify([...others, order].slice(-ordersPerId)), { ttlMs: orderTtlMs });
    },
    async orders(idOrder) {
      return ordersOf(await kv.get(keys.order(idOrder)));
    },
    async order(idOrder, storeId) {
      return (await registry.orders(idOrder)).find((order) => order.store_id === storeId);
    },
    async ordersSince(since) {
      const counts = new Map<string, number>();
      for (const [, value] of await kv.scan('order:')) {
        for (const order of ordersOf(value)) if ((order.at ?? 0) >= since) counts.set(order.store_id, (counts.get(order.store_id) ?? 0) + 1);
      }
      return counts;
    },
    async keepUnbound(idStore, storeName, merchantKey) {
      const holder = `onboarded_${idStore}`;
      const { stored, key } = keyring.newDataKey(holder);
      const record: UnboundOnboarding = { id_store: idStore, store_name: storeName, data_key: stored, merchant_key: keyring.sealField(holder, key, unboundAad(idStore), merchantKey), at: now() };
      await kv.set(keys.unbound(idStore), JSON.stringify(record), { ttlMs: unboundTtlMs });
    },
    async takeUnbound(idStore) {
      const record = parse<UnboundOnboarding>(await kv.get(keys.unbound(idStore)));
      if (!record) return undefined;
      const holder = `onboarded_${idStore}`;
      const key = keyring.unwrap(holder, record.data_key);
      const merchantKey = keyring.openField(holder, key, unboundAad(idStore), record.merchant_key);
      await kv.delete(keys.unbound(idStore));
      return { merchantKey, storeName: record.store_name };
    },
    async idempotency(storeId, key, digest) {
      const id = keys.idempotency(storeId, apiKeyHash(key));
      if (await kv.set(id, JSON.stringify({ digest, response: null }), { ttlMs: 60_000, onlyNew: true })) return { state: 'claimed' };
      const held = parse<{ digest: string; response: string | null }>(await kv.get(id));
      if (!held) return registry.idempotency(storeId, key, digest);
      if (held.digest !== digest) return { state: 'mismatch' };
      return held.response === null ? { state: 'in_flight' } : { state: 'done', response: held.response };
    },
    async completeIdempotency(storeId, key, digest, response) {
      const id = keys.idempotency(storeId, apiKeyHash(key));
      if (response === null) await kv.delete(id);
      else await kv.set(id, JSON.stringify({ digest, response }), { ttlMs: idempotencyTtlMs });
    },
    async list() {
      return (await kv.scan('shop:')).map(([, value]) => parse<ShopRecord>(value)).filter((r): r is ShopRecord => r !== undefined);
    },
    async rotate() {
      const shops = await registry.list();
      let rewrapped = 0;
      for (const record of shops) {
        const data_key = keyring.rewrap(record.store_id, record.data_key);
        if (!data_key) continue;
        // The current record (it may have changed meanwhile), with the same data key wrapped anew.
        const current = (await get(record.store_id)) ?? record;
        if (current.data_key.wrapped !== record.data_key.wrapped) continue;
        await save({ ...current, data_key });
        rewrapped += 1;
      }
      for (const [key, value] of await kv.scan('onboarded:')) {
        const record = parse<UnboundOnboarding>(value);
        if (!record) continue;
        const data_key = keyring.rewrap(`onboarded_${record.id_store}`, record.data_key);
        if (data_key) await kv.set(key, JSON.stringify({ ...record, data_key }), { ttlMs: Math.max(1, record.at + unboundTtlMs - now()) });
      }
      return { rewrapped, total: shops.length };
    },
    async selfTest() {
      const shops = await registry.list();
      const tried = new Set<string>();
      for (const record of shops) {
        if (tried.has(record.data_key.key_id)) continue;
        tried.add(record.data_key.key_id);
        // Throws a KeyringError when the id is not listed, or its key does not open the data key.
        registry.secrets(record);
      }
      return { shops: shops.length, keyIds: [...tried] };
    },
    close: () => kv.close(),
  };
  return registry;
}
