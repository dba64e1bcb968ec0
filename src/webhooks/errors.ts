import type { FieldProblem } from '../contract/problems.js';

/**
 * Why a delivery was refused. Signature problems come first and carry no payload: nothing from an unverified body
 * reaches the caller.
 */
export type WebhookDeliveryErrorReason =
  | 'no_secret'
  | 'missing_signature'
  | 'invalid_signature'
  | 'missing_timestamp'
  | 'timestamp_outside_tolerance'
  | 'malformed_json'
  | 'unknown_event'
  | 'event_mismatch'
  | 'invalid_payload';

/** The answer a receiver should give: 401 for signatures, 500 for its own missing secret (retried), else 400. */
const statusOf = (reason: WebhookDeliveryErrorReason): number =>
  reason === 'no_secret' ? 500 : reason === 'missing_signature' || reason === 'invalid_signature' ? 401 : 400;

/** A delivery that is not verified or cannot be turned into a typed event. */
export class WebhookDeliveryError extends Error {
  readonly kind = 'webhook_delivery' as const;
  readonly reason: WebhookDeliveryErrorReason;
  readonly problems: readonly FieldProblem[];
  /** The HTTP status to answer with; a 4xx tells the service not to retry, a 5xx that it should. */
  readonly httpStatus: number;
  constructor(reason: WebhookDeliveryErrorReason, message: string, problems: readonly FieldProblem[] = []) {
    super(message);
    this.name = 'WebhookDeliveryError';
    this.reason = reason;
    this.problems = problems;
    this.httpStatus = statusOf(reason);
  }
}
