/**
 * The refusals an operator watches, classified once: the handler's events (`limit_reached`, `claim_in_doubt`,
 * `webhook_refused`) and the metrics (telemetry.ts: limit refusals, create outcomes, webhook refusal reasons) both
 * read the same `RefusalKind`, so an event and its counter never disagree about what happened.
 */
import { WebhookDeliveryError } from '../../webhooks/errors.js';
import { errorFields, type ServerEvent } from '../events.js';
import { CheckoutHttpError } from '../http/errors.js';
import { LimitRefusal } from '../limits/limits.js';
import { InDoubtError } from '../once/exactly-once.js';

/**
 * What a refusal was. `reason` is a short snake_case word for a metric attribute: the limit's name, `in_doubt`, the
 * webhook verifier's reason (`invalid_signature`, `timestamp_outside_tolerance`, …) or the answer's api_code.
 */
export type RefusalKind =
  | { kind: 'limit'; reason: string; status: number; limit: string; retryAfterS: number }
  /** A create the service may have carried out: its claim is kept until a webhook settles it or the lease ends. */
  | { kind: 'in_doubt'; reason: 'in_doubt'; status: number; error: unknown }
  /** Another request holds the same Idempotency-Key. */
  | { kind: 'in_progress'; reason: 'idempotency_key_in_use'; status: number }
  | { kind: 'webhook'; reason: string; status: number }
  /** Any other refusal in the contract's words (validation, not found, a store down…). */
  | { kind: 'refused'; reason: string; status: number };

const reasonOf = (error: CheckoutHttpError) => error.body.api_code?.toLowerCase() ?? String(error.status);

/** `error` as a refusal, or undefined for what is no refusal (a bug, the service unreachable); `webhook`: the path was the intake's. */
export function refusalKindOf(error: unknown, webhook: boolean): RefusalKind | undefined {
  if (!(error instanceof CheckoutHttpError)) return undefined;
  const { cause, status } = error;
  if (cause instanceof LimitRefusal) return { kind: 'limit', reason: cause.limit, status, limit: cause.limit, retryAfterS: Number(error.headers['Retry-After'] ?? 0) };
  if (cause instanceof InDoubtError) return { kind: 'in_doubt', reason: 'in_doubt', status, error: cause.cause };
  if (webhook) return { kind: 'webhook', reason: cause instanceof WebhookDeliveryError ? cause.reason : reasonOf(error), status };
  if (error.body.api_code === 'IDEMPOTENCY_KEY_IN_USE') return { kind: 'in_progress', reason: 'idempotency_key_in_use', status };
  return { kind: 'refused', reason: reasonOf(error), status };
}

/** The event an operator is told of for `refusal`, if any; `redact` takes the merchant key out of an error's text. */
export function refusalEvent(refusal: RefusalKind, redact: (text: string) => string): ServerEvent | undefined {
  switch (refusal.kind) {
    case 'limit':
      return { level: 'warn', name: 'limit_reached', message: `limit ${refusal.limit} reached`, limit: refusal.limit, retry_after_s: refusal.retryAfterS };
    case 'in_doubt':
      return {
        level: 'warn',
        name: 'claim_in_doubt',
        message: 'the service did not say whether the order was created; its claim is kept until a webhook settles it or the lease ends',
        error: errorFields(refusal.error, redact, false),
      };
    case 'webhook':
      return { level: 'warn', name: 'webhook_refused', message: `webhook delivery refused ${refusal.status}`, reason: refusal.reason, status: refusal.status };
    default:
      return undefined;
  }
}
