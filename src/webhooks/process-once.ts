/**
 * Processing each delivery once across any number of receiving instances, through a shared claim store: the
 * delivery's key is claimed before the work, completed after it, released if the work throws (so the service's
 * retry runs it again). `memoryClaimStore()` (`pay-checkout/server`) and `createRedisStore()`
 * (`pay-checkout/server/redis`) fit `DeliveryClaims`.
 */
import { canonicalPayload } from './signature.js';
import type { WebhookDelivery } from './delivery.js';

/** The three calls of the server's claim store that this needs (declared here: webhooks never import the server). */
export interface DeliveryClaims {
  claim(key: string, digest: string, leaseMs: number): Promise<{ state: 'claimed'; token: string } | { state: 'in_flight' | 'done' | 'mismatch' }>;
  complete(key: string, token: string, response: string, ttlMs: number): Promise<boolean>;
  release(key: string, token: string): Promise<boolean>;
}

/**
 * `processed`: this call ran the work. `duplicate`: it already ran (answer 200). `in_progress`: another instance is
 * running it now; answer 503 so the service retries, and the retry finds it done, or free again if that work failed.
 */
export type OnceOutcome<T> = { outcome: 'processed'; result: T } | { outcome: 'duplicate' } | { outcome: 'in_progress' };

export interface ProcessOnceOptions {
  /** How long a claim holds while the work runs; after it a crashed instance's claim lapses. Default 60 s. */
  leaseMs?: number;
  /** How long a done delivery is remembered; default 7 days, well past the service's retries and any resend. */
  ttlMs?: number;
  /** Overrides `deliveryKey(delivery)`. */
  key?: string;
}

export const defaultDeliveryLeaseMs = 60_000;
export const defaultDeliveryTtlMs = 7 * 24 * 60 * 60 * 1000;

const orderEvents: ReadonlySet<string> = new Set(['order_payment', 'link_paid', 'order_cancelled', 'order_refunded']);

/**
 * The once-key of a delivery, from its signed payload. Order events: the event and `id_order` (else `id_external`),
 * as the contract tells receivers to deduplicate, so even a re-sent copy with a new timestamp is the same fact.
 * Anything else: a hash of the compact payload, which each retry repeats exactly (a store that onboards again is new).
 */
export async function deliveryKey(delivery: WebhookDelivery): Promise<string> {
  const payload = delivery.payload as Record<string, unknown>;
  const id = payload.id_order ?? payload.id_external;
  if (orderEvents.has(delivery.event) && (typeof id === 'number' || typeof id === 'string')) return `pc:webhook:${delivery.event}:order:${id}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalPayload(delivery.payload)));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `pc:webhook:${delivery.event}:sha256:${hex}`;
}

/** Runs `work` for this delivery unless another call (on any instance sharing `claims`) ran it or is running it. */
export async function processOnce<T>(claims: DeliveryClaims, delivery: WebhookDelivery, work: (delivery: WebhookDelivery) => T | Promise<T>, options: ProcessOnceOptions = {}): Promise<OnceOutcome<T>> {
  const key = options.key ?? (await deliveryKey(delivery));
  // The key itself is the digest: any copy of the same fact is the same request, never a conflicting one.
  const claimed = await claims.claim(key, key, options.leaseMs ?? defaultDeliveryLeaseMs);
  if (claimed.state === 'in_flight') return { outcome: 'in_progress' };
  if (claimed.state !== 'claimed') return { outcome: 'duplicate' };
  let result: T;
  try {
    result = await work(delivery);
  } catch (error) {
    // Free the key so the service's retry (answered 5xx now) runs the work again; a failed release lapses with the lease.
    await claims.release(key, claimed.token).catch(() => false);
    throw error;
  }
  await claims.complete(key, claimed.token, 'processed', options.ttlMs ?? defaultDeliveryTtlMs);
  return { outcome: 'processed', result };
}
