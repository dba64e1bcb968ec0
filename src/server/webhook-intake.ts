/**
 * The handler's webhook intake (`POST {basePath}/webhooks`): a signed `order_payment` settles an in-doubt create
 * (its `id_external` is the claim's `order_key`) and wakes whoever waits on that order, on every instance.
 */
import type { MerchantClient } from '../client/index.js';
import { parseDelivery, type WebhookDelivery } from '../webhooks/delivery.js';
import { WebhookDeliveryError } from '../webhooks/errors.js';
import type { SigningSecrets } from '../webhooks/signature.js';
import { readTextRequest } from './body.js';
import type { ClaimStore } from './claims.js';
import { CheckoutHttpError } from './http.js';
import { claimChannel, completeClaim, orderChannel, storeCall, type ClaimTimings } from './once.js';
import type { Operations } from './operations.js';
import type { Reply } from './http.js';
import { orderKeyPrefix } from './secrets.js';

export interface IntakeDeps {
  /** The signing secret of the account whose webhooks arrive here (a list during a rotation). */
  secret: SigningSecrets;
  /** The clock the signed timestamp's age is measured against. */
  now: () => number;
  store: ClaimStore;
  timings: ClaimTimings;
  merchant: MerchantClient;
  ops: Operations;
}

/** What `order:{id}` carries: enough for a waiting status request to know it should look again. */
export interface OrderWakeUp {
  id_order: number;
  status: string;
}

export function webhookIntake(deps: IntakeDeps): (request: Request) => Promise<Reply> {
  return async (request) => {
    const text = await readTextRequest(request, (apiCode, extra) => {
      throw CheckoutHttpError.of(apiCode, extra);
    });
    // Fails closed, like any receiver: the signature over the exact bytes, then the signed timestamp's age (5 min).
    let delivery: WebhookDelivery;
    try {
      delivery = await parseDelivery({ headers: request.headers, body: text, secret: deps.secret, now: deps.now });
    } catch (error) {
      if (!(error instanceof WebhookDeliveryError)) throw error;
      if (error.httpStatus === 401) throw CheckoutHttpError.of('UNAUTHORIZED_ACCESS', { description: error.message });
      if (error.reason === 'malformed_json') throw CheckoutHttpError.of('MALFORMED_JSON');
      throw CheckoutHttpError.of('VALIDATION_FAILED', { description: error.message, validation_errors: [...error.problems] });
    }
    // Other events are acknowledged, so the service does not retry them; this intake has nothing to do with them.
    if (delivery.event !== 'order_payment') return { status: 200, data: { received: true, handled: false } };
    const { id_order, id_external, status } = delivery.payload;

    const key = id_external?.startsWith(orderKeyPrefix) ? id_external : undefined;
    // A store that cannot answer is a 503, so the service delivers again later.
    const claim = key ? await storeCall(() => deps.store.inspect(key)) : undefined;
    if (key && claim?.state === 'held') {
      // The service's own record, not the webhook's copy, is what the buyer's retry will replay.
      const details = await deps.merchant.getOrder(id_order);
      if (details.id_external === key) {
        await completeClaim(deps.store, deps.timings, key, claim.token, await deps.ops.createdReply(details));
      }
    }
    const wakeUp: OrderWakeUp = { id_order, status };
    await deps.store.publish(orderChannel(id_order), JSON.stringify(wakeUp)).catch(() => {});
    if (key) await deps.store.publish(claimChannel(key), 'done').catch(() => {});
    return { status: 200, data: { received: true, handled: true } };
  };
}
