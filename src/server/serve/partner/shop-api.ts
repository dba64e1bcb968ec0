/**
 * The shop API of partner mode (`/v1/stores…`): registration (open, limited per address), the connect redirect, and,
 * with `Authorization: Bearer <api_key>`, the shop's profile, its self-disconnection, its links (made at the service
 * for it with its merchant key and the partner pair) and its own orders. Every answer is `{ data }` or the
 * contract's ErrorResponse; the merchant key and the notify secret never appear in one.
 */
import { createHash } from 'node:crypto';
import { PartnerClient, ServiceError, type MerchantClient } from '../../../client/index.js';
import { CreateStoreLinkBodySchema, parseWith, RegisterStoreBodySchema, type CreateStoreLinkBody } from '../../../contract/index.js';
import type { EventSink } from '../../events.js';
import { CheckoutHttpError, readJsonBody, type Reply } from '../../http/errors.js';
import type { Incoming } from '../../http/incoming.js';
import type { LimitName, LimitStore } from '../../limits/limits.js';
import { notifyUrlRefusal, type AddressPolicy } from './public-address.js';
import type { Registry, ShopRecord } from './registry.js';
import { defaultPendingShops } from './settings.js';
import type { ShopNotices } from './shop-notices.js';

export interface ShopApiOptions {
  registry: Registry;
  partner: PartnerClient;
  policy: AddressPolicy;
  notices: ShopNotices;
  limits: LimitStore;
  /** The client's address as the limits count it. */
  addressOf(request: Incoming): string | undefined;
  /** The origin links and connect URLs are drawn on (`PAY_CHECKOUT_PUBLIC_URL`, else the request's own). */
  originOf(request: Incoming): string;
  /** What a shop's connection means elsewhere (its checkout made anew). */
  onChange(record: ShopRecord): void;
  emit: EventSink;
  now?: () => number;
  /** Registrations per address per hour; default 10. */
  registrationsPerHour?: number;
  /** Shops registered and never connected, at most (`PAY_CHECKOUT_PENDING_SHOPS`); default 10,000. */
  pendingShops?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function profileOf(record: ShopRecord, connectUrl: string) {
  return {
    store_id: record.store_id,
    name: record.name,
    status: record.status,
    notify_url: record.notify_url,
    allowed_origins: record.allowed_origins,
    id_store: record.id_store,
    created_at: iso(record.created_at),
    status_since: iso(record.status_since),
    connect_url: connectUrl,
  };
}

/**
 * The shop's connect_url: with a fresh token while the shop is not connected (each call makes a new one; each is
 * good until the shop connects, or for 24 hours), bare once it is (opening it then answers STORE_ALREADY_CONNECTED).
 */
export const connectUrlOf = (origin: string, registry: Registry, record: ShopRecord) => {
  const url = `${origin}/v1/stores/${encodeURIComponent(record.store_id)}/connect`;
  return record.status === 'connected' ? url : `${url}?token=${registry.connectToken(record)}`;
};

/**
 * What connect_url sends as `external_store_id`, and the service hands back in `store_onboarded`: the shop's id and
 * its token. A bare store_id is not one (anyone may know a store_id).
 */
export const externalStoreIdOf = (storeId: string, token: string) => `${storeId}.${token}`;
export function parseExternalStoreId(value: string): { storeId: string; token: string } | undefined {
  const match = /^(st_[A-Za-z0-9_-]{8,64})\.([0-9a-z]{1,12}\.[A-Za-z0-9_-]{43})$/.exec(value);
  return match ? { storeId: match[1] as string, token: match[2] as string } : undefined;
}

/**
 * The service's word on a merchant key sent with this partner's pair, from one read-only call (the gateways): taken,
 * or refused (an answer `refused` counts as such: by default any 4xx). Anything else (unreachable, 5xx) is thrown.
 */
export async function merchantKeyTaken(partner: PartnerClient, key: string, refused: (status: number) => boolean = (status) => status >= 400 && status < 500): Promise<boolean> {
  try {
    await partner.forMerchant(key).paymentGateways();
    return true;
  } catch (error) {
    if (error instanceof ServiceError && refused(error.status)) return false;
    throw error;
  }
}

/** The routes under `/v1/stores`; undefined for a path that is none of them. */
export function shopApi(options: ShopApiOptions): (request: Incoming, rest: string) => Promise<Reply & { headers?: Record<string, string> }> | undefined {
  const { registry, partner, notices, emit } = options;
  const now = options.now ?? Date.now;
  const perHour = options.registrationsPerHour ?? 10;
  const merchantOf = (key: string): MerchantClient => partner.forMerchant(key);
  const refuse = (apiCode: Parameters<typeof CheckoutHttpError.of>[0], extra: Parameters<typeof CheckoutHttpError.of>[1] = {}, headers: Record<string, string> = {}) => CheckoutHttpError.of(apiCode, extra, headers);
  const method = (request: Incoming, ...allowed: string[]) => {
    if (!allowed.includes(request.method)) throw refuse('METHOD_NOT_ALLOWED', {}, { Allow: allowed.join(', ') });
  };

  const authenticated = async (request: Incoming): Promise<ShopRecord> => {
    const header = request.headers.get('authorization') ?? '';
    const token = /^Bearer\s+(pcs_[A-Za-z0-9_-]{20,100})\s*$/i.exec(header)?.[1];
    const record = token ? await registry.byApiKey(token) : undefined;
    if (!record) throw refuse('INVALID_STORE_API_KEY', { description: 'Send the api_key POST /v1/stores gave, as Authorization: Bearer <api_key>.' }, { 'WWW-Authenticate': 'Bearer' });
    return record;
  };

  const checkMerchantKey = (key: string) => merchantKeyTaken(partner, key);

  const register = async (request: Incoming): Promise<Reply> => {
    const address = options.addressOf(request);
    if (address) {
      const hit = { name: 'storeRegistrations' as LimitName, key: `register:${address}`, limit: { max: perHour, windowMs: 3_600_000 } };
      const waitMs = await options.limits.hit([hit]);
      if (waitMs > 0) throw refuse('LIMIT_REACHED', { description: 'Too many shops registered from this address; try again later.' }, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
    }
    const parsed = parseWith(RegisterStoreBodySchema, await readJsonBody(request.body));
    if (!parsed.ok) throw CheckoutHttpError.invalid(parsed.problems);
    const body = parsed.value;
    const refusal = await notifyUrlRefusal(body.notify_url, options.policy);
    if (refusal) throw refuse('NOTIFY_URL_NOT_PUBLIC', { description: `notify_url ${refusal}.`, validation_errors: [{ field: 'notify_url', message: refusal }] });
    if (body.merchant_key !== undefined && !(await checkMerchantKey(body.merchant_key))) {
      throw refuse('MERCHANT_KEY_NOT_ACCEPTED', { validation_errors: [{ field: 'merchant_key', message: 'was not accepted by the service for this partner' }] });
    }
    // A shop that brings its key connects at once; every other one waits, pending, and at most `pendingShops` wait.
    const made = await registry.register({ name: body.name, notify_url: body.notify_url, allowed_origins: body.allowed_origins ?? [] }, body.merchant_key === undefined ? { pendingMax: options.pendingShops ?? defaultPendingShops } : {});
    if (!made) {
      emit({ level: 'warn', name: 'store_registrations_full', message: `a shop's registration refused: ${options.pendingShops ?? defaultPendingShops} shops are registered and not connected (PAY_CHECKOUT_PENDING_SHOPS); each is forgotten 24 hours after it registered` });
      throw refuse('LIMIT_REACHED', { description: 'Too many shops are waiting to connect here; try again later.' }, { 'Retry-After': '3600' });
    }
    let record = made.record;
    if (body.merchant_key !== undefined) {
      record = (await registry.connect(record.store_id, body.merchant_key, null)) ?? record;
      options.onChange(record);
    }
    emit({ level: 'info', name: 'store_registered', message: `shop ${record.store_id} registered (${record.status})`, store_id: record.store_id, status: record.status });
    return {
      status: 201,
      data: { store_id: record.store_id, api_key: made.apiKey, notify_secret: made.notifySecret, status: record.status, connect_url: connectUrlOf(options.originOf(request), registry, record) },
    };
  };

  const connect = async (request: Incoming, storeId: string): Promise<Reply & { headers?: Record<string, string> }> => {
    const record = await registry.get(storeId);
    if (!record) throw refuse('STORE_NOT_FOUND', { description: 'No shop with this id is registered here (a shop that never connects is forgotten after 24 hours).' });
    if (record.status === 'connected') throw refuse('STORE_ALREADY_CONNECTED');
    const token = request.searchParams.get('token') ?? '';
    if (!registry.connectTokenGood(record, token)) {
      throw refuse('CONNECT_URL_EXPIRED', { description: 'This connect_url is not (or no longer) good: GET /v1/stores/me, with the shop\'s api_key, gives a fresh one.' });
    }
    const { url } = await partner.onboardingLink();
    const target = new URL(url);
    target.searchParams.set('external_store_id', externalStoreIdOf(record.store_id, token));
    return { status: 302, data: { location: target.href }, headers: { Location: target.href } };
  };

  const createLink = async (request: Incoming, record: ShopRecord): Promise<Reply & { headers?: Record<string, string> }> => {
    const raw = await readJsonBody(request.body);
    const parsed = parseWith(CreateStoreLinkBodySchema, raw);
    if (!parsed.ok) throw CheckoutHttpError.invalid(parsed.problems);
    const body: CreateStoreLinkBody = parsed.value;
    const expiresMs = body.expires_at === undefined ? undefined : Date.parse(body.expires_at);
    if (expiresMs !== undefined && expiresMs <= now() + 60_000) throw CheckoutHttpError.invalid([{ field: 'expires_at', message: 'must be at least a minute in the future' }]);
    if (record.status !== 'connected') throw refuse('STORE_NOT_CONNECTED', { description: record.status === 'pending' ? 'Open connect_url to connect the shop with the service first.' : 'The shop was disconnected; open connect_url to connect it again.' });
    const idempotencyKey = request.headers.get('idempotency-key')?.trim();
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) throw CheckoutHttpError.invalid([{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
    const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    if (idempotencyKey) {
      const held = await registry.idempotency(record.store_id, idempotencyKey, digest);
      if (held.state === 'mismatch') throw refuse('IDEMPOTENCY_KEY_REUSED');
      if (held.state === 'in_flight') throw refuse('IDEMPOTENCY_KEY_IN_USE', {}, { 'Retry-After': '1' });
      if (held.state === 'done') return { status: 201, data: JSON.parse(held.response) as unknown, headers: { 'Idempotent-Replayed': 'true' } };
    }
    try {
      const merchantKey = registry.secrets(record).merchantKey;
      if (!merchantKey) throw refuse('STORE_NOT_CONNECTED');
      const ttlMinutes = expiresMs === undefined ? undefined : Math.max(1, Math.floor((expiresMs - now()) / 60_000));
      const created = await merchantOf(merchantKey).createLink({
        description: body.description,
        ...(body.amount !== undefined ? { amount: body.amount } : {}),
        ...(body.redirect_link !== undefined ? { redirect_link: body.redirect_link } : {}),
        ...(ttlMinutes !== undefined ? { ttl_minutes: ttlMinutes } : {}),
      });
      const expiresAt = expiresMs !== undefined ? iso(expiresMs) : (created.expires_at ?? null);
      await registry.putLink(created.hash, {
        store_id: record.store_id,
        description: body.description,
        amount: body.amount ?? null,
        reference: body.reference,
        redirect_link: body.redirect_link ?? null,
        expires_at: expiresAt,
        store_name: record.name,
        shopper: body.shopper ? registry.sealShopper(record, body.shopper) : null,
        created_at: now(),
        paid: false,
      });
      const data = { hash: created.hash, url: `${options.originOf(request)}/checkout/${encodeURIComponent(created.hash)}`, expires_at: expiresAt };
      if (idempotencyKey) await registry.completeIdempotency(record.store_id, idempotencyKey, digest, JSON.stringify(data));
      emit({ level: 'info', name: 'store_link_created', message: `shop ${record.store_id} made link ${created.hash}`, store_id: record.store_id, hash: created.hash });
      return { status: 201, data };
    } catch (error) {
      if (idempotencyKey) await registry.completeIdempotency(record.store_id, idempotencyKey, digest, null).catch(() => {});
      throw error;
    }
  };

  const order = async (record: ShopRecord, raw: string): Promise<Reply> => {
    const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
    if (id === undefined) throw CheckoutHttpError.invalid([{ field: 'id_order', message: 'must be an integer of at least 1' }]);
    const owner = await registry.order(id, record.store_id);
    const merchantKey = record.status === 'connected' ? registry.secrets(record).merchantKey : null;
    // Another shop's order is no order of this shop's: the same 404 as none at all.
    if (!owner || !merchantKey) throw refuse('ORDER_NOT_FOUND');
    const details = await merchantOf(merchantKey).getOrder(id);
    const link = await registry.link(owner.link);
    return { status: 200, data: { id_order: details.id_order, id_external: details.id_external ?? null, status: details.status, amount: details.total, currency: details.currency, link: owner.link, reference: link?.reference ?? '' } };
  };

  return (request, rest) => {
    if (rest === '') return (async () => (method(request, 'POST'), register(request)))();
    // Not decoded: a store_id has no character to escape, and a malformed escape is then no 5xx but STORE_NOT_FOUND.
    const connectMatch = /^\/([^/]+)\/connect$/.exec(rest);
    if (connectMatch) return (async () => (method(request, 'GET', 'HEAD'), connect(request, connectMatch[1] as string)))();
    if (rest === '/me') {
      return (async () => {
        method(request, 'GET', 'DELETE');
        const record = await authenticated(request);
        if (request.method === 'GET') return { status: 200, data: profileOf(record, connectUrlOf(options.originOf(request), registry, record)) };
        const changed = await registry.disconnect(record.store_id, 'shop_request', { revoke: true });
        if (changed) {
          options.onChange(changed.after);
          if (changed.before.status !== 'disconnected') await notices.recordStore(record.store_id, 'store.disconnected', { reason: 'shop_request' }, changed.before.status_since);
        }
        emit({ level: 'info', name: 'store_disconnected', message: `shop ${record.store_id} disconnected itself`, store_id: record.store_id, reason: 'shop_request' });
        return { status: 200, data: { store_id: record.store_id, status: 'disconnected' } };
      })();
    }
    if (rest === '/me/links') return (async () => (method(request, 'POST'), createLink(request, await authenticated(request))))();
    const orderMatch = /^\/me\/orders\/([^/]+)$/.exec(rest);
    if (orderMatch) return (async () => (method(request, 'GET'), order(await authenticated(request), orderMatch[1] as string)))();
    return undefined;
  };
}
