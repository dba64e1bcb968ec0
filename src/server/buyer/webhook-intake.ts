/**
 * The handler's webhook intake (`POST {basePath}/webhooks`): a signed `order_payment` settles an in-doubt create
 * (its `id_external` is the claim's `order_key`) and wakes whoever waits on that order, on every instance.
 */
import type { MerchantClient } from '../../client/index.js';
import { parseDelivery, type WebhookDelivery } from '../../webhooks/delivery.js';
import { processOnce, type DeliveryClaims } from '../../webhooks/process-once.js';
import type { OrderPaymentPayload } from '../../contract/webhook-payloads.js';
import { WebhookDeliveryError } from '../../webhooks/errors.js';
import type { SigningSecrets } from '../../webhooks/signature.js';
import { readTextRequest } from '../http/body.js';
import type { ClaimStore } from '../once/claims.js';
import { CheckoutHttpError } from '../http/errors.js';
import { claimChannel, completeClaim, deliveryFailure, orderChannel, storeCall, type ClaimTimings } from '../once/exactly-once.js';
import type { Incoming } from '../http/incoming.js';
import type { Operations } from './operations.js';
import type { Reply } from '../http/errors.js';
import { orderKeyPrefix } from '../secrets.js';
import { noteWebhookEvent } from '../telemetry/request-notes.js';

export interface IntakeDeps {
  /** The signing secret of the account whose webhooks arrive here (a list during a rotation). */
  secret: SigningSecrets;
  /** The clock the signed timestamp's age is measured against. */
  now: () => number;
  store: ClaimStore;
  timings: ClaimTimings;
  merchant: MerchantClient;
  ops: Operations;
  /** Sees every verified delivery, an `unknown` one with its body as sent (the merchant's `onWebhook`). */
  onDelivery?: ((delivery: WebhookDelivery) => void) | undefined;
  /** An in-doubt claim was completed by a delivery (the metric). */
  onSettled?: () => void;
}

/** What `order:{id}` carries: enough for a waiting status request to know it should look again. */
export interface OrderWakeUp {
  id_order: number;
  status: string;
}

export function webhookIntake(deps: IntakeDeps): (request: Incoming) => Promise<Reply> {
  return async (request) => {
    const text = await readTextRequest(request.body, (apiCode, extra) => {
      throw CheckoutHttpError.of(apiCode, extra);
    });
    // Fails closed, like any receiver: the signature over the exact bytes, then the signed timestamp's age (5 min).
    let delivery: WebhookDelivery;
    try {
      delivery = await parseDelivery({ headers: request.request.headers, body: text, secret: deps.secret, now: deps.now });
    } catch (error) {
      if (!(error instanceof WebhookDeliveryError)) throw error;
      if (error.httpStatus === 401) throw CheckoutHttpError.of('UNAUTHORIZED_ACCESS', { description: error.message }).withCause(error);
      if (error.reason === 'malformed_json') throw CheckoutHttpError.of('MALFORMED_JSON').withCause(error);
      throw CheckoutHttpError.of('VALIDATION_FAILED', { description: error.message, validation_errors: [...error.problems] }).withCause(error);
    }
    try {
      deps.onDelivery?.(delivery);
    } catch {
      // the merchant's hook must not turn a verified delivery into a retry
    }
    noteWebhookEvent(request, delivery.event);
    // Other events are acknowledged, so the service does not retry them; this intake has nothing to do with them.
    // An unknown one too: a 4xx would make the service drop it for good, and it is the merchant's to read.
    if (delivery.event === 'unknown') return { status: 200, data: { received: true, handled: false, unknown: true } };
    if (delivery.event !== 'order_payment') return { status: 200, data: { received: true, handled: false } };
    // Once across instances: a replay (the service's retry, a resend, an attacker's copy) is answered, not redone.
    const once = await processOnce(claimsOf(deps.store), delivery, () => settle(deps, delivery.payload));
    if (once.outcome === 'in_progress') {
      throw CheckoutHttpError.of('SERVICE_UNAVAILABLE', { description: 'This delivery is being processed by another instance; deliver it again.' }, { 'Retry-After': '1' });
    }
    if (once.outcome === 'duplicate') return { status: 200, data: { received: true, handled: false, duplicate: true } };
    return { status: 200, data: { received: true, handled: true } };
  };
}

/** The claim store's calls, each a 503 when the store cannot answer (so the service delivers again later). */
const claimsOf = (store: ClaimStore): DeliveryClaims => ({
  claim: (key, digest, leaseMs) => storeCall(() => store.claim(key, digest, leaseMs)),
  complete: (key, token, response, ttlMs) => storeCall(() => store.complete(key, token, response, ttlMs)),
  release: (key, token) => store.release(key, token),
});

/** The work of one `order_payment`: settle an in-doubt create with the service's record, wake whoever waits. */
async function settle(deps: IntakeDeps, payload: Pick<OrderPaymentPayload, 'id_order' | 'status'> & { id_external?: string | null | undefined }): Promise<void> {
  const { id_order, id_external, status } = payload;
  const key = id_external?.startsWith(orderKeyPrefix) ? id_external : undefined;
  const claim = key ? await storeCall(() => deps.store.inspect(key)) : undefined;
  if (key && claim?.state === 'held') {
    // The service's own record, not the webhook's copy, is what the buyer's retry will replay.
    const details = await deps.merchant.getOrder(id_order);
    if (details.id_external === key) {
      if (await completeClaim(deps.store, deps.timings, key, claim.token, await deps.ops.createdReply(details))) deps.onSettled?.();
    }
  }
  // The outcome reaches onOrderStatus (in `serve`, its outbox) before the delivery is acknowledged: a store that
  // cannot take it now answers 503 with Retry-After, and the service's next try (or the sweep) tells it then.
  await deps.ops.statusDelivered(id_order, status).catch((error: unknown) => {
    throw deliveryFailure(error);
  });
  const wakeUp: OrderWakeUp = { id_order, status };
  await deps.store.publish(orderChannel(id_order), JSON.stringify(wakeUp)).catch(() => {});
  if (key) await deps.store.publish(claimChannel(key), 'done').catch(() => {});
}
