import * as z from 'zod/mini';
import { Timestamp } from './common.js';
import { WebhookEventNameSchema } from './partners.js';

/**
 * The sandbox's log of webhook deliveries (`GET /sandbox/deliveries`): not part of the service
 * contract, but read by the sandbox dashboard and by tests, so it is defined once here.
 */

/** How one attempt ended: `retrying` means another attempt follows. */
export const deliveryAttemptOutcomes = ['delivered', 'failed', 'retrying'] as const;
export const DeliveryAttemptSchema = z.object({
  attempt: z.int().check(z.minimum(1)),
  started_at: Timestamp,
  duration_ms: z.int().check(z.minimum(0)),
  /** HTTP status observed, or null when no response arrived (timeout, connection failure). */
  status: z.nullable(z.int()),
  /** The receiver's answer, first 4,096 characters. */
  response_body: z.nullable(z.string()),
  /** Plain text such as "timeout after 5000 ms" or "connection refused"; null on success. */
  error: z.nullable(z.string()),
  outcome: z.enum(deliveryAttemptOutcomes),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

export const deliveryStates = ['pending', 'delivered', 'failed'] as const;
export const DeliveryRecordSchema = z.object({
  id: z.string(),
  event: WebhookEventNameSchema,
  url: z.string(),
  /** Who the delivery is for, e.g. "partner" or "forward"; null when the caller gave none. */
  label: z.nullable(z.string()),
  payload: z.record(z.string(), z.unknown()),
  /** The exact text sent: compact JSON, property order kept. */
  body: z.string(),
  /** X-Service-Signature as sent, or null when the target has no signing secret. */
  signature: z.nullable(z.string()),
  headers: z.record(z.string(), z.string()),
  attempts: z.array(DeliveryAttemptSchema),
  state: z.enum(deliveryStates),
  created_at: Timestamp,
});
export type DeliveryRecord = z.infer<typeof DeliveryRecordSchema>;
