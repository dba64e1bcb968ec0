import type * as z from 'zod/mini';
import { ErrorResponseSchema } from '../contract/errors.js';
import { ServiceError } from './errors.js';
import type { Answer } from './send.js';

/** An answer past the front half: its body as JSON (`parsed` false when it is not JSON), and whether its status is 2xx. */
export interface ReadFront {
  ok: boolean;
  json: unknown;
  parsed: boolean;
  /** Why the body is not the service's ErrorResponse, when the answer looked like a failure. */
  failure?: { issues: readonly z.core.$ZodIssue[] };
}

/**
 * The front half of reading an answer, the same for the strict reader (read-answer.ts: the contract's) and the
 * tolerant one (tolerant-read.ts: the live service's): an empty 2xx where the call allows one is `undefined`; the body
 * is read as JSON; and a failure status, or a 2xx carrying `error: true`, whose body is the service's ErrorResponse
 * throws its ServiceError (with `Retry-After`). A 2xx without `error: true` cannot be one (the schema requires it),
 * so a success is not first parsed as a failure. `lenient`: a failure status whose body has the service's `code` and
 * `message` but no `error` field is its error body too (the live service leaves it out).
 */
export function readFront(answer: Answer, allowEmpty: boolean | undefined, lenient = false): ReadFront | undefined {
  const { status, text, headers } = answer;
  const ok = status >= 200 && status < 300;
  if (ok && allowEmpty && text.trim() === '') return undefined;
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
  }
  const object = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  if (!ok || object?.error === true) {
    const failure = ErrorResponseSchema.safeParse(lenient && !ok && object && object.error === undefined ? { ...object, error: true } : json);
    if (failure.success) throw new ServiceError(status, failure.data, retryAfterSeconds(headers?.get('retry-after')));
    return { ok, json, parsed, failure: failure.error };
  }
  return { ok, json, parsed };
}

/** `Retry-After` in seconds (delta form only; a date is read as unknown). */
export function retryAfterSeconds(value: string | null | undefined): number | undefined {
  return value && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}
