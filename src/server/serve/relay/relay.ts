/**
 * `createRelay()`: outcomes of orders relayed to the shop's notify URL, never lost. A change is first written to the
 * outbox (outbox.ts), then sent, signed with every app secret (`Pay-Checkout-Signature` over the raw body), from a
 * loop on each instance that leases due entries: so each is sent by one instance at a time, and one whose sender
 * died is sent again once its lease runs out. Any answer but 2xx, or none within the timeout, is retried after
 * growing delays (doubling from `firstRetryMs`, at most `maxDelayMs`) for `giveUpAfterMs`, then given up and listed.
 */
import { payCheckoutSignatureHeader, signPayCheckout } from '../../../webhooks/pay-checkout-signature.js';
import { errorFields, type EventSink } from '../../events.js';
import { withoutCredentials } from '../../http/shown-values.js';
import type { OrderStatusChange } from '../../buyer/order-status.js';
import { noticeKeyOf, noticeOf, type Notice } from './notice.js';
import type { DeliveryState, LeasedEntry, Outbox, OutboxEntry, Settlement } from './outbox.js';

export interface RelayOptions {
  outbox: Outbox;
  /** Where notices are POSTed (`PAY_CHECKOUT_NOTIFY_URL`). */
  notifyUrl: string;
  /** The app secrets (`PAY_CHECKOUT_APP_SECRET`): each signs, so a shop holding either verifies while they rotate. */
  secrets: readonly string[];
  /** The first retry's delay; each next one doubles. Default 10,000 ms. */
  firstRetryMs?: number;
  emit: EventSink;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** An attempt unanswered in this time has failed; default 10,000 ms. */
  timeoutMs?: number;
  /** The longest delay between two attempts; default 6 hours. */
  maxDelayMs?: number;
  /** After this long (from the notice's creation, or its last redelivery) it is given up; default 3 days. */
  giveUpAfterMs?: number;
  /** How often each instance looks for due notices; default 1,000 ms (a change recorded here is sent at once). */
  pollMs?: number;
  /** How long an attempt holds its notice against other instances; default the timeout plus 20 s. */
  leaseMs?: number;
  /** At most this many notices sent at once per instance; default 8. */
  concurrency?: number;
  /** How long close() lets a send under way finish before aborting it (its lease then runs out); default 2,000 ms. */
  drainMs?: number;
}

export interface RelayedNotice {
  id: string;
  type: string;
  id_order: number | null;
  status: string | null;
  link: string | null;
  state: DeliveryState;
  attempts: number;
  created_at: string;
  /** When the next attempt is due (pending). */
  next_at: string | null;
  last_error: string | null;
  last_status: number | null;
}

export interface AttemptResult {
  ok: boolean;
  /** The shop's HTTP status, when it answered. */
  status?: number;
  /** Why it failed, in a few words. */
  error?: string;
  /** Redelivery only: another instance's loop took the notice first and is sending it. */
  queued?: boolean;
}

export interface Relay {
  /** Writes the change's notice to the outbox (once per order and status); resolves once it is stored. */
  record(change: OrderStatusChange): Promise<{ id: string; added: boolean } | undefined>;
  /** Starts sending (warns once when the outbox does not outlive the process). */
  start(): void;
  /** Stops the loop, lets a send under way finish briefly, and closes the outbox's connections. */
  close(): Promise<void>;
  /** Notices pending or given up (or the states asked for). */
  list(filter?: { states?: readonly DeliveryState[] }): Promise<RelayedNotice[]>;
  /** Sends the notice again now, with the same id, and retries it as a new one if that fails; undefined when unknown. */
  redeliver(id: string): Promise<AttemptResult | undefined>;
  /** Sends a signed `test` notice straight away, outside the outbox (`serve --check`). */
  sendTestEvent(): Promise<AttemptResult>;
}

export const defaultRelayTimings = {
  firstRetryMs: 10_000,
  timeoutMs: 10_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  giveUpAfterMs: 3 * 24 * 60 * 60 * 1000,
  pollMs: 1_000,
};

/** The delay after failed attempt `attempt` (1 for the first): doubling from `firstRetryMs`, capped, plus up to 10 % jitter. */
export function retryDelayMs(attempt: number, firstRetryMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const base = Math.min(firstRetryMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40), maxDelayMs);
  return Math.round(base * (1 + 0.1 * random()));
}

/** What follows a failed attempt: the next one, no later than the window's end; at or past it, given up. */
export function afterFailure(entry: OutboxEntry, now: number, timings: { firstRetryMs: number; maxDelayMs: number; giveUpAfterMs: number }, failure: { error: string; status: number | null }): Settlement {
  const end = entry.window_from + timings.giveUpAfterMs;
  if (now >= end) return { state: 'given_up', at: now, ...failure };
  const nextAt = Math.min(now + retryDelayMs(entry.attempts, timings.firstRetryMs, timings.maxDelayMs), end);
  return { state: 'pending', next_at: nextAt, delay_ms: nextAt - now, ...failure };
}

/** A failed attempt in a few words: the socket error's code where there is one (`fetch failed` says nothing). */
const describe = (error: unknown): string => {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within the timeout';
  let current = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR') return current.code;
    current = (current.cause ?? current.errors?.[0]) as typeof current;
  }
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause instanceof Error ? `${message}: ${cause.message}` : message;
};

/** An outbox entry as `deliveries` lists it (also partner mode's, with the shop). */
export function toRelayed(entry: OutboxEntry): RelayedNotice {
  let notice: Partial<Notice> = {};
  try {
    notice = JSON.parse(entry.body) as Notice;
  } catch {
    // listed with what the entry itself says
  }
  const data = (notice.data ?? {}) as Partial<Record<string, unknown>>;
  return {
    id: entry.id,
    type: String(notice.type ?? ''),
    id_order: typeof data.id_order === 'number' ? data.id_order : null,
    status: typeof data.status === 'string' ? data.status : null,
    link: typeof data.link === 'string' ? data.link : null,
    state: entry.state,
    attempts: entry.attempts,
    created_at: new Date(entry.created_at).toISOString(),
    next_at: entry.state === 'pending' ? new Date(entry.next_at).toISOString() : null,
    last_error: entry.last_error,
    last_status: entry.last_status,
  };
}

export function createRelay(options: RelayOptions): Relay {
  const { outbox, emit } = options;
  if (!URL.canParse(options.notifyUrl) || !/^https?:$/.test(new URL(options.notifyUrl).protocol)) throw new TypeError('createRelay: `notifyUrl` must be an absolute http(s) URL.');
  if (!Array.isArray(options.secrets) || options.secrets.length === 0 || options.secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('createRelay: `secrets` must list at least one app secret.');
  }
  // fetch() refuses a URL with credentials in it; a shop behind HTTP basic auth gets them as the header instead.
  const { url: target, authorization: basicAuth } = withoutCredentials(options.notifyUrl);
  const secrets = [...options.secrets];
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const timings = {
    firstRetryMs: options.firstRetryMs ?? defaultRelayTimings.firstRetryMs,
    maxDelayMs: options.maxDelayMs ?? defaultRelayTimings.maxDelayMs,
    giveUpAfterMs: options.giveUpAfterMs ?? defaultRelayTimings.giveUpAfterMs,
  };
  const timeoutMs = options.timeoutMs ?? defaultRelayTimings.timeoutMs;
  const pollMs = options.pollMs ?? defaultRelayTimings.pollMs;
  const leaseMs = options.leaseMs ?? timeoutMs + 20_000;
  const concurrency = options.concurrency ?? 8;
  const drainMs = options.drainMs ?? 2_000;
  // Events name where notices go by origin only: a notify URL's path or query may hold a token of the shop's.
  const where = target.origin;

  let started = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const aborter = new AbortController();
  let saidOutbox = '';
  const outboxTrouble = (error: unknown) => {
    const message = describe(error);
    if (message === saidOutbox) return;
    saidOutbox = message;
    emit({ level: 'error', name: 'notice_outbox_error', message: `notice outbox (${outbox.kind}): ${message}; notices wait in it until it answers`, outbox: outbox.kind, error: errorFields(error, undefined, false) });
  };

  /** One POST of the body, signed now; ok only on 2xx. */
  const post = async (id: string, body: string): Promise<AttemptResult> => {
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pay-checkout-relay',
          'pay-checkout-event-id': id,
          ...(basicAuth ? { authorization: basicAuth } : {}),
          [payCheckoutSignatureHeader]: signPayCheckout(secrets, body, now() / 1000),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), aborter.signal]),
      });
      await response.body?.cancel().catch(() => {});
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `answered ${response.status}` };
    } catch (error) {
      return { ok: false, error: aborter.signal.aborted ? 'the relay closed during the attempt' : describe(error) };
    }
  };

  const attempt = async ({ entry, token }: LeasedEntry): Promise<AttemptResult> => {
    const result = await post(entry.id, entry.body);
    if (aborter.signal.aborted && !result.ok) return result; // closing: the lease runs out and the notice is sent again
    const at = now();
    const settlement: Settlement = result.ok
      ? { state: 'delivered', at, status: result.status ?? 200 }
      : afterFailure(entry, at, timings, { error: result.error ?? 'failed', status: result.status ?? null });
    await outbox.settle(entry.id, token, settlement).catch(outboxTrouble);
    const fields = { id: entry.id, attempt: entry.attempts, notify: where, ...(result.status !== undefined ? { status: result.status } : {}) };
    if (settlement.state === 'delivered') emit({ level: 'info', name: 'notice_delivered', message: `notice ${entry.id} delivered to ${where} (attempt ${entry.attempts})`, ...fields });
    else if (settlement.state === 'pending') {
      emit({ level: 'warn', name: 'notice_delivery_failed', message: `notice ${entry.id} to ${where}: ${result.error} (attempt ${entry.attempts}); next attempt at ${new Date(settlement.next_at).toISOString()}`, ...fields, next_at: new Date(settlement.next_at).toISOString() });
    } else {
      emit({ level: 'error', name: 'notice_given_up', message: `notice ${entry.id} to ${where}: given up after ${entry.attempts} attempts (${result.error}); \`pay-checkout deliveries redeliver ${entry.id}\` sends it again`, ...fields });
    }
    return result;
  };

  const schedule = (delay: number) => {
    if (!started || closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), delay);
    timer.unref?.();
  };

  /** Leases and sends what is due, batch after batch while batches come full; one tick at a time per instance. */
  const tick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        for (let full = true; full && !closed; ) {
          again = false;
          const leased = await outbox.lease(now(), leaseMs, concurrency);
          saidOutbox = '';
          await Promise.all(leased.map(attempt));
          full = leased.length === concurrency || again;
        }
      } catch (error) {
        outboxTrouble(error);
      } finally {
        running = undefined;
        schedule(pollMs);
      }
    })();
    return running;
  };

  return {
    async record(change) {
      if (closed) throw new Error('createRelay: the relay is closed');
      const made = noticeOf(change, now());
      if (!made) return undefined;
      const { notice } = made;
      const added = await outbox.add({ id: notice.id, key: noticeKeyOf(change.order_uid, change.status), body: JSON.stringify(notice), created_at: now() });
      // Added by the sweep: no webhook and no buyer had told any instance; without the sweep the shop would never know.
      const swept = added && change.found_by === 'sweep';
      emit({
        level: swept ? 'warn' : 'info',
        name: 'notice_recorded',
        message: `notice ${notice.id} (${notice.type}, order ${change.id_order}) ${added ? 'recorded' : 'was in the outbox already'}${swept ? ': found only by the sweep re-reading the order (no webhook or buyer told of it)' : ''}`,
        id: notice.id,
        type: notice.type,
        id_order: change.id_order,
        added,
        found_by: change.found_by,
      });
      if (added && started) void tick();
      return { id: notice.id, added };
    },

    start() {
      if (started || closed) return;
      started = true;
      if (!outbox.durable) {
        emit({
          level: 'warn',
          name: 'notice_outbox_volatile',
          message: 'notices to the shop are kept in memory: a restart loses those not yet delivered, and each instance sends its own. Set PAY_CHECKOUT_REDIS_URL or PAY_CHECKOUT_DATABASE_URL.',
          outbox: outbox.kind,
        });
      }
      void tick();
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      const under = running;
      if (under) {
        let bound: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([under, new Promise((resolve) => (bound = setTimeout(resolve, drainMs)))]);
        clearTimeout(bound);
      }
      aborter.abort();
      await under?.catch(() => {});
      await outbox.close();
    },

    async list(filter) {
      return (await outbox.list(filter?.states ?? ['pending', 'given_up'])).map(toRelayed);
    },

    async redeliver(id) {
      if (!(await outbox.redeliver(id, now()))) return undefined;
      const [leased] = await outbox.lease(now(), leaseMs, 1, id);
      // Taken already by an instance's loop: it is being sent.
      if (!leased) return { ok: false, queued: true };
      return attempt(leased);
    },

    async sendTestEvent() {
      const id = `evt_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const notice: Notice = { id, type: 'test', created_at: new Date(now()).toISOString(), data: {} };
      return post(id, JSON.stringify(notice));
    },
  };
}
