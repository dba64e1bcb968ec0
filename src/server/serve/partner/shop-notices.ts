/**
 * Notices to each shop's notify URL in partner mode: one shared outbox (the relay's, serve/relay/outbox.ts, under
 * keys of its own), each entry naming its shop, sent to that shop's current notify URL, signed with its notify
 * secret. Attempts are independent: a slot frees as soon as its attempt ends (no batch waits for its slowest), and a
 * shop has at most `perShop` attempts under way, so one shop's endpoint being down (each attempt running to the
 * timeout) holds at most that many of the `concurrency` slots and delays no other shop's notices. The retry
 * schedule and give-up window are the relay's (`afterFailure`).
 */
import { createHmac } from 'node:crypto';
import { payCheckoutSignatureHeader, signPayCheckout } from '../../../webhooks/pay-checkout-signature.js';
import { errorFields, type EventSink } from '../../events.js';
import type { OrderStatusChange } from '../../buyer/order-status.js';
import { noticeTypeOf } from '../relay/notice.js';
import type { DeliveryState, LeasedEntry, Outbox, OutboxEntry, Settlement } from '../relay/outbox.js';
import { afterFailure, defaultRelayTimings, toRelayed, type AttemptResult, type RelayedNotice } from '../relay/relay.js';
import { postChecked, type AddressPolicy } from './public-address.js';
import type { DisconnectReason, Registry } from './registry.js';

export interface ShopNoticeOptions {
  outbox: Outbox;
  registry: Registry;
  policy: AddressPolicy;
  emit: EventSink;
  now?: () => number;
  firstRetryMs?: number;
  timeoutMs?: number;
  pollMs?: number;
  /** Attempts under way at once on this instance; default 32. */
  concurrency?: number;
  /** Attempts under way at once for one shop; default 2. */
  perShop?: number;
  giveUpAfterMs?: number;
}

export interface ShopNotices {
  /** An order's outcome for the shop whose link it was paid through (`reference`: the shop's own id for it). */
  recordOrder(storeId: string, reference: string, change: OrderStatusChange): Promise<boolean>;
  /**
   * A shop's connection or disconnection. `at`: since when the shop was in the state it leaves, the same for every
   * request or instance that sees this one change, so a change seen twice at once is one notice.
   */
  recordStore(storeId: string, type: 'store.connected' | 'store.disconnected', data: { id_store?: number | null; reason?: DisconnectReason }, at: number): Promise<boolean>;
  start(): void;
  close(): Promise<void>;
  list(filter: { store?: string; states?: readonly DeliveryState[] }): Promise<(RelayedNotice & { store_id: string | null })[]>;
  redeliver(id: string): Promise<AttemptResult | undefined>;
  /** Every given-up notice of one shop, due again now: how many. */
  redeliverFailed(storeId: string): Promise<number>;
  /** Pending notices by shop (the operator's list, the metric). */
  pendingByShop(): Promise<Map<string, number>>;
}

const idOf = (text: string) => `evt_${createHmac('sha256', 'pay-checkout/partner-notice-id').update(text).digest('hex').slice(0, 32)}`;

const storeOf = (entry: OutboxEntry): string | null => {
  try {
    const data = (JSON.parse(entry.body) as { data?: { store_id?: unknown } }).data;
    return typeof data?.store_id === 'string' ? data.store_id : null;
  } catch {
    return null;
  }
};

/** The relay's listing of an entry, with the shop it is for. */
const toListed = (entry: OutboxEntry): RelayedNotice & { store_id: string | null } => {
  const { id, ...rest } = toRelayed(entry);
  return { id, store_id: storeOf(entry), ...rest };
};

export function shopNotices(options: ShopNoticeOptions): ShopNotices {
  const { outbox, registry, emit } = options;
  const now = options.now ?? Date.now;
  const timings = {
    firstRetryMs: options.firstRetryMs ?? defaultRelayTimings.firstRetryMs,
    maxDelayMs: defaultRelayTimings.maxDelayMs,
    giveUpAfterMs: options.giveUpAfterMs ?? defaultRelayTimings.giveUpAfterMs,
  };
  const timeoutMs = options.timeoutMs ?? defaultRelayTimings.timeoutMs;
  const pollMs = options.pollMs ?? defaultRelayTimings.pollMs;
  const leaseMs = timeoutMs + 20_000;
  const concurrency = options.concurrency ?? 32;
  const perShop = options.perShop ?? 2;
  const aborter = new AbortController();
  const busy = new Map<string, number>();
  let inFlight = 0;
  let started = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let leasing: Promise<void> | undefined;
  let again = false;
  const attempts = new Set<Promise<unknown>>();
  let saidTrouble = '';
  const trouble = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (message === saidTrouble) return;
    saidTrouble = message;
    emit({ level: 'error', name: 'notice_outbox_error', message: `shop notices outbox (${outbox.kind}): ${message}; notices wait in it until it answers`, outbox: outbox.kind, error: errorFields(error, undefined, false) });
  };

  const add = async (storeId: string, key: string, notice: { id: string; type: string; created_at: string; data: Record<string, unknown> }) => {
    const added = await outbox.add({ id: notice.id, key, body: JSON.stringify(notice), created_at: now() });
    emit({ level: 'info', name: 'notice_recorded', message: `notice ${notice.id} (${notice.type}) for shop ${storeId} ${added ? 'recorded' : 'was in the outbox already'}`, id: notice.id, type: notice.type, store_id: storeId, added });
    if (added) kick();
    return added;
  };

  /** One attempt at one entry; settles it. */
  const attempt = async ({ entry, token }: LeasedEntry, storeId: string | null): Promise<AttemptResult> => {
    const record = storeId ? await registry.get(storeId).catch(() => undefined) : undefined;
    let result: AttemptResult;
    if (!record) result = { ok: false, error: 'the shop is not registered (any more)' };
    else {
      const secret = registry.secrets(record).notifySecret;
      const sent = await postChecked(
        record.notify_url,
        { 'content-type': 'application/json', 'user-agent': 'pay-checkout-relay', 'pay-checkout-event-id': entry.id, [payCheckoutSignatureHeader]: signPayCheckout([secret], entry.body, now() / 1000) },
        entry.body,
        { ...options.policy, timeoutMs, signal: aborter.signal },
      );
      result = sent.status !== undefined && sent.status >= 200 && sent.status < 300 ? { ok: true, status: sent.status } : { ok: false, ...(sent.status !== undefined ? { status: sent.status, error: `answered ${sent.status}` } : { error: sent.error ?? 'failed' }) };
    }
    if (aborter.signal.aborted && !result.ok) return result;
    const at = now();
    const settlement: Settlement = result.ok
      ? { state: 'delivered', at, status: result.status ?? 200 }
      : !record
        ? { state: 'given_up', at, error: result.error ?? 'failed', status: null }
        : afterFailure(entry, at, timings, { error: result.error ?? 'failed', status: result.status ?? null });
    await outbox.settle(entry.id, token, settlement).catch(trouble);
    const where = record ? new URL(record.notify_url).origin : '-';
    const fields = { id: entry.id, store_id: storeId, attempt: entry.attempts, notify: where, ...(result.status !== undefined ? { status: result.status } : {}) };
    if (settlement.state === 'delivered') emit({ level: 'info', name: 'notice_delivered', message: `notice ${entry.id} delivered to shop ${storeId} (attempt ${entry.attempts})`, ...fields });
    else if (settlement.state === 'pending') emit({ level: 'warn', name: 'notice_delivery_failed', message: `notice ${entry.id} to shop ${storeId}: ${result.error} (attempt ${entry.attempts})`, ...fields, next_at: new Date(settlement.next_at).toISOString() });
    else emit({ level: 'error', name: 'notice_given_up', message: `notice ${entry.id} to shop ${storeId}: given up (${result.error}); \`pay-checkout deliveries redeliver --store ${storeId} --failed\` sends it again`, ...fields });
    return result;
  };

  const begin = (leased: LeasedEntry) => {
    const storeId = storeOf(leased.entry);
    const key = storeId ?? '-';
    busy.set(key, (busy.get(key) ?? 0) + 1);
    inFlight += 1;
    const running = attempt(leased, storeId)
      .catch((error: unknown) => trouble(error))
      .finally(() => {
        inFlight -= 1;
        const left = (busy.get(key) ?? 1) - 1;
        if (left <= 0) busy.delete(key);
        else busy.set(key, left);
        attempts.delete(running);
        kick();
      });
    attempts.add(running);
    return running;
  };

  /** Leases what is due while slots are free; a shop at its limit gets its entry back, due a moment later. */
  const lease = (): Promise<void> => {
    if (leasing) {
      again = true;
      return leasing;
    }
    leasing = (async () => {
      try {
        do {
          again = false;
          const free = concurrency - inFlight;
          if (free <= 0 || closed) break;
          const leased = await outbox.lease(now(), leaseMs, free);
          saidTrouble = '';
          let deferred = 0;
          for (const item of leased) {
            const storeId = storeOf(item.entry) ?? '-';
            if ((busy.get(storeId) ?? 0) >= perShop) {
              deferred += 1;
              await outbox.settle(item.entry.id, item.token, { state: 'pending', next_at: now() + Math.min(pollMs, 500), error: 'waiting for this shop\'s earlier notices', status: null }).catch(trouble);
            } else void begin(item);
          }
          if (leased.length === free && deferred < leased.length) again = true;
        } while (again && !closed);
      } catch (error) {
        trouble(error);
      } finally {
        leasing = undefined;
        schedule(pollMs);
      }
    })();
    return leasing;
  };

  const kick = () => {
    if (started && !closed) void lease();
  };
  const schedule = (delay: number) => {
    if (!started || closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void lease(), delay);
    timer.unref?.();
  };

  return {
    async recordOrder(storeId, reference, change) {
      const type = noticeTypeOf(change.status, change.cancel_reason);
      if (!type) return false;
      const data = { store_id: storeId, reference, link: change.link, id_order: change.id_order, id_external: change.id_external, status: change.status, amount: change.amount, currency: change.currency, gateway: change.gateway };
      return add(storeId, `${storeId}:${change.id_order}:${change.status}`, { id: idOf(`${storeId}\n${change.id_order}\n${change.status}`), type, created_at: new Date(now()).toISOString(), data });
    },
    async recordStore(storeId, type, data, at) {
      const body = type === 'store.connected' ? { store_id: storeId, id_store: data.id_store ?? null } : { store_id: storeId, reason: data.reason ?? 'operator' };
      return add(storeId, `${storeId}:${type}:${at}`, { id: idOf(`${storeId}\n${type}\n${at}`), type, created_at: new Date(now()).toISOString(), data: body });
    },
    start() {
      if (started || closed) return;
      started = true;
      kick();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      const under = [...attempts];
      let bound: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled(under), new Promise((resolve) => (bound = setTimeout(resolve, 2_000)))]);
      clearTimeout(bound);
      aborter.abort();
      await leasing?.catch(() => {});
      await outbox.close();
    },
    async list({ store, states = ['pending', 'given_up'] }) {
      const listed = (await outbox.list(states)).map(toListed);
      return store ? listed.filter((n) => n.store_id === store) : listed;
    },
    async redeliver(id) {
      if (!(await outbox.redeliver(id, now()))) return undefined;
      const [leased] = await outbox.lease(now(), leaseMs, 1, id);
      if (!leased) return { ok: false, queued: true };
      return attempt(leased, storeOf(leased.entry));
    },
    async redeliverFailed(storeId) {
      const failed = (await outbox.list(['given_up'])).filter((entry) => storeOf(entry) === storeId);
      for (const entry of failed) await outbox.redeliver(entry.id, now());
      kick();
      return failed.length;
    },
    async pendingByShop() {
      const counts = new Map<string, number>();
      for (const entry of await outbox.list(['pending'])) {
        const storeId = storeOf(entry);
        if (storeId) counts.set(storeId, (counts.get(storeId) ?? 0) + 1);
      }
      return counts;
    },
  };
}
