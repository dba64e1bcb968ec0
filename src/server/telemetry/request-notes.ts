/**
 * What a buyer request learned on its way that its span and metrics report (telemetry.ts): the gateway kind, the
 * webhook's event. Kept per request only while telemetry records; the parts that learn it call one function here,
 * which imports nothing of OpenTelemetry.
 */
import type { RefusalKind } from './refusal-kinds.js';

export interface RequestNote {
  /** `http.route`: the matched route template, e.g. `/v1/checkout/links/{hash}/orders`. */
  route?: string;
  /** `push`, `otp` or `transfer`. */
  gatewayKind?: string;
  /** A webhook delivery's `event`. */
  webhookEvent?: string;
  /** The refusal the handler answered, as refusal-kinds.ts classified it: the outcome (in doubt, a limit, a webhook refusal). */
  refusal?: RefusalKind | undefined;
}

const notes = new WeakMap<object, RequestNote>();

/** Starts noting `request` (telemetry does, only while an SDK may record). */
export function startNote(request: object): RequestNote {
  const note: RequestNote = {};
  notes.set(request, note);
  return note;
}

/** The note of `request`, when telemetry keeps one. */
export const noteOf = (request: object): RequestNote | undefined => notes.get(request);

export function noteGatewayKind(request: object, kind: string): void {
  const note = notes.get(request);
  if (note) note.gatewayKind = kind;
}

export function noteWebhookEvent(request: object, event: string): void {
  const note = notes.get(request);
  if (note) note.webhookEvent = event;
}
