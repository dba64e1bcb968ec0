/**
 * The handler's webhook intake (`POST {basePath}/webhooks`): a signed `order_payment` settles an in-doubt create
 * (its `id_external` is the claim's `order_key`) and wakes whoever waits on that order, on every instance.
 */
import { OrderPaymentPayloadSchema, parseWith, summarizeProblems, webhookHeaders } from '../contract/index.js';
import type { MerchantClient } from '../client/index.js';
import { verify } from '../webhooks/signature.js';
import { readTextRequest } from './body.js';
import type { ClaimStore } from './claims.js';
import { CheckoutHttpError } from './http.js';
import { claimChannel, completeClaim, orderChannel, storeCall, type ClaimTimings } from './once.js';
import type { Operations, Reply } from './operations.js';
import { orderKeyPrefix } from './secrets.js';

export interface IntakeDeps {
  /** The signing secret of the account whose webhooks arrive here. */
  secret: string;
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
    // Checked against the exact bytes received, before anything in them is believed.
    if (!(await verify(text, request.headers.get(webhookHeaders.signature), deps.secret))) {
      throw CheckoutHttpError.of('UNAUTHORIZED_ACCESS', { description: `The ${webhookHeaders.signature} header does not match the body.` });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw CheckoutHttpError.of('MALFORMED_JSON');
    }
    // Other events are acknowledged, so the service does not retry them; this intake has nothing to do with them.
    if ((json as { event?: unknown } | null)?.event !== 'order_payment') return { status: 200, data: { received: true, handled: false } };
    const parsed = parseWith(OrderPaymentPayloadSchema, json);
    if (!parsed.ok) throw CheckoutHttpError.of('VALIDATION_FAILED', { description: summarizeProblems(parsed.problems), validation_errors: parsed.problems });
    const { id_order, id_external, status } = parsed.value;

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
