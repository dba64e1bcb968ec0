/**
 * The one place the merchant and partner clients read the live service tolerantly (docs/site/servers/live-service.md): any of the
 * `data` / `result` / bare wrappers, and per answer the other field names the service is documented or observed to
 * use, normalized to the contract's types before the contract's schema reads them. What money depends on (the order
 * id, its status, an amount) is still required: missing or unreadable, it is an InvalidResponseError. The element's
 * buyer API reader (read-answer.ts) stays strict and small: the buyer API is ours.
 */
import * as z from 'zod/mini';
import { Timestamp } from '../contract/common.js';
import { orderStatuses } from '../contract/orders.js';
import { toFieldProblems } from '../contract/validation.js';
import type { NoteDialect } from './dialect.js';
import type { AnswerReader, AnswerShape } from './http.js';
import { InvalidResponseError, ServiceError } from './errors.js';
import { readFront, retryAfterSeconds } from './answer-front.js';
import type { ReadSpec } from './read-answer.js';
import type { Answer } from './send.js';

export interface TolerantSpec<S extends z.ZodMiniType> extends ReadSpec<S> {
  shape?: AnswerShape | undefined;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads an answer of the live service, whatever its dialect; `route` (`PUT /orders/5/cancel`) names it in errors. */
export function readTolerant<S extends z.ZodMiniType>(answer: Answer, spec: TolerantSpec<S>, route: string, note: NoteDialect): z.output<S> {
  const { status, headers } = answer;
  // A failure status with the service's `code` and `message` but no `error: true` is still its error body.
  const front = readFront(answer, spec.allowEmpty, true);
  if (!front) return undefined as z.output<S>;
  const { json, parsed } = front;
  if (!front.ok) {
    note('foreign_error_body', route);
    throw ServiceError.foreign(status, route, parsed ? messageOf(json) : undefined, retryAfterSeconds(headers?.get('retry-after')));
  }
  if (!parsed) throw new InvalidResponseError(status);
  const { value, key } = unwrap(json, spec, route, note);
  const normalized = normalize(value, spec.shape ?? 'other', route, note);
  const schema = spec.shape === 'link' ? TolerantLinkSchema : spec.schema;
  const result = schema.safeParse(normalized);
  if (!result.success) {
    const problems = toFieldProblems(result.error, normalized).map((p) => (key ? { ...p, field: p.field === 'body' ? key : `${key}.${p.field}` } : p));
    throw new InvalidResponseError(status, problems);
  }
  return result.data as z.output<S>;
}

/** The clients' reader (HttpCore's `reader`), telling `note` each dialect it meets. */
export function tolerantReader(note: NoteDialect): AnswerReader {
  return (answer, spec, route) => readTolerant(answer, spec, route, note);
}

/** `data`, else `result`, else the body itself; reports a wrapper the contract does not use for this answer. */
function unwrap(json: unknown, spec: ReadSpec<z.ZodMiniType>, route: string, note: NoteDialect): { value: unknown; key: string | undefined } {
  const expectsResult = spec.wrapper === 'result' || spec.wrapper === 'result-or-data';
  if (isObject(json) && 'data' in json) return { value: json.data, key: 'data' };
  if (isObject(json) && 'result' in json) {
    if (!expectsResult) note('result_envelope', route);
    return { value: json.result, key: 'result' };
  }
  if (spec.wrapper !== 'data-or-bare') note('bare_envelope', route);
  return { value: json, key: undefined };
}

function normalize(value: unknown, shape: AnswerShape, route: string, note: NoteDialect): unknown {
  if (shape === 'gateways') {
    if (isObject(value)) {
      const list = Array.isArray(value.payment_gateways) ? value.payment_gateways : Array.isArray(value.gateways) ? value.gateways : undefined;
      if (list) {
        note('gateways_object', route);
        return list;
      }
    }
    return value;
  }
  if (!isObject(value)) return value;
  const out: Json = { ...value };
  if (shape === 'link' && out.payment_url === undefined && typeof out.link === 'string') {
    note('link_field', route);
    out.payment_url = out.link;
  }
  if (shape === 'order' || shape === 'order_status') lowerStatus(out, route, note);
  if (shape === 'order') {
    if (out.total === undefined && out.amount !== undefined) {
      note('amount_field', route);
      out.total = out.amount;
    }
    if (out.purchase_date === undefined && out.created_at !== undefined) {
      note('created_at_field', route);
      out.purchase_date = out.created_at;
    }
    out.purchase_date = isoOrAsIs(out.purchase_date);
    // Not given is "none known": the refund's extra check and a webhook's settlement then simply do not match.
    if (out.id_external === undefined) out.id_external = null;
  }
  return out;
}

function lowerStatus(out: Json, route: string, note: NoteDialect): void {
  if (typeof out.status !== 'string') return;
  const lower = out.status.trim().toLowerCase();
  if (lower !== out.status && (orderStatuses as readonly string[]).includes(lower)) {
    note('status_case', route);
    out.status = lower;
  }
}

/** A date the service writes another way (`2025-06-01 12:00:00`) as ISO 8601; anything unreadable is left to the schema. */
function isoOrAsIs(value: unknown): unknown {
  if (typeof value !== 'string' || Timestamp.safeParse(value).success) return value;
  const ms = Date.parse(value.includes('T') ? value : value.replace(' ', 'T'));
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/**
 * A created link as the live service may send it (`{ link, hash, wallet_id }`): the URL and hash are what a link
 * is for; its id and expiry are kept when sent, never required.
 */
export const TolerantLinkSchema = z.looseObject({
  payment_link_id: z.optional(z.int().check(z.minimum(1))),
  payment_url: z.string().check(z.minLength(1)),
  hash: z.string().check(z.minLength(1)),
  expires_at: z.optional(z.nullable(Timestamp)),
});
export type TolerantCreatedLink = z.infer<typeof TolerantLinkSchema>;

/** A foreign error body's own words, when it has some (`{ statusCode, message }`), kept short. */
function messageOf(json: unknown): string | undefined {
  if (!isObject(json)) return undefined;
  const text = typeof json.message === 'string' ? json.message : typeof json.error === 'string' ? json.error : undefined;
  return text ? text.slice(0, 200) : undefined;
}
