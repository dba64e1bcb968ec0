/**
 * The running server's side of `serve --check --pay` (trial.ts): what the trial may ask it, and nobody else can. A
 * request counts as the trial's only when it carries `Pay-Checkout-Trial: t=…,v1=…`, the Pay-Checkout-Signature
 * scheme over `"trial <METHOD> <path>"` under a secret only the operator's settings hold (PAY_CHECKOUT_APP_SECRET or
 * PAY_CHECKOUT_WEBHOOK_SECRET), within five minutes. Unsigned or wrongly signed, nothing here exists: the trial's path
 * is the same 404 as any other the server does not have, and the probe link is the shop's answer as usual.
 *
 * - `GET {basePath}/trial/orders/{id}`: what the server saw since a trial last asked (for ten minutes after it): the
 *   verified webhooks naming the order, the webhooks refused (unread, so naming no order), and how the shop took the
 *   order's paid notice. Nothing is kept while no trial asks. Instances sharing a store (Redis, PostgreSQL) tell each
 *   other over its pub/sub, so whichever one the trial reaches answers what any of them saw.
 * - the hash `pay-checkout-check`, asked by the trial while the shop's app or file has no such link: a dynamic link of
 *   this server's own, so the trial can pay an order the shop never made a link for.
 */
import { randomBytes } from 'node:crypto';
import { verifyPayCheckoutSignature } from '../../webhooks/pay-checkout-signature.js';
import type { WebhookDelivery } from '../../webhooks/delivery.js';
import type { Answer, Incoming } from '../http/incoming.js';
import type { ClaimStore } from '../once/claims.js';
import type { EventSink, ServerEvent } from '../events.js';
import type { CachedLinks } from './app-links.js';
import { checkHash } from './check.js';

export const trialHeader = 'Pay-Checkout-Trial';

/** The text a trial request signs: its method and path, so a signature for one request opens no other. */
export const trialSignedText = (method: string, path: string) => `trial ${method.toUpperCase()} ${path}`;

/** How long after a trial's request this instance keeps what it sees. */
const watchMs = 10 * 60 * 1000;
/** Kept at most, of each kind: a trial needs a handful. */
const keepAtMost = 200;

/** The built-in probe link: dynamic, so the trial pays the smallest amount the wallet takes. */
export const probeLink = { description: 'pay-checkout serve --check --pay (development or sandbox only)', storeName: 'pay-checkout check' } as const;

export interface TrialWebhook {
  event: string;
  status: string | null;
  at: string;
}
export interface TrialRefusal {
  reason: string;
  status: number | null;
  at: string;
}
export interface TrialNotice {
  state: 'delivered' | 'failed' | 'given_up';
  status: number | null;
  error: string | null;
  at: string;
}

/** What `GET {basePath}/trial/orders/{id}` answers, in `data`. */
export interface TrialView {
  now: string;
  /** The service base URL this server talks to. */
  service: string;
  webhooks: TrialWebhook[];
  refused: TrialRefusal[];
  notice: TrialNotice | null;
}

export interface TrialDeskOptions {
  /** The operator's secrets that sign a trial's requests. */
  secrets: readonly string[];
  basePath: string;
  serviceBaseUrl: string;
  now?: () => number;
}

export interface TrialDesk {
  /** Whether the request is signed by the trial. */
  signed(method: string, path: string, header: string | null | undefined): boolean;
  /** The server's event sink, seen through: the webhooks refused and the shop's answers to notices. */
  watch(sink: EventSink): EventSink;
  /** The handler's `onWebhook`: each verified delivery. */
  onWebhook(delivery: WebhookDelivery): void;
  /** `resolveLink` with the probe link for the trial where the shop has none. */
  links(inner: CachedLinks): CachedLinks;
  /** The answer to a trial's request, or undefined: not a trial path, or not signed (the caller's 404). */
  answer(incoming: Incoming): Answer | undefined;
  /** Shares what is seen with the other instances on the store; resolves with how to stop. */
  share(store: ClaimStore): Promise<() => Promise<void>>;
}

/** What one instance tells the others: a trial began asking, or what it saw meanwhile. */
type Seen = { uid: string } & (
  | { kind: 'watch'; until: number }
  | ({ kind: 'webhook'; id_order: number } & TrialWebhook)
  | ({ kind: 'refused' } & TrialRefusal)
  | ({ kind: 'notice'; id: string } & TrialNotice)
  | { kind: 'recorded'; id: string; id_order: number }
);
type Unsaid<T> = T extends unknown ? Omit<T, 'uid'> : never;

const channel = 'pc:trial';

export function trialDesk(options: TrialDeskOptions): TrialDesk {
  const now = options.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const route = new RegExp(`^${options.basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/trial(?:/orders/([1-9]\\d{0,15}))?$`);
  let watchingUntil = 0;
  const webhooks = new Map<number, TrialWebhook[]>();
  const refused: TrialRefusal[] = [];
  const notices = new Map<string, TrialNotice>();
  /** The paid notice's id per order, from `notice_recorded`: the relay's later events name the notice only. */
  const paidNotice = new Map<number, string>();
  const kept = new Set<string>();
  let shared: ClaimStore | undefined;

  const watching = () => now() < watchingUntil;
  const capped = <K, V>(map: Map<K, V> | Set<K>) => {
    if (map.size > keepAtMost) map.delete(map.keys().next().value as K);
  };

  /** Keeps what was seen, once however often it is told. */
  const keep = (seen: Seen) => {
    if (kept.has(seen.uid)) return;
    kept.add(seen.uid);
    capped(kept);
    if (seen.kind === 'watch') watchingUntil = Math.max(watchingUntil, seen.until);
    else if (seen.kind === 'webhook') {
      webhooks.set(seen.id_order, [...(webhooks.get(seen.id_order) ?? []), { event: seen.event, status: seen.status, at: seen.at }].slice(-10));
      capped(webhooks);
    } else if (seen.kind === 'refused') {
      refused.push({ reason: seen.reason, status: seen.status, at: seen.at });
      if (refused.length > keepAtMost) refused.shift();
    } else if (seen.kind === 'recorded') {
      paidNotice.set(seen.id_order, seen.id);
      capped(paidNotice);
    } else {
      notices.set(seen.id, { state: seen.state, status: seen.status, error: seen.error, at: seen.at });
      capped(notices);
    }
  };
  /** Kept here at once, and told to the other instances (best effort: a lost message is one the trial waits for). */
  const tell = (unsaid: Unsaid<Seen>) => {
    const seen = { ...unsaid, uid: randomBytes(8).toString('hex') } as Seen;
    keep(seen);
    shared?.publish(channel, JSON.stringify(seen)).catch(() => {});
  };

  const signed: TrialDesk['signed'] = (method, path, header) => {
    if (options.secrets.length === 0 || !header) return false;
    const ok = verifyPayCheckoutSignature({ header, signedText: trialSignedText(method, path), secrets: options.secrets });
    // Re-told at most once a minute: a trial's many reads need not each reach every instance.
    if (ok && now() + watchMs - watchingUntil > 60_000) tell({ kind: 'watch', until: now() + watchMs });
    return ok;
  };

  const seeEvent = (event: ServerEvent) => {
    if (event.name === 'webhook_refused') {
      tell({ kind: 'refused', reason: String(event.reason ?? 'refused'), status: typeof event.status === 'number' ? event.status : null, at: iso() });
      return;
    }
    if (event.name === 'notice_recorded' && event.type === 'order.paid' && typeof event.id === 'string' && typeof event.id_order === 'number') {
      tell({ kind: 'recorded', id: event.id, id_order: event.id_order });
      return;
    }
    const state = ({ notice_delivered: 'delivered', notice_delivery_failed: 'failed', notice_given_up: 'given_up' } as const)[event.name as 'notice_delivered'];
    if (!state || typeof event.id !== 'string') return;
    const error = state === 'delivered' ? null : /: (.*?) \(attempt/.exec(event.message)?.[1] ?? event.message;
    tell({ kind: 'notice', id: event.id, state, status: typeof event.status === 'number' ? event.status : null, error, at: iso() });
  };

  return {
    signed,
    watch: (sink) => (event) => {
      if (watching()) seeEvent(event);
      sink(event);
    },
    onWebhook(delivery) {
      if (!watching() || delivery.event === 'unknown') return;
      const payload = delivery.payload as { id_order?: unknown; status?: unknown };
      if (typeof payload.id_order !== 'number') return;
      tell({ kind: 'webhook', id_order: payload.id_order, event: delivery.event, status: typeof payload.status === 'string' ? payload.status : null, at: iso() });
    },
    links(inner) {
      const resolve = async (hash: string, request: Request) => {
        const found = await inner(hash, request);
        if (found || hash !== checkHash) return found;
        return signed(request.method, new URL(request.url).pathname, request.headers.get(trialHeader)) ? probeLink : found;
      };
      return Object.assign(resolve, { forget: (hash: string) => inner.forget(hash) });
    },
    answer(incoming) {
      const match = route.exec(incoming.path);
      if (!match || incoming.method !== 'GET' || !signed(incoming.method, incoming.path, incoming.headers.get(trialHeader))) return undefined;
      const view: TrialView = {
        now: iso(),
        service: options.serviceBaseUrl,
        webhooks: (match[1] && webhooks.get(Number(match[1]))) || [],
        refused: [...refused],
        notice: notices.get(paidNotice.get(Number(match[1])) ?? '') ?? null,
      };
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, text: JSON.stringify({ data: view }) };
    },
    async share(store) {
      shared = store;
      return store.subscribe(channel, (message) => {
        try {
          const seen = JSON.parse(message) as Seen;
          if (typeof seen.uid === 'string' && typeof seen.kind === 'string') keep(seen);
        } catch {
          // not one of ours
        }
      });
    },
  };
}
