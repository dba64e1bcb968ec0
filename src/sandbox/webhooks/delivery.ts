import { setMaxListeners } from 'node:events';
/**
 * The sandbox's webhook sender, with the contract's delivery semantics: a real HTTP POST of compact
 * JSON signed with HMAC-SHA256, each attempt cut off after 5 s, up to 3 attempts about 1 s apart,
 * only connection failures, timeouts and 5xx retried, every attempt logged.
 */
import {
  webhookAttemptTimeoutMs,
  webhookHeaders,
  webhookMaxAttempts,
  webhookRetryDelayMs,
  webhookUserAgent,
  type DeliveryAttempt,
  type DeliveryRecord,
  type WebhookEventName,
} from '../../contract/index.js';
import { sign } from '../../webhooks/signature.js';
import { attemptDelivery } from './attempt.js';
import type { SandboxDialect } from '../dialect.js';
import { liveWebhookBody, liveWebhookRequestHeaders } from '../live-dialect.js';

export type { DeliveryAttempt, DeliveryRecord } from '../../contract/index.js';

/** The log keeps the most recent deliveries only, so a long-running sandbox stays small. */
export const deliveryLogLimit = 1_000;

export interface DelivererOptions {
  /** Per attempt; default the contract's 5 s. */
  timeoutMs?: number;
  /** Wait after a failed attempt before the next; default the contract's "about 1 second". */
  retryDelayMs?: number;
  /** Default the contract's 3. */
  maxAttempts?: number;
  fetch?: typeof fetch;
  /** Wall clock for timestamps (the sandbox's injectable clock); durations use a monotonic timer. */
  now?: () => number;
  userAgent?: string;
  /** `live`: `X-Wava-*` headers and `data`-nested payloads, as the live webhook pages show them. Default `contract`. */
  dialect?: SandboxDialect;
}

export interface DeliveryTarget {
  url: string;
  /** Signing secret; null sends no X-Service-Signature header. */
  secret: string | null;
  /** Who the delivery is for, e.g. "partner" or "forward". */
  label?: string;
}

export interface SendOptions {
  /** Overrides the deliverer's `maxAttempts` for this delivery (e.g. 1 for a synchronous test ping). */
  maxAttempts?: number;
  /**
   * Holds the first attempt until this earlier delivery settles, or `maxWaitMs` passes: an ordered pair of events
   * (link_paid after order_payment) without a receiver that never answers holding the second back for long.
   */
  after?: { delivery: Promise<unknown>; maxWaitMs: number };
}

export type DeliveryListener = (record: Readonly<DeliveryRecord>) => void;

export interface Deliverer {
  readonly settings: Readonly<Required<Omit<DelivererOptions, 'fetch' | 'now' | 'dialect'>>>;
  /** Delivers in the background; resolves with the finished record. Never rejects. */
  send(target: DeliveryTarget, event: WebhookEventName, payload: object, options?: SendOptions): Promise<DeliveryRecord>;
  /** Oldest first, at most `deliveryLogLimit`. Records change while their delivery runs: do not mutate them. */
  records(): readonly Readonly<DeliveryRecord>[];
  /** Called when a delivery starts, after each attempt and when it ends. Returns the unsubscribe function. */
  onRecord(listener: DeliveryListener): () => void;
  /** Aborts every delivery in flight (sockets included) and empties the log. */
  reset(): void;
  /** Resolves once no delivery is in flight. */
  idle(): Promise<void>;
}

export function createDeliverer(options: DelivererOptions = {}): Deliverer {
  const settings = Object.freeze({
    timeoutMs: options.timeoutMs ?? webhookAttemptTimeoutMs,
    retryDelayMs: options.retryDelayMs ?? webhookRetryDelayMs,
    maxAttempts: Math.max(1, options.maxAttempts ?? webhookMaxAttempts),
    userAgent: options.userAgent ?? webhookUserAgent,
  });
  const live = options.dialect === 'live';
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const isoNow = () => new Date(now()).toISOString();

  let log: DeliveryRecord[] = [];
  let nextId = 1;
  let generation = unboundedController(); // aborted and replaced by reset()
  const inFlight = new Set<Promise<unknown>>();
  const listeners = new Set<DeliveryListener>();

  const remember = (record: DeliveryRecord, cancel: AbortSignal) => {
    if (cancel.aborted) return;
    log.push(record);
    if (log.length > deliveryLogLimit) log.splice(0, log.length - deliveryLogLimit);
  };
  const publish = (record: DeliveryRecord, cancel: AbortSignal) => {
    if (cancel.aborted) return; // a delivery cut off by reset() no longer belongs to the log
    for (const listener of listeners) {
      try {
        listener(record);
      } catch {
        // a faulty listener must not break delivery
      }
    }
  };

  async function deliver(record: DeliveryRecord, attempts: number, cancel: AbortSignal) {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (cancel.aborted) {
        record.state = 'failed'; // reset() during the wait between attempts
        return;
      }
      const startedAt = isoNow();
      const started = performance.now();
      const result = await attemptDelivery({ url: record.url, headers: record.headers, body: record.body, timeoutMs: settings.timeoutMs, cancel, fetch: fetchImpl });
      const last = result.verdict !== 'retry' || attempt === attempts || cancel.aborted;
      const logged: DeliveryAttempt = {
        attempt,
        started_at: startedAt,
        duration_ms: Math.max(0, Math.round(performance.now() - started)),
        status: result.status,
        response_body: result.responseBody,
        error: result.error,
        outcome: result.verdict === 'delivered' ? 'delivered' : last ? 'failed' : 'retrying',
      };
      record.attempts.push(logged);
      if (last) {
        record.state = result.verdict === 'delivered' ? 'delivered' : 'failed';
        publish(record, cancel);
        return;
      }
      publish(record, cancel);
      await pause(settings.retryDelayMs, cancel);
    }
  }

  async function start(target: DeliveryTarget, event: WebhookEventName, payload: object, sendOptions: SendOptions): Promise<DeliveryRecord> {
    const cancel = generation.signal;
    const record: DeliveryRecord = {
      id: `dlv_${nextId++}`,
      event,
      url: target.url,
      label: target.label ?? null,
      payload: {},
      body: '',
      signature: null,
      headers: {},
      attempts: [],
      state: 'pending',
      created_at: isoNow(),
    };
    remember(record, cancel); // logged at once, so the log keeps the order in which events happened
    try {
      record.body = JSON.stringify(live ? liveWebhookBody(payload) : payload);
      // A snapshot, so a caller changing its object later cannot make the log disagree with what was sent.
      record.payload = JSON.parse(record.body) as Record<string, unknown>;
    } catch (error) {
      return refuse(record, `payload could not be serialized: ${error instanceof Error ? error.message : String(error)}`, cancel);
    }
    if (!isHttpUrl(target.url)) return refuse(record, `invalid webhook URL: ${JSON.stringify(target.url)}`, cancel);
    try {
      record.signature = target.secret === null ? null : await sign(record.body, target.secret);
    } catch (error) {
      // WebCrypto refuses some keys (an empty one, for instance): a setup fault, logged, never thrown.
      return refuse(record, `could not sign: ${error instanceof Error ? error.message : String(error)}`, cancel);
    }
    record.headers = live ? liveWebhookRequestHeaders(event, record.created_at, record.signature) : {
      'Content-Type': 'application/json',
      [webhookHeaders.event]: event,
      // One timestamp for every attempt of a delivery: the log shows exactly the headers each attempt sent.
      [webhookHeaders.timestamp]: record.created_at,
      ...(record.signature === null ? {} : { [webhookHeaders.signature]: record.signature }),
      'User-Agent': settings.userAgent,
    };
    publish(record, cancel);
    if (sendOptions.after) await waitForEarlier(sendOptions.after, cancel);
    try {
      await deliver(record, Math.max(1, sendOptions.maxAttempts ?? settings.maxAttempts), cancel);
    } catch (error) {
      // Unreachable by design (attempts catch their own errors); kept so send() can promise never to reject.
      record.state = 'failed';
      record.attempts.push({ attempt: record.attempts.length + 1, started_at: isoNow(), duration_ms: 0, status: null, response_body: null, error: `internal error: ${String(error)}`, outcome: 'failed' });
      publish(record, cancel);
    }
    return record;
  }

  /** A delivery that cannot be attempted is still logged, as one failed attempt with no response. */
  function refuse(record: DeliveryRecord, error: string, cancel: AbortSignal): DeliveryRecord {
    record.attempts.push({ attempt: 1, started_at: record.created_at, duration_ms: 0, status: null, response_body: null, error, outcome: 'failed' });
    record.state = 'failed';
    publish(record, cancel);
    return record;
  }

  return {
    settings,
    send(target, event, payload, sendOptions = {}) {
      const running = start(target, event, payload, sendOptions);
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
      return running;
    },
    records: () => log.slice(),
    onRecord(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      generation.abort(new Error('deliverer reset'));
      generation = unboundedController();
      log = [];
      nextId = 1;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Waits until the earlier delivery settles, `maxWaitMs` passes or the deliverer is reset, whichever comes first. */
async function waitForEarlier(after: NonNullable<SendOptions['after']>, cancel: AbortSignal): Promise<void> {
  const done = new AbortController(); // stops the timer once the earlier delivery settles
  const onCancel = () => done.abort();
  cancel.addEventListener('abort', onCancel, { once: true });
  try {
    await Promise.race([after.delivery.catch(() => {}), pause(after.maxWaitMs, done.signal)]);
  } finally {
    done.abort();
    cancel.removeEventListener('abort', onCancel);
  }
}

/** Waits `ms`, or less if the delivery is cancelled. */
function pause(ms: number, cancel: AbortSignal): Promise<void> {
  if (cancel.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      cancel.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    cancel.addEventListener('abort', done, { once: true });
  });
}

/** Every in-flight attempt listens on the shared reset signal; many at once is normal, not a leak. */
function unboundedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
