/**
 * Why the handler refused, where the ErrorResponse alone does not say: the causes a `CheckoutHttpError` carries
 * (telemetry/refusal-kinds.ts reads them for the events and the metrics). Plain error classes with no imports of the handler's, so
 * the error that carries them (http/errors.ts) and the parts that throw them (limits, claims, once) all stand on this file.
 */
import type { WebhookDeliveryError } from '../webhooks/errors.js';

/** A request over one of the handler's limits; `limit` names which. */
export class LimitRefusal extends Error {
  constructor(readonly limit: string) {
    super(`limit ${limit} reached`);
    this.name = 'LimitRefusal';
  }
}

/** A create the payment service did not answer for: the order may or may not exist. */
export class InDoubtError extends Error {
  constructor(cause: unknown) {
    super('The payment service did not say whether the order was created.', { cause });
    this.name = 'InDoubtError';
  }
}

/** The claim store did not answer, or answered what it must not. */
export class ClaimStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClaimStoreError';
  }
}

/** Which limit, an order left in doubt, a webhook delivery that failed verification, a store that did not answer. */
export type RefusalCause = LimitRefusal | InDoubtError | WebhookDeliveryError | ClaimStoreError;
