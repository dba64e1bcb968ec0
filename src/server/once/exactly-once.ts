/**
 * Exactly one order per Idempotency-Key on any number of instances: claim the key in the shared store before the
 * service is called, complete it with the reply, release it only after a definite failure, keep it while the
 * outcome is unknown. Store failures answer 503 with Retry-After, never a guess.
 */
import { InvalidRequestError, InvalidResponseError, NetworkError, ServiceError } from '../../client/index.js';
import { ClaimStoreError, InDoubtError } from '../causes.js';
import { keepTrying, neverSent, type ClaimResult, type ClaimStore } from './claims.js';
import { CheckoutHttpError } from '../http/errors.js';
import { replyDataText, type Reply } from '../http/errors.js';
import { replayedHeader } from './replay.js';

export interface ClaimTimings {
  /**
   * How long a claim holds without being completed or released. Default 16 minutes: the longest time an order
   * the first attempt may have created can still be paid (a transfer lives 15 minutes) plus a minute of margin,
   * so by the time a lost claim lapses, a second order can no longer mean a second payment.
   */
  leaseMs: number;
  /** How long a completed key replays its first reply; default 24 hours (Stripe's minimum). */
  keepMs: number;
  /** How long a repeat waits for the first request's result before 409 with Retry-After; default 8 s. */
  waitMs: number;
}

export const defaultClaimTimings: ClaimTimings = { leaseMs: 16 * 60_000, keepMs: 24 * 60 * 60_000, waitMs: 8_000 };

/** Pub/sub channels: a claim's key settled (`done` / `released`), and an order's status changed (webhook). */
export const claimChannel = (key: string) => `claim:${key}`;
export const orderChannel = (idOrder: number) => `order:${idOrder}`;

/** Thrown by a create whose request may have reached the service: the claim is kept, never released. */
export { InDoubtError };

/**
 * Whether a failed `POST /orders` certainly created nothing: a 4xx, a 500 or 503 (which the live documentation says
 * to retry), or a connection that was never made. Timeouts, dropped connections, 502/504 from a proxy and 2xx
 * answers we could not read are in doubt.
 */
export function isDefiniteFailure(error: unknown): boolean {
  if (error instanceof InvalidRequestError) return true;
  if (error instanceof ServiceError || error instanceof InvalidResponseError) {
    return (error.status >= 400 && error.status < 500) || error.status === 500 || error.status === 503;
  }
  if (error instanceof NetworkError) return neverSent(error);
  return false;
}

/** A store that threw anything else (a merchant's own store, a limit store's driver) is a ClaimStoreError all the same. */
const asStoreError = (error: unknown) =>
  error instanceof ClaimStoreError ? error : new ClaimStoreError(error instanceof Error ? error.message : String(error), { cause: error });

const storeDown = (error: unknown, description = 'The idempotency store is unavailable; retry with the same Idempotency-Key.') =>
  new CheckoutHttpError(503, { ...CheckoutHttpError.of('SERVICE_UNAVAILABLE').body, description }, { 'Retry-After': '2' }).withCause(asStoreError(error));

/** Whether `error` is a store's failure (a ClaimStoreError), or wraps one a few causes down. */
export function isStoreFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++, current = current.cause) if (current instanceof ClaimStoreError) return true;
  return false;
}

/**
 * `error` as the answer to a signed delivery whose work failed: a store that did not answer (the claims, the open
 * orders, `onOrderStatus` writing its outbox) is a 503 with Retry-After, so the service delivers it again and nothing
 * is lost; anything else is left as it is.
 */
export function deliveryFailure(error: unknown): unknown {
  return isStoreFailure(error) && !(error instanceof CheckoutHttpError) ? storeDown(error, 'A store this server records outcomes in is unavailable; deliver this webhook again.') : error;
}

/** A store call whose failure answers 503 with Retry-After (never a 500, never a guess). */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeDown(error);
  }
}

const inUse = (description: string, retryAfterS: number) => CheckoutHttpError.of('IDEMPOTENCY_KEY_IN_USE', { description }, { 'Retry-After': String(retryAfterS) });

/** A stored reply, answered again as a replay: 200 with `Idempotent-Replayed: true`, the first body unchanged. */
function replay(response: string): Reply {
  const stored = JSON.parse(response) as { data: unknown };
  return { status: 200, data: stored.data, headers: { [replayedHeader]: 'true' } };
}

/** Waits (bounded) while another request holds the key; wakes on the store's pub/sub, polls as a fallback. */
async function waitForClaim(store: ClaimStore, key: string, digest: string, timings: ClaimTimings): Promise<ClaimResult> {
  const deadline = Date.now() + timings.waitMs;
  let wake: () => void = () => {};
  const unsubscribe = await store.subscribe(claimChannel(key), () => wake()).catch(() => undefined);
  try {
    for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
      const left = deadline - Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(pause, left)));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const result = await storeCall(() => store.claim(key, digest, timings.leaseMs));
      if (result.state !== 'in_flight' || Date.now() >= deadline) return result;
    }
  } finally {
    await unsubscribe?.().catch(() => {});
  }
}

/**
 * Runs `create` at most once per key while its claim lives: a repeat replays the stored reply, waits for the one in
 * flight, or gets 409 with Retry-After. `create` throws InDoubtError when the service may have acted: the claim stays.
 */
export async function createOnce(store: ClaimStore, timings: ClaimTimings, key: string, digest: string, create: () => Promise<Reply>): Promise<Reply> {
  let claim = await storeCall(() => store.claim(key, digest, timings.leaseMs));
  if (claim.state === 'in_flight') claim = await waitForClaim(store, key, digest, timings);
  switch (claim.state) {
    case 'mismatch':
      throw CheckoutHttpError.of('IDEMPOTENCY_KEY_REUSED');
    case 'done':
      return replay(claim.response);
    case 'in_flight':
      throw inUse('The first request with this Idempotency-Key is still in progress; retry shortly with the same key.', 1);
    case 'claimed':
      break;
  }
  const { token } = claim;
  let reply: Reply;
  try {
    reply = await create();
  } catch (error) {
    if (error instanceof InDoubtError) {
      // Kept for its lease: a webhook for this key completes it, or it lapses once no payment can follow.
      throw inUse('The payment service did not confirm whether the order was created. It is being checked: retry with the same Idempotency-Key.', 5).withCause(error);
    }
    await releaseClaim(store, timings, key, token);
    throw error;
  }
  await completeClaim(store, timings, key, token, reply);
  return reply;
}

/**
 * Frees the key after a definite failure so the buyer's retry creates. One try while the buyer waits; then in the
 * background until it lands or the lease ends: a lost release would make every retry wait out the lease.
 */
async function releaseClaim(store: ClaimStore, timings: ClaimTimings, key: string, token: string): Promise<void> {
  const attempt = async () => {
    await store.release(key, token);
    await store.publish(claimChannel(key), 'released').catch(() => {});
    return true;
  };
  if (!(await attempt().catch(() => false))) keepTrying(attempt, Date.now() + timings.leaseMs);
}

/**
 * Stores the reply under the claim. One try while the buyer waits; then it keeps trying in the background (from
 * 100 ms, backing off to 5 s) until it lands or the lease ends, since a lost write would make repeats wait out the lease.
 * A `false` (the claim is not held by this token: completed already, lapsed, or in a store that came back empty,
 * where the write-back puts the reply back) ends it: trying again could not change that.
 */
export async function completeClaim(store: ClaimStore, timings: ClaimTimings, key: string, token: string, reply: Reply): Promise<boolean> {
  // The data's text is the answer's too (handler.ts): written once.
  const data = replyDataText(reply);
  const response = data === undefined ? JSON.stringify({ status: reply.status }) : `{"status":${JSON.stringify(reply.status)},"data":${data}}`;
  const attempt = async () => {
    const stored = await store.complete(key, token, response, timings.keepMs);
    await store.publish(claimChannel(key), 'done').catch(() => {});
    return stored;
  };
  try {
    return await attempt();
  } catch {
    // The buyer has the order already: the retries run after the answer, not before it.
  }
  keepTrying(async () => (await attempt(), true), Date.now() + timings.leaseMs);
  return false;
}
