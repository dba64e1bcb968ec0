/**
 * Turning a webhook request into a typed event, failing closed: a secret is required, the signature must verify
 * (under any of the secrets, for a rotation), and the signed body's `timestamp` must be within the tolerance window.
 * The unsigned `X-Service-Timestamp` header is never used. Either header family is read (`X-Service-*`, the
 * contract's; `X-Wava-*`, the live docs'), and either payload layout (flat; `data`-nested). A verified body whose
 * event or shape this package does not know is an `unknown` delivery with its payload as sent, never an error.
 */
import { liveWebhookHeaders, webhookHeaders } from '../contract/headers.js';
import type { FieldProblem } from '../contract/problems.js';
import { jsonNestsDeeperThan, tooDeepProblem } from '../contract/json-depth.js';
import { maxJsonDepth } from '../contract/limits.js';
import type { WebhookEventName } from '../contract/partners.js';
import { parseWith } from '../contract/validation.js';
import { webhookPayloadSchemas } from '../contract/webhook-payloads.js';
import type { WebhookPayloadMap } from '../contract/webhook-payloads.js';
import { WebhookDeliveryError } from './errors.js';
import { eventNameOf, flattenPayload, LiveOrderPaymentPayloadSchema, type LiveOrderPaymentPayload, type PayloadLayout } from './live-payload.js';
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

/** Which headers carried the signature: the contract's `X-Service-*` or the live docs' `X-Wava-*`. */
export type HeaderFamily = 'service' | 'wava';

interface DeliveryFacts {
  /** The signed body's `timestamp`; null only when the payload has none (possible with `toleranceMs: Infinity`). */
  timestamp: string | null;
  /** Which of the secrets verified it (0 = the first), to see when an old one can go; null when the check was skipped. */
  secretIndex: number | null;
  headerFamily: HeaderFamily;
  /** `nested` when the body carried the order in `data` (the live pages' layout); the payload is flattened either way. */
  layout: PayloadLayout;
}

/** Payloads by event; `order_payment` as the contract has it, or as the live pages show it (fewer fields). */
type KnownPayloads = Omit<WebhookPayloadMap, 'order_payment'> & { order_payment: WebhookPayloadMap['order_payment'] | LiveOrderPaymentPayload };

/** A verified delivery of an event this package knows, discriminated by `event`. */
export type KnownWebhookDelivery = {
  [E in WebhookEventName]: DeliveryFacts & { event: E; payload: KnownPayloads[E] };
}[WebhookEventName];

/**
 * A verified delivery whose event or shape this package does not know: acknowledge it (a 4xx would make the service
 * drop it for good) and decide with `payload`, the signed body as sent.
 */
export interface UnknownWebhookDelivery extends DeliveryFacts {
  event: 'unknown';
  /** The event the body (else the header) named, older names mapped; null when neither named one. */
  name: string | null;
  payload: unknown;
  /** Why it is not a typed event. */
  problems: readonly FieldProblem[];
}

/** A verified delivery, discriminated by `event`. */
export type WebhookDelivery = KnownWebhookDelivery | UnknownWebhookDelivery;

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
  const serviceSignature = headerValue(input.headers, webhookHeaders.signature);
  const wavaSignature = headerValue(input.headers, liveWebhookHeaders.signature);
  if (!skip && !serviceSignature && !wavaSignature) {
    throw new WebhookDeliveryError('missing_signature', `The delivery has no ${webhookHeaders.signature} or ${liveWebhookHeaders.signature} header.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(rawText);
  } catch {
    throw new WebhookDeliveryError('malformed_json', 'The webhook body is not valid JSON.');
  }
  let secretIndex: number | null = null;
  let headerFamily: HeaderFamily = serviceSignature || !wavaSignature ? 'service' : 'wava';
  if (!skip) {
    const texts = [rawText, canonicalPayload(json)];
    // The same constant-time check under each family that sent a signature; the first that verifies counts.
    secretIndex = serviceSignature ? await matchingSecret(texts, serviceSignature, secrets) : null;
    if (secretIndex === null && wavaSignature) {
      secretIndex = await matchingSecret(texts, wavaSignature, secrets);
      if (secretIndex !== null) headerFamily = 'wava';
    }
    if (secretIndex === null) throw new WebhookDeliveryError('invalid_signature', 'The webhook signature does not match the body under any of the secrets.');
  } else if (!serviceSignature && headerValue(input.headers, liveWebhookHeaders.event) !== undefined) {
    headerFamily = 'wava';
  }
  const read = readPayload(input.headers, json, headerFamily === 'wava');
  const timestamp = typeof read.timestamp === 'string' ? read.timestamp : null;
  if (!skip) checkTimestamp(timestamp, input.toleranceMs ?? defaultToleranceMs, (input.now ?? Date.now)());
  const facts: DeliveryFacts = { timestamp, secretIndex, headerFamily, layout: read.layout };
  if (read.known) return { ...facts, event: read.known.event, payload: read.known } as WebhookDelivery;
  return { ...facts, event: 'unknown', name: read.name, payload: json, problems: read.problems };
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

/** What a verified body is: a known event in its schema, else the reasons it is not (it stays an unknown delivery). */
interface ReadPayload {
  known: { event: WebhookEventName; timestamp?: unknown } | null;
  name: string | null;
  timestamp: unknown;
  layout: PayloadLayout;
  problems: FieldProblem[];
}

function readPayload(headers: HeaderSource, json: unknown, liveHeaders: boolean): ReadPayload {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { known: null, name: null, timestamp: undefined, layout: 'flat', problems: [{ field: 'body', message: 'must be an object' }] };
  }
  const body = json as Record<string, unknown>;
  const headerEvent = headerValue(headers, webhookHeaders.event) ?? headerValue(headers, liveWebhookHeaders.event);
  const name = eventNameOf(body, headerEvent);
  const bodyName = typeof body.event === 'string' ? eventNameOf(body, undefined) : null;
  const headerName = headerEvent === undefined ? null : eventNameOf({}, headerEvent);
  // The header is not signed: one that disagrees with the signed body is a sender's fault worth refusing loudly.
  if (bodyName !== null && headerName !== null && headerName !== bodyName) {
    throw new WebhookDeliveryError('event_mismatch', `The event header says "${headerEvent ?? ''}" but the payload says "${String(body.event)}".`);
  }
  const { payload, layout } = flattenPayload(body, name);
  const unknown = (problems: FieldProblem[]): ReadPayload => ({ known: null, name, timestamp: payload.timestamp, layout, problems });
  if (name === null) return unknown([{ field: 'event', message: 'is required' }]);
  if (!isKnownEvent(name)) return unknown([{ field: 'event', message: 'is not a known event' }]);
  const parsed = parseWith(webhookPayloadSchemas[name], payload);
  if (parsed.ok) return { known: parsed.value as ReadPayload['known'] & object, name, timestamp: payload.timestamp, layout, problems: [] };
  // The live pages' order_payment carries fewer fields than the contract's; it is still the order's news.
  const live = name === 'order_payment' && (liveHeaders || layout === 'nested' || body.event !== name) ? parseWith(LiveOrderPaymentPayloadSchema, payload) : undefined;
  if (live?.ok) return { known: live.value, name, timestamp: payload.timestamp, layout, problems: [] };
  return unknown(parsed.problems);
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
