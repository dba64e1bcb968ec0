/**
 * `POST /v1/webhooks` in partner mode: the partner account's deliveries, verified with the partner's signing secret.
 * `store_onboarded` (and the live docs' `store.activated`, `store.updated` when they carry a merchant key) connects
 * the shop its `external_store_id` names with a good connect token (what connect_url carried: the shop's id and a
 * token only serve can make, used up by the connection); a bare store_id, a used or stale token, or no shop of ours
 * connects nothing and is kept for `stores bind`. A delivery from the service store a shop is connected to already
 * updates that shop's key. An
 * `integration_uninstalled` or `store_deleted` disconnects the shop connected to its `id_store`; one that names a
 * shop by its external id alone (a shop that brought its own key) disconnects it only once the service refuses that
 * shop's key; one whose `id_store` no shop is connected to disconnects each shop that brought its own key and whose
 * key the service now refuses. An `order_payment` goes to the checkout of the
 * shop whose link the order was made through, as the registry recorded at creation (never by what the payload
 * says of the store), and that checkout reads the order back with that shop's key before it counts.
 */
import { parseDelivery, type WebhookDelivery } from '../../../webhooks/delivery.js';
import { WebhookDeliveryError } from '../../../webhooks/errors.js';
import { deliveryKey, processOnce, type DeliveryClaims } from '../../../webhooks/process-once.js';
import type { EventSink } from '../../events.js';
import { readTextRequest } from '../../http/body.js';
import { CheckoutHttpError, type Reply } from '../../http/errors.js';
import { fromRequest, type Answer, type Incoming } from '../../http/incoming.js';
import type { CheckoutAssembly } from '../../handler.js';
import type { DisconnectReason, Registry, ShopRecord } from './registry.js';
import { parseExternalStoreId } from './shop-api.js';
import type { ShopNotices } from './shop-notices.js';

export interface PartnerWebhookOptions {
  registry: Registry;
  secrets: readonly string[];
  notices: ShopNotices;
  checkoutOf(record: ShopRecord): CheckoutAssembly | undefined;
  onChange(record: ShopRecord): void;
  /** Where each store delivery is claimed, so a copy of it is acted on once (the shared claim store). */
  claims: DeliveryClaims;
  /** Whether the service refuses the shop's merchant key from this partner now (its integration removed). */
  keyRevoked(record: ShopRecord): Promise<boolean>;
  emit: EventSink;
  now?: () => number;
}

type Json = Record<string, unknown>;
/** How long a store delivery is remembered: past the 5 minutes either way its timestamp is taken for. */
const deliveryMemoryMs = 15 * 60 * 1000;
/** Shops asked of the service at once when an uninstall names a service store no shop is connected to. */
const revokedProbesAtOnce = 8;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The payload's fields, a `data`-nested one flattened. */
const fieldsOf = (payload: unknown): Json => (isObject(payload) ? (isObject(payload.data) ? { ...payload, ...payload.data } : payload) : {});
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const idStoreOf = (fields: Json) => (typeof fields.id_store === 'number' && Number.isInteger(fields.id_store) && fields.id_store > 0 ? fields.id_store : undefined);

export function partnerWebhooks(options: PartnerWebhookOptions): (request: Incoming) => Promise<Reply | Answer> {
  const { registry, notices, emit } = options;
  const now = options.now ?? Date.now;

  const onboarded = async (fields: Json): Promise<Reply> => {
    const merchantKey = text(fields.merchant_key);
    if (!merchantKey) return { status: 200, data: { received: true, handled: false } };
    const idStore = idStoreOf(fields) ?? null;
    const external = text(fields.external_store_id) ?? text(fields.external_id);
    const named = external ? parseExternalStoreId(external) : undefined;
    const namedRecord = named ? await registry.get(named.storeId) : undefined;
    let record = namedRecord && named && registry.connectTokenGood(namedRecord, named.token) ? namedRecord : undefined;
    if (!record && idStore !== null) {
      // The service store a shop is connected to already, sending again (a retried delivery, a changed key): that shop.
      const bound = await registry.byIdStore(idStore);
      const boundRecord = bound ? await registry.get(bound) : undefined;
      if (boundRecord?.status === 'connected' && boundRecord.id_store === idStore) record = boundRecord;
    }
    if (!record) {
      // No shop's fresh connect token: a bare store_id (anyone may know one), a used or stale token, or nothing of
      // ours. Connects no shop; kept (sealed) for the operator's `stores bind STORE_ID ID_STORE`.
      if (idStore !== null) await registry.keepUnbound(idStore, text(fields.store_name) ?? null, merchantKey);
      const which = named?.storeId ?? (external && /^st_[A-Za-z0-9_-]{8,64}$/.test(external) ? external : undefined);
      emit({
        level: 'warn',
        name: 'store_onboarded_unbound',
        message: `store_onboarded for id_store ${idStore ?? '?'} ${which ? `names shop ${which} without a good connect token (a bare store_id, or one used or stale)` : 'names no shop registered here'}; connects no shop; \`pay-checkout stores bind STORE_ID ${idStore ?? 'ID_STORE'}\` connects it`,
        id_store: idStore,
        ...(which ? { store_id: which } : {}),
      });
      return { status: 200, data: { received: true, handled: false } };
    }
    // A shop that deleted itself (its API key revoked) is never connected again, whoever finishes onboarding naming it.
    if (record.api_key_hash === null) {
      emit({ level: 'warn', name: 'store_onboarded_refused', message: `store_onboarded for id_store ${idStore ?? '?'} names shop ${record.store_id}, which deleted itself; ignored`, store_id: record.store_id, id_store: idStore });
      return { status: 200, data: { received: true, handled: false } };
    }
    const connected = await registry.connect(record.store_id, merchantKey, idStore);
    if (!connected) return { status: 200, data: { received: true, handled: false } };
    options.onChange(connected);
    if (record.status !== 'connected') {
      await notices.recordStore(record.store_id, 'store.connected', { id_store: connected.id_store }, record.status_since);
      emit({ level: 'info', name: 'store_connected', message: `shop ${record.store_id} connected (id_store ${connected.id_store ?? '?'})`, store_id: record.store_id, id_store: connected.id_store });
    }
    return { status: 200, data: { received: true, handled: true } };
  };

  /** Disconnects a shop, telling it once (not again when it was disconnected already); false when it is gone. */
  const disconnect = async (record: ShopRecord, reason: DisconnectReason): Promise<boolean> => {
    const changed = await registry.disconnect(record.store_id, reason);
    if (!changed) return false;
    options.onChange(changed.after);
    if (changed.before.status !== 'disconnected') {
      await notices.recordStore(record.store_id, 'store.disconnected', { reason }, changed.before.status_since);
      emit({ level: 'info', name: 'store_disconnected', message: `shop ${record.store_id} disconnected (${reason})`, store_id: record.store_id, reason });
    }
    return true;
  };

  /**
   * A service store no shop here is connected to may be one a shop that brought its own key belongs to: serve never
   * learns such a shop's `id_store`. Each connected shop without one is asked of the service (one read-only call with
   * its key, 8 at a time), and the shops whose key it now refuses from this partner are disconnected.
   */
  const disconnectRevoked = async (reason: DisconnectReason): Promise<boolean> => {
    const unbound = (await registry.list()).filter((record) => record.status === 'connected' && record.id_store === null && record.merchant_key !== null);
    let any = false;
    for (let i = 0; i < unbound.length; i += revokedProbesAtOnce) {
      const batch = unbound.slice(i, i + revokedProbesAtOnce);
      const revoked = await Promise.all(batch.map((record) => options.keyRevoked(record)));
      for (const [j, record] of batch.entries()) if (revoked[j] && (await disconnect(record, reason))) any = true;
    }
    return any;
  };

  const uninstalled = async (fields: Json, reason: DisconnectReason): Promise<Reply> => {
    const idStore = idStoreOf(fields);
    const external = text(fields.external_store_id) ?? text(fields.external_id);
    const bound = idStore !== undefined ? await registry.byIdStore(idStore) : undefined;
    const storeId = bound ?? (external ? (parseExternalStoreId(external)?.storeId ?? external) : undefined);
    const record = storeId ? await registry.get(storeId) : undefined;
    const answer = (handled: boolean): Reply => ({ status: 200, data: { received: true, handled } });
    // A service store no shop is connected to: perhaps a shop's own key (see disconnectRevoked).
    const unboundStore = idStore !== undefined && bound === undefined;
    // Only the shop this service store is connected to: an id in a payload alone does not disconnect another.
    if (!record || (idStore !== undefined && record.id_store !== null && record.id_store !== idStore)) return answer(unboundStore && (await disconnectRevoked(reason)));
    if (idStore === undefined || record.id_store !== idStore) {
      // Named by the payload's external id alone (a shop that brought its own key has no id_store here), which any
      // merchant of this partner can set to any store_id at onboarding: only a connected shop whose key the service
      // no longer takes from this partner is disconnected. The service unreachable: 503, and its retry asks again.
      if (record.status !== 'connected' || !(await options.keyRevoked(record))) {
        emit({ level: 'warn', name: 'store_uninstall_ignored', message: `${reason} for id_store ${idStore ?? '?'} names shop ${record.store_id} by its external id only, and the service still takes that shop's key; the shop stays ${record.status}`, store_id: record.store_id, id_store: idStore ?? null, reason });
        return answer(unboundStore && (await disconnectRevoked(reason)));
      }
    }
    return answer(await disconnect(record, reason));
  };

  /**
   * The shop an `order_payment` is for: the one an order of this id was made through. Where the id names orders of
   * more than one shop, the one the delivery's service store is connected to, else the one its external id names
   * (of those alone), else the latest. Its checkout reads the order back with its own key before it counts.
   */
  const ownerOf = async (idOrder: number, fields: Json): Promise<ShopRecord | undefined> => {
    const owners = await registry.orders(idOrder);
    if (owners.length <= 1) return owners[0] ? registry.get(owners[0].store_id) : undefined;
    const records = (await Promise.all(owners.map((owner) => registry.get(owner.store_id)))).filter((record): record is ShopRecord => record !== undefined);
    const idStore = idStoreOf(fields);
    const external = text(fields.external_store_id) ?? text(fields.external_id);
    const named = external ? (parseExternalStoreId(external)?.storeId ?? external) : undefined;
    return records.find((record) => idStore !== undefined && record.id_store === idStore) ?? records.find((record) => record.store_id === named) ?? records.at(-1);
  };

  return async (request) => {
    if (request.method !== 'POST') throw CheckoutHttpError.of('METHOD_NOT_ALLOWED', {}, { Allow: 'POST' });
    const body = await readTextRequest(request.body, (apiCode, extra) => {
      throw CheckoutHttpError.of(apiCode, extra);
    });
    let delivery: WebhookDelivery;
    try {
      delivery = await parseDelivery({ headers: request.request.headers, body, secret: options.secrets, now });
    } catch (error) {
      if (!(error instanceof WebhookDeliveryError)) throw error;
      if (error.httpStatus === 401) throw CheckoutHttpError.of('UNAUTHORIZED_ACCESS', { description: error.message }).withCause(error);
      if (error.reason === 'malformed_json') throw CheckoutHttpError.of('MALFORMED_JSON').withCause(error);
      throw CheckoutHttpError.of('VALIDATION_FAILED', { description: error.message, validation_errors: [...error.problems] }).withCause(error);
    }
    const name = delivery.event === 'unknown' ? delivery.name : delivery.event;
    const fields = fieldsOf(delivery.payload);
    const storeEvent =
      name === 'store_onboarded' || name === 'store.activated' || name === 'store.updated' || name === 'store_updated'
        ? () => onboarded(fields)
        : name === 'integration_uninstalled' || name === 'store_deleted'
          ? () => uninstalled(fields, name)
          : undefined;
    if (storeEvent) {
      // Each delivery acted on once (its exact payload, for as long as its timestamp is taken): a late retry or a kept
      // copy must not undo what came after it (disconnect a shop bound again since, or bring back a replaced key).
      // A copy that arrives while the first is under way is answered as done: were the first to fail, its own retry comes.
      const once = await processOnce(options.claims, delivery, storeEvent, { key: `partner:${await deliveryKey(delivery)}`, ttlMs: deliveryMemoryMs });
      return once.outcome === 'processed' ? once.result : { status: 200, data: { received: true, handled: false, duplicate: true } };
    }
    if (delivery.event !== 'order_payment') return { status: 200, data: { received: true, handled: false } };
    const record = await ownerOf(delivery.payload.id_order, fields);
    const checkout = record && options.checkoutOf(record);
    if (!checkout) {
      emit({ level: 'info', name: 'order_payment_unrouted', message: `order_payment for order ${delivery.payload.id_order}: no connected shop made it here`, id_order: delivery.payload.id_order });
      return { status: 200, data: { received: true, handled: false } };
    }
    // The same signed bytes, to the shop's own intake: it verifies them again and reads the order back with its key.
    const forwarded = new Request('http://partner.internal/v1/webhooks', { method: 'POST', headers: request.request.headers, body });
    return checkout.answer(fromRequest(forwarded));
  };
}
