/**
 * Partner mode of `pay-checkout serve` (docs/site/plugins/platforms.md): one server for a platform's shops. Opens the
 * registry (registry.ts over kv.ts) and checks the keys open it (a `SettingError` naming `PAY_CHECKOUT_KEYS` when none
 * does), then answers in front of serve's files: the shop API (`/v1/stores…`, shop-api.ts), the partner webhooks
 * (`/v1/webhooks`, partner-webhooks.ts), the buyer API routed to the checkout of the shop whose link or order it is
 * (shop-checkouts.ts), and health. Outcomes go to each shop's notify URL (shop-notices.ts).
 */
import { PartnerClient, ServiceError } from '../../../client/index.js';
import { errorBody, orderTokenHeader } from '../../../contract/index.js';
import { safeSink, type EventSink } from '../../events.js';
import { assembleCheckout, type CheckoutAssembly } from '../../handler.js';
import { clientAddressOf } from '../../http/client-address.js';
import { CheckoutHttpError } from '../../http/errors.js';
import { isOrderToken } from '../../secrets.js';
import type { Answer, Incoming } from '../../http/incoming.js';
import { memoryLimitStore } from '../../limits/limit-store.js';
import type { ClaimStore } from '../../once/claims.js';
import { SettingError, serveCommandSettings } from '../settings.js';
import { postgresOutbox, redisOutbox } from '../relay/index.js';
import { createKeyring, KeyringError } from './keyring.js';
import type { Kv } from './kv.js';
import { partnerWebhooks } from './partner-webhooks.js';
import { postgresKv } from './postgres-kv.js';
import { redisKv } from './redis-kv.js';
import { createRegistry, type Registry, type ShopRecord } from './registry.js';
import type { PartnerServeSettings } from './settings.js';
import { merchantKeyTaken, shopApi } from './shop-api.js';
import { orderTokenSecrets, shopCheckouts } from './shop-checkouts.js';
import { shopMetrics } from './metrics.js';
import { shopNotices, type ShopNotices } from './shop-notices.js';
import { shopShare } from './shop-share.js';
import { createSweep, defaultSweepTimings, type SweepTimings } from '../../sweep/sweep.js';

export interface PartnerCheckout {
  /** Whether a path is partner mode's to answer (the rest are serve's files and the hosted page); `health` for health. */
  match(path: string): { kind: 'health' | 'partner' } | undefined;
  /** A link's buyer answer, for the hosted page: its shop's, or the refusal. */
  link: CheckoutAssembly['link'];
  answer(incoming: Incoming): Promise<Answer>;
  respond: CheckoutAssembly['respond'];
  drain: CheckoutAssembly['drain'];
  /** Starts sending notices (once listening). */
  start(): void;
  close(): Promise<void>;
  registry: Registry;
  notices: ShopNotices;
}

export interface PartnerCheckoutOptions {
  emit?: EventSink;
  fetch?: typeof globalThis.fetch;
  /** Notices' first retry delay, attempt timeout and poll (tests shorten them). */
  noticeTimings?: { firstRetryMs?: number; timeoutMs?: number; pollMs?: number };
  /** Link records are fresh in memory this long; default 5,000 ms. */
  linkFreshMs?: number;
  /** How long to wait at start for the shops' store to answer (tests shorten it). */
  storeWait?: StoreWait;
  /** A shop's buyer requests under way at once, beyond which one is refused (shop-share.ts); default 16. */
  shopInProgress?: number;
  /** How long a refusal beyond a shop's share waits before it is answered; default 250 ms. */
  shopRefusalPauseMs?: number;
}

/** The registry's storage for the settings' store. */
export function kvOf(store: PartnerServeSettings['store']): Kv {
  return store.kind === 'redis' ? redisKv({ url: store.url }) : postgresKv({ url: store.url });
}

/** How long `serve` in partner mode waits at start for the shops' store to answer, by default, before it gives up. */
export const defaultStoreWaitMs = 120_000;

export interface StoreWait {
  /** At most this long in all (0: no waiting, the store's error as it is); default `defaultStoreWaitMs`. */
  boundMs?: number;
  /** The first pause between tries; each next doubles, to at most 5 s. Default 500 ms. */
  firstRetryMs?: number;
}

/**
 * The registry for the settings, its keys checked: a `SettingError` naming `PAY_CHECKOUT_KEYS` when they do not open
 * it. A store that does not answer (down, starting, loading its data) is tried again, with a `store_waiting` event
 * each time, for `wait.boundMs`; past it, a `SettingError` saying so (serve exits 2 with that line). With no `wait`,
 * the store's error is thrown as it is (the operator's commands say it and exit 1).
 */
export async function openRegistry(settings: PartnerServeSettings, { wait, emit = () => {} }: { wait?: StoreWait; emit?: EventSink } = {}): Promise<Registry> {
  const registry = createRegistry({ kv: kvOf(settings.store), keyring: createKeyring(settings.partner.keys) });
  const boundMs = wait ? (wait.boundMs ?? defaultStoreWaitMs) : 0;
  const started = Date.now();
  let pauseMs = wait?.firstRetryMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      await registry.selfTest();
      if (attempt > 1) emit({ level: 'info', name: 'store_answered', message: `the shops' store (${settings.store.kind}) answered after ${attempt} tries; starting`, store: settings.store.kind, attempts: attempt });
      return registry;
    } catch (error) {
      if (error instanceof KeyringError) {
        await registry.close();
        throw new SettingError(`${serveCommandSettings.keys.env} does not open the shops' store: ${error.message}. List the key the store was written with (keys may be added in front of it, then \`pay-checkout stores rotate-keys\`).`);
      }
      const waited = Date.now() - started;
      if (waited + pauseMs > boundMs) {
        await registry.close();
        if (!wait) throw error;
        const name = settings.store.kind === 'redis' ? serveCommandSettings.redisUrl.env : serveCommandSettings.databaseUrl.env;
        throw new SettingError(`the shops' store (${settings.store.kind}, ${name}) did not answer within ${Math.round(boundMs / 1000)} s: ${error instanceof Error ? error.message : String(error)}.`);
      }
      emit({ level: 'warn', name: 'store_waiting', message: `the shops' store (${settings.store.kind}) did not answer (${error instanceof Error ? error.message : String(error)}); serve starts once it does, trying again in ${pauseMs} ms (for at most ${Math.round(boundMs / 1000)} s in all)`, store: settings.store.kind, attempt, retry_ms: pauseMs });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, 5_000);
    }
  }
}

export function noticesOutbox(store: PartnerServeSettings['store']) {
  return store.kind === 'redis' ? redisOutbox({ url: store.url, prefix: 'pay-checkout:partner:' }) : postgresOutbox({ url: store.url, table: 'pay_checkout_partner_outbox' });
}

/**
 * How long a shop's record is read from memory: as long as a link's (`linkFreshMs`), since a buyer's request needs
 * both. A change made on this instance is seen at once (`onChange`); one made elsewhere (another instance, the
 * `stores` command) within this. Each read is a store call on a buyer's request, so at 2 s a thousand busy shops
 * cost a read on most creates.
 */
const shopStatusMs = 5_000;

export async function startPartnerCheckout(settings: PartnerServeSettings, claims: ClaimStore, options: PartnerCheckoutOptions = {}): Promise<PartnerCheckout> {
  const emit = safeSink(options.emit);
  const { partner: partnerSettings } = settings;
  const registry = await openRegistry(settings, { wait: options.storeWait ?? {}, emit });
  const policy = { allowLocal: partnerSettings.allowLocalShops };
  if (policy.allowLocal) emit({ level: 'warn', name: 'local_shops_allowed', message: 'PAY_CHECKOUT_ALLOW_LOCAL_SHOPS=1: shops may register http and local notify URLs (loopback, private addresses); for development and tests only' });
  const pair = { apiKey: partnerSettings.apiKey, apiSecret: partnerSettings.apiSecret };
  const partner = new PartnerClient({ ...pair, ...settings.service, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const notices = shopNotices({ outbox: noticesOutbox(settings.store), registry, policy, emit, ...(partnerSettings.notifyRetryMs !== undefined ? { firstRetryMs: partnerSettings.notifyRetryMs } : {}), ...options.noticeTimings });

  // Shop records, briefly: a buyer's request needs its shop's status, and a disconnection reaches every instance within this.
  const shops = new Map<string, { record: ShopRecord | undefined; until: number }>();
  const shopOf = async (storeId: string) => {
    const cached = shops.get(storeId);
    if (cached && cached.until > Date.now()) return cached.record;
    const record = await registry.get(storeId);
    if (shops.size > 20_000) shops.clear();
    shops.set(storeId, { record, until: Date.now() + shopStatusMs });
    return record;
  };
  const onChange = (record: ShopRecord) => void shops.set(record.store_id, { record, until: Date.now() + shopStatusMs });

  // The sweep's timings as one shop's serve takes them (serve/index.ts): each shop's orders are recorded for it.
  const sweepTimings: Partial<SweepTimings> | false =
    settings.sweep === false ? false : { ...settings.sweep, ...(settings.sweep.firstReadMs !== undefined ? { pollMs: Math.min(1_000, settings.sweep.firstReadMs) } : {}) };
  const tokenSecrets = settings.secret ?? [partnerSettings.apiSecret];
  const checkouts = shopCheckouts({
    registry,
    sweep: sweepTimings,
    store: claims,
    service: settings.service,
    partner: pair,
    webhookSecrets: partnerSettings.webhookSecrets,
    secrets: tokenSecrets,
    trustProxy: settings.trustProxy,
    emit,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.linkFreshMs !== undefined ? { linkFreshMs: options.linkFreshMs } : {}),
    onOutcome: async (record, link, change) => {
      if (change.status === 'confirmed') await registry.markPaid(change.link);
      await notices.recordOrder(record.store_id, link?.reference ?? '', change);
    },
  });

  // Health, the contract's answers, CORS for any origin (the shops' pages are many), and drain: the handler's own parts.
  const front = assembleCheckout({
    merchantKey: partnerSettings.apiKey,
    ...settings.service,
    resolveLink: () => null,
    store: claims,
    allowedOrigins: '*',
    trustProxy: settings.trustProxy,
    onEvent: emit,
    openTelemetry: false,
  });
  const limits = claims.limitStore ?? memoryLimitStore();
  const origin = (request: Incoming) => {
    if (settings.publicUrl) return settings.publicUrl;
    const host = request.headers.get('host') ?? 'localhost';
    return `${settings.trustProxy > 0 && request.headers.get('x-forwarded-proto') === 'https' ? 'https' : 'http'}://${host}`;
  };
  const stores = shopApi({ registry, partner, policy, notices, limits, emit, onChange, originOf: origin, pendingShops: partnerSettings.pendingShops, addressOf: (request) => clientAddressOf(request, { trustProxy: settings.trustProxy }) });
  // The service refuses a key it no longer lets this partner use with 401 (its authentication rule 4); a 429 or 5xx is no word on it.
  const keyRevoked = async (record: ShopRecord) => {
    const merchantKey = registry.secrets(record).merchantKey;
    return !merchantKey || !(await merchantKeyTaken(partner, merchantKey, (status) => status === 401 || status === 403));
  };
  const webhooks = partnerWebhooks({ registry, secrets: partnerSettings.webhookSecrets, notices, checkoutOf: (record) => checkouts.of(record), onChange, keyRevoked, claims, emit });

  const metrics = shopMetrics(() => notices.pendingByShop());
  /** A shop's refusal counted by its api_code (read from the answer, never its other fields). */
  const counted = (storeId: string | undefined, answer: Answer): Answer => {
    if (storeId && answer.status >= 400 && answer.text) metrics.refusal(storeId, /"api_code":"([A-Z_]+)"/.exec(answer.text)?.[1] ?? String(answer.status));
    return answer;
  };

  /** A shop's request in its share of the instance (shop-share.ts); a waiting status request holds no turn. */
  const share = shopShare({ ...partnerSettings.shopRate, ...(options.shopInProgress !== undefined ? { maxInProgress: options.shopInProgress } : {}) });
  const refusalPauseMs = options.shopRefusalPauseMs ?? 250;
  const fairly = async (storeId: string | undefined, request: Incoming, work: () => Promise<Answer>): Promise<Answer> => {
    if (!storeId || request.method === 'OPTIONS' || request.searchParams.has('wait')) return work();
    let leave: () => void;
    try {
      leave = share.enter(storeId);
    } catch (error) {
      if (!(error instanceof CheckoutHttpError)) throw error;
      // Answered after a short pause that holds a timer, not a turn: a client asking again at once (a script, a closed
      // loop) then sends a few refusals a second, not thousands that would be the instance's busiest work.
      await new Promise((resolve) => setTimeout(resolve, refusalPauseMs));
      return front.respond(request, error.status, error.body, error.headers);
    }
    try {
      return await work();
    } finally {
      leave();
    }
  };

  const linkRoute = /^\/v1\/checkout\/links\/([^/]+)(\/orders)?$/;
  const orderRoute = /^\/v1\/checkout\/orders\/([^/]+)(?:\/(?:otp|cancel))?$/;

  /** The shop's checkout for a link or an order, or the refusal a buyer gets. */
  const checkoutFor = async (storeId: string | undefined, missing: 'LINK_NOT_FOUND' | 'ORDER_NOT_FOUND'): Promise<CheckoutAssembly> => {
    const record = storeId ? await shopOf(storeId) : undefined;
    if (record?.status === 'disconnected') throw CheckoutHttpError.of('STORE_DISCONNECTED');
    const checkout = record && checkouts.of(record);
    if (!checkout) throw CheckoutHttpError.of(missing);
    return checkout;
  };

  const buyer = async (request: Incoming): Promise<Answer | undefined> => {
    const link = linkRoute.exec(request.path);
    if (link) {
      let hash: string;
      try {
        hash = decodeURIComponent(link[1] as string);
      } catch {
        throw CheckoutHttpError.of('LINK_NOT_FOUND');
      }
      const found = await checkouts.link(hash);
      // The shop's share first: a refusal costs no store read, no key opened, no body read.
      const answer = counted(found?.store_id, await fairly(found?.store_id, request, async () => (await checkoutFor(found?.store_id, 'LINK_NOT_FOUND')).answer(request)));
      if (link[2] && request.method === 'POST' && (answer.status === 201 || answer.status === 200) && answer.text && found) {
        // Which shop an order is, before the buyer hears of it: its webhook and its status checks are routed by this.
        const idOrder = (JSON.parse(answer.text) as { data?: { id_order?: unknown } }).data?.id_order;
        if (typeof idOrder === 'number') {
          await registry.setOrder(idOrder, found.store_id, hash);
          rememberOrder(idOrder, found.store_id);
        }
        if (answer.status === 201) metrics.order(found.store_id);
      }
      return answer;
    }
    const order = orderRoute.exec(request.path);
    if (order) {
      const raw = order[1] as string;
      const owner = /^[1-9]\d{0,15}$/.test(raw) ? await ownerOf(Number(raw), request.headers.get(orderTokenHeader)) : undefined;
      return counted(owner, await fairly(owner, request, async () => (await checkoutFor(owner, 'ORDER_NOT_FOUND')).answer(request)));
    }
    return undefined;
  };

  // The shops with an order of each id, the latest last: an order never changes shop, but an id may name orders of
  // more than one (the service's ids are its own: it may number per store, and numbers again after a reset).
  const orderShops = new Map<number, string[]>();
  const rememberOrder = (idOrder: number, storeId: string) => {
    if (orderShops.size > 100_000) orderShops.clear();
    orderShops.set(idOrder, [...(orderShops.get(idOrder) ?? []).filter((id) => id !== storeId), storeId]);
  };
  const shopsOf = async (idOrder: number, fresh: boolean) => {
    const known = fresh ? undefined : orderShops.get(idOrder);
    if (known) return known;
    const owners = (await registry.orders(idOrder)).map((order) => order.store_id);
    if (owners.length > 0) {
      if (orderShops.size > 100_000) orderShops.clear();
      orderShops.set(idOrder, owners);
    }
    return owners;
  };
  /**
   * The shop a buyer's request on an order is for: the one whose order token it carries (each shop's tokens are
   * signed with its own secret), looked up again once when none known here is (another instance may have recorded a
   * newer one); else the latest, whose checkout refuses a token not its own as for any order.
   */
  const shopTokenSecrets = new Map<string, string[]>();
  const tokenSecretsOf = (storeId: string) => {
    let secrets = shopTokenSecrets.get(storeId);
    if (!secrets) {
      if (shopTokenSecrets.size > 20_000) shopTokenSecrets.clear();
      shopTokenSecrets.set(storeId, (secrets = orderTokenSecrets(tokenSecrets, storeId)));
    }
    return secrets;
  };
  const ownerOf = async (idOrder: number, token: string | null): Promise<string | undefined> => {
    const known = await shopsOf(idOrder, false);
    if (token === null) return known.at(-1);
    const signer = async (shops: string[]) => {
      for (const storeId of [...shops].reverse()) if (await isOrderToken(tokenSecretsOf(storeId), idOrder, token)) return storeId;
      return undefined;
    };
    const signed = await signer(known);
    if (signed) return signed;
    const fresh = await shopsOf(idOrder, true);
    return (await signer(fresh.filter((storeId) => !known.includes(storeId)))) ?? fresh.at(-1);
  };

  // One sweep for every shop's open orders (the shared store's), each read with its shop's merchant key and the
  // partner pair, its outcome to that shop's notices; a shop no longer connected has its orders no longer followed.
  const followedOf = async (storeId: string) => {
    const record = await shopOf(storeId);
    return record?.status === 'connected' ? checkouts.of(record)?.followed : undefined;
  };
  const openOrders = claims.openOrders;
  const sweep =
    sweepTimings && openOrders
      ? createSweep({
          notices: {
            orders: openOrders,
            swept: async (details, record) => {
              const followed = await followedOf(record.merchant);
              // Disconnected since its read began: not told (its lease runs out, and the next read closes it).
              if (!followed) throw new Error(`order ${record.id_order}: its shop is no longer connected`);
              return followed.notices.swept(details, record);
            },
          },
          clientFor: async (storeId) => (await followedOf(storeId))?.client,
          busy: (order) => checkouts.held(order.merchant)?.followed?.busy(order) ?? false,
          timings: { ...defaultSweepTimings, ...sweepTimings },
          emit,
        })
      : undefined;

  const answer = async (request: Incoming): Promise<Answer> => {
    const { path } = request;
    try {
      if (path === '/v1/health' || path === '/v1/health/ready') return await front.answer(request);
      if (path === '/v1/webhooks') {
        const reply = await webhooks(request);
        return 'text' in reply ? reply : front.respond(request, reply.status, { data: reply.data });
      }
      if (path === '/v1/stores' || path.startsWith('/v1/stores/')) {
        const pending = stores(request, path.slice('/v1/stores'.length));
        if (!pending) return front.respond(request, 404, errorBody('NOT_FOUND', { description: `${request.method} ${path} is not an endpoint of the shop API.` }));
        const reply = await pending;
        if (reply.status === 302) return { status: 302, headers: { location: String(reply.headers?.Location), 'cache-control': 'no-store' }, text: null };
        return front.respond(request, reply.status, { data: reply.data }, reply.headers);
      }
      const routed = await buyer(request);
      if (routed) return routed;
      return await front.answer(request);
    } catch (error) {
      if (error instanceof CheckoutHttpError) return front.respond(request, error.status, error.body, error.headers);
      // The service's own refusal (a link it would not make) passes through, as the handler passes it.
      if (error instanceof ServiceError && error.serviceBody) return front.respond(request, error.status, error.body);
      // The store or the service away: the request may be sent again.
      emit({ level: 'error', name: 'partner_request_failed', message: `${request.method} ${path}: ${error instanceof Error ? error.message : String(error)}` });
      return front.respond(request, 503, errorBody('SERVICE_UNAVAILABLE', { description: 'Try again in a moment.' }), { 'Retry-After': '1' });
    }
  };

  return {
    match: (path) => (path === '/v1/health' || path === '/v1/health/ready' ? { kind: 'health' } : path === '/v1' || path.startsWith('/v1/') ? { kind: 'partner' } : undefined),
    link: async (incoming, hash) => {
      try {
        const found = await checkouts.link(hash);
        const leave = found ? share.enter(found.store_id) : () => {};
        try {
          return await (await checkoutFor(found?.store_id, 'LINK_NOT_FOUND')).link(incoming, hash);
        } finally {
          leave();
        }
      } catch (error) {
        if (error instanceof CheckoutHttpError) return { status: error.status };
        return { status: 503 };
      }
    },
    answer,
    respond: front.respond,
    drain: async (drainOptions) => {
      void sweep?.stop();
      const [own, shopsDrained] = await Promise.all([front.drain(drainOptions), checkouts.drain(drainOptions)]);
      return { unfinished: own.unfinished + shopsDrained.unfinished };
    },
    start: () => {
      notices.start();
      sweep?.start();
    },
    async close() {
      await sweep?.stop();
      await notices.close();
      await registry.close();
    },
    registry,
    notices,
  };
}
