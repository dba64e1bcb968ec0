/**
 * Turning a webhook request into a typed event, failing closed: a secret is required, the signature must verify
 * (under any of the secrets, for a rotation), and the signed body's `timestamp` must be within the tolerance window.
 * The unsigned `X-Service-Timestamp` header is never used.
 */
import { webhookHeaders } from '../contract/headers.js';
import { jsonNestsDeeperThan, tooDeepProblem } from '../contract/json-depth.js';
import { maxJsonDepth } from '../contract/limits.js';
import type { WebhookEventName } from '../contract/partners.js';
import { parseWith, summarizeProblems } from '../contract/validation.js';
import { webhookPayloadSchemas } from '../contract/webhook-payloads.js';
import type { WebhookPayloadMap } from '../contract/webhook-payloads.js';
import { WebhookDeliveryError } from './errors.js';
import { canonicalPayload, matchingSecret, type SigningSecrets } from './signature.js';

/** A `Headers` object, or a plain record such as Node's `IncomingHttpHeaders` (any case). */
export type HeaderSource = Headers | Record<string, string | readonly string[] | undefined>;

/** How far the signed `timestamp` may be from now, either way, by default: 5 minutes. */
export const defaultToleranceMs = 5 * 60 * 1000;

interface DeliveryBase {
  headers: HeaderSource;
  /** The request body: the raw text or bytes (best), or the already parsed JSON. */
  body: string | Uint8Array | object;
}

export interface VerifiedDeliveryInput extends DeliveryBase {
  /** The shared signing secret, or several during a rotation (any one may verify). Required. */
  secret: SigningSecrets;
  /** Largest distance between the signed `timestamp` and now, in ms; default 5 minutes. `Infinity` accepts any age. */
  toleranceMs?: number;
  /** The clock the tolerance is measured against; default `Date.now`. */
  now?: () => number;
}

export interface UnverifiedDeliveryInput extends DeliveryBase {
  /** Tests and fixtures only: parse without checking the signature or the timestamp. Never in production. */
  dangerouslySkipSignatureCheck: true;
  secret?: undefined;
}

export type DeliveryInput = VerifiedDeliveryInput | UnverifiedDeliveryInput;

/** A verified delivery, discriminated by `event`. */
export type WebhookDelivery = {
  [E in WebhookEventName]: {
    event: E;
    /** The signed body's `timestamp`; null only when the payload has none (possible with `toleranceMs: Infinity`). */
    timestamp: string | null;
    /** Which of the secrets verified it (0 = the first), to see when an old one can go; null when the check was skipped. */
    secretIndex: number | null;
    payload: WebhookPayloadMap[E];
  };
}[WebhookEventName];

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
const skipsCheck = (input: DeliveryInput): input is UnverifiedDeliveryInput => (input as UnverifiedDeliveryInput).dangerouslySkipSignatureCheck === true;

/**
 * Verifies and parses a webhook request. The signature is checked against the raw text when there is one, and
 * against the compact re-serialization of the parsed payload (how the service signs); either matching is valid.
 * Throws `WebhookDeliveryError` (see `reason` and `httpStatus`) for anything not verified or not in the contract.
 */
export async function parseDelivery(input: DeliveryInput): Promise<WebhookDelivery> {
  const skip = skipsCheck(input);
  const secrets = skip ? [] : typeof input.secret === 'string' ? [input.secret] : [...(input.secret ?? [])];
  if (!skip && !secrets.some((s) => typeof s === 'string' && s.length > 0)) {
    throw new WebhookDeliveryError('no_secret', 'parseDelivery needs the signing secret (or a list during a rotation); it never parses an unverified delivery.');
  }
  const rawText = bodyText(input.body);
  if (jsonNestsDeeperThan(rawText, maxJsonDepth)) {
    throw new WebhookDeliveryError('invalid_payload', `The webhook body ${tooDeepProblem.message}.`, [tooDeepProblem]);
  }
  const signature = headerValue(input.headers, webhookHeaders.signature);
  if (!skip && !signature) throw new WebhookDeliveryError('missing_signature', `The delivery has no ${webhookHeaders.signature} header.`);
  let json: unknown;
  try {
    json = JSON.parse(rawText);
  } catch {
    throw new WebhookDeliveryError('malformed_json', 'The webhook body is not valid JSON.');
  }
  let secretIndex: number | null = null;
  if (!skip) {
    secretIndex = await matchingSecret([rawText, canonicalPayload(json)], signature, secrets);
    if (secretIndex === null) throw new WebhookDeliveryError('invalid_signature', 'The webhook signature does not match the body under any of the secrets.');
  }
  const payload = checkedPayload(input.headers, json);
  const timestamp = typeof payload.timestamp === 'string' ? payload.timestamp : null;
  if (!skip) checkTimestamp(timestamp, input.toleranceMs ?? defaultToleranceMs, (input.now ?? Date.now)());
  return { event: payload.event, timestamp, secretIndex, payload } as WebhookDelivery;
}

function bodyText(body: DeliveryInput['body']): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  try {
    return canonicalPayload(body);
  } catch {
    throw new WebhookDeliveryError('invalid_payload', 'The webhook body cannot be serialized as JSON.');
  }
}

/** The contract's checks on a verified body: an object with a known event that the headers agree with, in its schema. */
function checkedPayload(headers: HeaderSource, json: unknown): { event: WebhookEventName; timestamp?: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new WebhookDeliveryError('invalid_payload', 'The webhook body is not a JSON object.', [{ field: 'body', message: 'must be an object' }]);
  }
  const bodyEvent = (json as { event?: unknown }).event;
  const headerEvent = headerValue(headers, webhookHeaders.event);
  if (typeof bodyEvent !== 'string') {
    throw new WebhookDeliveryError('invalid_payload', 'The webhook payload has no event name.', [{ field: 'event', message: 'is required' }]);
  }
  if (headerEvent !== undefined && headerEvent !== bodyEvent) {
    throw new WebhookDeliveryError('event_mismatch', `${webhookHeaders.event} says "${headerEvent}" but the payload says "${bodyEvent}".`);
  }
  if (!isKnownEvent(bodyEvent)) {
    throw new WebhookDeliveryError('unknown_event', `"${bodyEvent}" is not a webhook event this package knows.`, [{ field: 'event', message: 'is not a known event' }]);
  }
  const parsed = parseWith(webhookPayloadSchemas[bodyEvent], json);
  if (!parsed.ok) {
    throw new WebhookDeliveryError('invalid_payload', `The ${bodyEvent} payload does not match the contract: ${summarizeProblems(parsed.problems)}.`, parsed.problems);
  }
  return parsed.value as { event: WebhookEventName; timestamp?: unknown };
}

/** A replayed old delivery (or one from far in the future) is refused, by the timestamp the signature covers. */
function checkTimestamp(timestamp: string | null, toleranceMs: number, now: number): void {
  if (toleranceMs === Infinity) return;
  const at = timestamp === null ? NaN : Date.parse(timestamp);
  if (Number.isNaN(at)) {
    throw new WebhookDeliveryError('missing_timestamp', 'The signed payload has no readable timestamp, so its age cannot be checked.', [{ field: 'timestamp', message: 'is required' }]);
  }
  if (Math.abs(now - at) > toleranceMs) {
    throw new WebhookDeliveryError(
      'timestamp_outside_tolerance',
      `The signed timestamp ${timestamp} is ${Math.round(Math.abs(now - at) / 1000)} s from now; at most ${Math.round(toleranceMs / 1000)} s is accepted.`,
      [{ field: 'timestamp', message: 'is outside the tolerance window' }],
    );
  }
}
