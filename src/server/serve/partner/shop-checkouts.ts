/**
 * One checkout per connected shop: the handler's own parts (`assembleCheckout`) made with that shop's merchant key
 * and the partner pair, its links from the registry, its limits counted under its own id, its CORS its own origins,
 * its outcomes to its own notices. Made when a shop's buyer first comes, kept while it is used: one no buyer used for
 * `idleMs` is let go (and at most `maxLive` are kept, the least recently used let go first), made again on the next
 * buyer, and when the shop's key changes. A checkout holds no order of its own (its orders are in the shared store),
 * so one let go loses nothing; one with a request under way is never let go. A shop's handler never sees another
 * shop's link or order: the front (index.ts) routes by the registry before it answers.
 */
import { createHmac } from 'node:crypto';
import type { EventSink } from '../../events.js';
import { assembleCheckout, type CheckoutAssembly } from '../../handler.js';
import type { ClaimStore } from '../../once/claims.js';
import type { LimitStore } from '../../limits/limits.js';
import { memoryLimitStore } from '../../limits/limit-store.js';
import { nodeFetch } from '../../node/fetch.js';
import type { CheckoutLinkInfo } from '../../buyer/links.js';
import type { OrderStatusChange } from '../../buyer/order-status.js';
import type { SweepTimings } from '../../sweep/sweep.js';
import type { Registry, ShopLink, ShopRecord } from './registry.js';

export interface ShopCheckoutOptions {
  registry: Registry;
  store: ClaimStore;
  service: { baseUrl: string } | { environment: 'production' | 'development' };
  partner: { apiKey: string; apiSecret: string };
  webhookSecrets: readonly string[];
  /** Signs order tokens: each shop's secret derives from these (`PAY_CHECKOUT_SECRET`, else the partner secret). */
  secrets: readonly string[];
  trustProxy: number;
  emit: EventSink;
  fetch?: typeof globalThis.fetch;
  /** An outcome of a shop's order, with the link's record. */
  onOutcome(record: ShopRecord, link: ShopLink | undefined, change: OrderStatusChange): Promise<void>;
  /** Fresh link records for this long; default 5,000 ms. */
  linkFreshMs?: number;
  /** The sweep's timings each shop's orders are recorded for (partner mode runs one sweep for all: index.ts); false for none. */
  sweep: Partial<SweepTimings> | false;
  /** Checkouts kept at most; default 5,000. */
  maxLive?: number;
  /** A checkout no buyer used for this long is let go; default 10 minutes. */
  idleMs?: number;
  now?: () => number;
}

export interface ShopCheckouts {
  /** The shop's checkout, made or reused; undefined when the shop has no merchant key. */
  of(record: ShopRecord): CheckoutAssembly | undefined;
  /** The shop's checkout if one is live on this instance now (none is made). */
  held(storeId: string): CheckoutAssembly | undefined;
  /** A link record, from a short cache. */
  link(hash: string): Promise<ShopLink | undefined>;
  forgetLink(hash: string): void;
  /** Every live checkout's drain. */
  drain(options?: { graceMs?: number }): Promise<{ unfinished: number }>;
  readonly live: number;
}

/** A shop's checkout no buyer used for this long is let go, and made again on its next buyer. */
export const defaultCheckoutIdleMs = 10 * 60_000;

/** The secrets a shop's order tokens are signed with: each drawn from one of serve's secrets and the shop's id. */
export const orderTokenSecrets = (secrets: readonly string[], storeId: string) => secrets.map((s) => createHmac('sha256', s).update(`pay-checkout/partner/order-token/${storeId}`).digest('base64url'));

/** A key or channel of the shared store, under the shop's own id. */
export const shopKey = (storeId: string) => (key: string) => `${storeId}:${key}`;

/** Limits counted under the shop's own id: one shop's buyers never use up another's. */
function shopLimits(limits: LimitStore, storeId: string): LimitStore {
  const ownKey = shopKey(storeId);
  return {
    async hit(hits) {
      const own = hits.map((hit) => ({ ...hit, key: ownKey(hit.key) }));
      const waitMs = await limits.hit(own);
      own.forEach((hit, i) => {
        if (hit.refused) (hits[i] as { refused?: boolean }).refused = true;
      });
      return waitMs;
    },
  };
}

export function shopCheckouts(options: ShopCheckoutOptions): ShopCheckouts {
  const { registry, emit } = options;
  const maxLive = options.maxLive ?? 5_000;
  const idleMs = options.idleMs ?? defaultCheckoutIdleMs;
  const now = options.now ?? Date.now;
  const linkFreshMs = options.linkFreshMs ?? 5_000;
  /** Live checkouts, the least recently used first; `used` when a buyer last came, `busy` its requests under way. */
  const live = new Map<string, { version: string; checkout: CheckoutAssembly; used: number; busy: number }>();
  /** Lets go of those idle for `idleMs` (from the least recently used on, so it stops at the first one in use), and beyond `maxLive`. */
  const letGo = (at: number) => {
    for (const [storeId, held] of live) {
      if (live.size <= maxLive && at - held.used < idleMs) break;
      if (held.busy > 0) continue;
      live.delete(storeId);
    }
  };
  let lastLetGo = 0;
  const links = new Map<string, { link: ShopLink | undefined; until: number }>();
  const sharedLimits = options.store.limitStore ?? memoryLimitStore();
  // One pool of sockets to the service for every shop: a pool per shop held a socket or two per shop open (memory on
  // both ends) and opened new ones for shops whose sockets had idled out.
  const fetch = options.fetch ?? nodeFetch();

  const link = async (hash: string) => {
    const cached = links.get(hash);
    if (cached && cached.until > Date.now()) return cached.link;
    const found = await registry.link(hash);
    if (links.size > 20_000) links.clear();
    links.set(hash, { link: found, until: Date.now() + linkFreshMs });
    return found;
  };

  const make = (record: ShopRecord, merchantKey: string): CheckoutAssembly => {
    const storeId = record.store_id;
    const shopEmit: EventSink = (event) => emit({ ...event, store_id: storeId });
    const base = options.store;
    // The shared store's claims, channels and limits, each under the shop's id: an order's id is the service's, and
    // two shops' orders may share one (the service numbering per store, or again after a reset), so its delivery's
    // once-key, its buyer's document for the code limits and its `order:{id}` wake-up are the shop's own. Never closed here.
    const own = shopKey(storeId);
    const store: ClaimStore = {
      claim: (key, digest, leaseMs) => base.claim(own(key), digest, leaseMs),
      complete: (key, token, response, ttlMs) => base.complete(own(key), token, response, ttlMs),
      release: (key, token) => base.release(own(key), token),
      inspect: (key) => base.inspect(own(key)),
      publish: (channel, message) => base.publish(own(channel), message),
      subscribe: (channel, listener) => base.subscribe(own(channel), listener),
      limitStore: shopLimits(sharedLimits, storeId),
      ...(base.openOrders ? { openOrders: base.openOrders } : {}),
    };
    return assembleCheckout({
      merchantKey,
      partner: options.partner,
      ...options.service,
      resolveLink: async (hash): Promise<CheckoutLinkInfo | null> => {
        const found = await link(hash);
        if (!found || found.store_id !== storeId) return null;
        const shopper = registry.openShopper(found, record) as Record<string, string | undefined> | undefined;
        return {
          amount: found.amount,
          description: found.description,
          storeName: found.store_name,
          expiresAt: found.expires_at,
          ...(found.paid ? { status: 'paid' as const } : {}),
          redirectLink: found.redirect_link,
          ...(shopper ? { shopper: { first_name: shopper.first_name, last_name: shopper.last_name, email: shopper.email, phone_number: shopper.phone } } : {}),
        };
      },
      store,
      secret: orderTokenSecrets(options.secrets, storeId),
      webhookSecret: options.webhookSecrets,
      allowedOrigins: record.allowed_origins,
      trustProxy: options.trustProxy,
      ...(fetch ? { fetch } : {}),
      onOrderStatus: async (change) => {
        if (change.status === 'confirmed') links.delete(change.link);
        await options.onOutcome(record, await link(change.link), change);
      },
      onEvent: shopEmit,
      openTelemetry: false,
      // Its open orders recorded under the shop's id, and read back by partner mode's one sweep for every shop
      // (index.ts) with this shop's client: a sweep per shop would be a loop per shop on the store.
      orderRef: storeId,
      sweep: options.sweep,
    });
  };

  return {
    of(record) {
      if (record.status !== 'connected' || !record.merchant_key) return undefined;
      const at = now();
      // At most once a second: each pass looks at the idle ones only.
      if (at - lastLetGo >= 1_000 || live.size > maxLive) {
        lastLetGo = at;
        letGo(at);
      }
      const version = `${record.merchant_key}|${record.allowed_origins.join(',')}`;
      const held = live.get(record.store_id);
      if (held && held.version === version) {
        // Most recently used last, so the first in the map is the one to let go.
        live.delete(record.store_id);
        live.set(record.store_id, held);
        held.used = at;
        return held.checkout;
      }
      const merchantKey = registry.secrets(record).merchantKey;
      if (!merchantKey) return undefined;
      const made = make(record, merchantKey);
      // Its requests under way counted, so a checkout answering one is never let go.
      const entry = { version, used: at, busy: 0, checkout: made };
      entry.checkout = {
        ...made,
        answer: async (request) => {
          entry.busy += 1;
          try {
            return await made.answer(request);
          } finally {
            entry.busy -= 1;
            entry.used = now();
          }
        },
        link: async (incoming, hash) => {
          entry.busy += 1;
          try {
            return await made.link(incoming, hash);
          } finally {
            entry.busy -= 1;
            entry.used = now();
          }
        },
      };
      live.delete(record.store_id);
      live.set(record.store_id, entry);
      if (live.size > maxLive) letGo(at);
      return entry.checkout;
    },
    held: (storeId) => live.get(storeId)?.checkout,
    link,
    forgetLink: (hash) => void links.delete(hash),
    async drain(drainOptions) {
      const results = await Promise.all([...live.values()].map((held) => held.checkout.drain(drainOptions)));
      return { unfinished: results.reduce((sum, r) => sum + r.unfinished, 0) };
    },
    get live() {
      return live.size;
    },
  };
}
