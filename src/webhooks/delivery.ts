import { webhookHeaders } from '../contract/headers.js';
import type { WebhookEventName } from '../contract/partners.js';
import { parseWith, summarizeProblems } from '../contract/validation.js';
import type { FieldProblem } from '../contract/validation.js';
import { webhookPayloadSchemas } from '../contract/webhook-payloads.js';
import type { WebhookPayloadMap } from '../contract/webhook-payloads.js';
import { canonicalPayload, verify } from './signature.js';

/** A `Headers` object, or a plain record such as Node's `IncomingHttpHeaders` (any case). */
export type HeaderSource = Headers | Record<string, string | readonly string[] | undefined>;

export interface DeliveryInput {
  headers: HeaderSource;
  /** The request body: the raw text or bytes (best), or the already parsed JSON. */
  body: string | Uint8Array | object;
  /** The shared signing secret; without it the signature is not checked (`signatureValid: null`). */
  secret?: string | undefined;
}

/** A parsed delivery, discriminated by `event`. */
export type WebhookDelivery = {
  [E in WebhookEventName]: {
    event: E;
    /** `X-Service-Timestamp`, else the payload's `timestamp`, else null. */
    timestamp: string | null;
    /** true or false when a secret was given; null when it was not checked. */
    signatureValid: boolean | null;
    payload: WebhookPayloadMap[E];
  };
}[WebhookEventName];

export type WebhookDeliveryErrorReason = 'malformed_json' | 'unknown_event' | 'event_mismatch' | 'invalid_payload';

/** A delivery that cannot be turned into a typed event; answer it with a 400. */
export class WebhookDeliveryError extends Error {
  readonly kind = 'webhook_delivery' as const;
  readonly reason: WebhookDeliveryErrorReason;
  readonly problems: readonly FieldProblem[];
  constructor(reason: WebhookDeliveryErrorReason, message: string, problems: readonly FieldProblem[] = []) {
    super(message);
    this.name = 'WebhookDeliveryError';
    this.reason = reason;
    this.problems = problems;
  }
}

/** Reads one header whatever its case; a repeated header gives its first value. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}

const isKnownEvent = (name: string): name is WebhookEventName => Object.hasOwn(webhookPayloadSchemas, name);

/**
 * Turns a webhook request into a typed event. The signature is checked against
 * the raw text when there is one, and against the compact re-serialization of
 * the parsed payload (how the service signs); either matching is valid.
 */
export async function parseDelivery(input: DeliveryInput): Promise<WebhookDelivery> {
  const rawText = typeof input.body === 'string' ? input.body : input.body instanceof Uint8Array ? new TextDecoder().decode(input.body) : undefined;
  let json: unknown = input.body;
  if (rawText !== undefined) {
    try {
      json = JSON.parse(rawText);
    } catch {
      throw new WebhookDeliveryError('malformed_json', 'The webhook body is not valid JSON.');
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new WebhookDeliveryError('invalid_payload', 'The webhook body is not a JSON object.', [{ field: 'body', message: 'must be an object' }]);
  }

  const bodyEvent = (json as { event?: unknown }).event;
  const headerEvent = headerValue(input.headers, webhookHeaders.event);
  if (typeof bodyEvent !== 'string') {
    throw new WebhookDeliveryError('invalid_payload', 'The webhook payload has no event name.', [{ field: 'event', message: 'is required' }]);
  }
  if (headerEvent !== undefined && headerEvent !== bodyEvent) {
    throw new WebhookDeliveryError('event_mismatch', `${webhookHeaders.event} says "${headerEvent}" but the payload says "${bodyEvent}".`);
  }
  if (!isKnownEvent(bodyEvent)) {
    throw new WebhookDeliveryError('unknown_event', `"${bodyEvent}" is not a webhook event this package knows.`, [{ field: 'event', message: 'is not a known event' }]);
  }

  const signatureValid = await checkSignature(input, rawText, json);
  const parsed = parseWith(webhookPayloadSchemas[bodyEvent], json);
  if (!parsed.ok) {
    throw new WebhookDeliveryError('invalid_payload', `The ${bodyEvent} payload does not match the contract: ${summarizeProblems(parsed.problems)}.`, parsed.problems);
  }
  const payloadTimestamp = (parsed.value as { timestamp?: unknown }).timestamp;
  const timestamp = headerValue(input.headers, webhookHeaders.timestamp) ?? (typeof payloadTimestamp === 'string' ? payloadTimestamp : null);
  return { event: bodyEvent, timestamp, signatureValid, payload: parsed.value } as WebhookDelivery;
}

async function checkSignature(input: DeliveryInput, rawText: string | undefined, json: object): Promise<boolean | null> {
  if (input.secret === undefined) return null;
  const signature = headerValue(input.headers, webhookHeaders.signature);
  if (rawText !== undefined && (await verify(rawText, signature, input.secret))) return true;
  return verify(canonicalPayload(json), signature, input.secret);
}
