/** Request plumbing shared by every route: the contract's ErrorResponse, JSON bodies with their limits, path ids. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod/mini';
import {
  errorBody,
  errorCatalog,
  maxBodyBytes,
  OrderIdParam,
  parseWith,
  summarizeProblems,
  type ApiCode,
  type ErrorResponse,
  type FieldProblem,
} from '../contract/index.js';

/** A refusal with the contract's error body; thrown anywhere, answered by the app's onError. */
export class ApiError extends Error {
  constructor(
    readonly apiCode: ApiCode,
    readonly extra: Partial<Omit<ErrorResponse, 'code' | 'api_code' | 'error'>> & Record<string, unknown> = {},
  ) {
    super(typeof extra.message === 'string' ? extra.message : errorCatalog[apiCode].message);
  }
  get status(): ContentfulStatusCode {
    return errorCatalog[this.apiCode].httpStatus as ContentfulStatusCode;
  }
  body(): ErrorResponse {
    return errorBody(this.apiCode, this.extra);
  }
}

export function validationError(problems: FieldProblem[], apiCode: ApiCode = 'VALIDATION_FAILED'): ApiError {
  return new ApiError(apiCode, { description: summarizeProblems(problems), validation_errors: problems });
}

export function fieldError(field: string, message: string, apiCode: ApiCode = 'VALIDATION_FAILED'): ApiError {
  return validationError([{ field, message }], apiCode);
}

export function errorJson(c: Context, error: ApiError): Response {
  return c.json(error.body(), error.status);
}

/** Parses with a contract schema or throws 400 VALIDATION_FAILED with `validation_errors`. */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = parseWith(schema, input);
  if (!result.ok) throw validationError(result.problems);
  return result.value;
}

export function orderIdFrom(c: Context, name = 'orderId'): number {
  const result = parseWith(OrderIdParam, c.req.param(name) ?? '');
  if (!result.ok) throw validationError(result.problems.map((p) => ({ ...p, field: name })));
  return result.value;
}

const isJsonType = (type: string | undefined) => !!type && /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type.trim());

/**
 * Reads a JSON body: 413 over 100 KB (by Content-Length and by the bytes actually read),
 * 415 for another content type, 400 MALFORMED_JSON for broken JSON. `optional` bodies may be empty.
 */
export async function readJson(c: Context, { optional = false } = {}): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBodyBytes) throw new ApiError('PAYLOAD_TOO_LARGE');
  const bytes = await readLimited(c.req.raw.body);
  const contentType = c.req.header('content-type');
  if (bytes.byteLength === 0) {
    if (optional && !contentType) return undefined;
    if (!isJsonType(contentType)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
    if (optional) return undefined;
    throw new ApiError('MALFORMED_JSON', { description: 'The request body is empty.' });
  }
  if (!isJsonType(contentType)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { description: `Got ${contentType ?? 'no Content-Type'}; send application/json.` });
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch (error) {
    throw new ApiError('MALFORMED_JSON', { description: error instanceof Error ? error.message : 'not JSON' });
  }
}

/** Reads any body as text (invalid UTF-8 replaced, not refused), under the same 100 KB limit. */
export async function readText(c: Context): Promise<string> {
  if (Number(c.req.header('content-length') ?? '0') > maxBodyBytes) throw new ApiError('PAYLOAD_TOO_LARGE');
  return new TextDecoder().decode(await readLimited(c.req.raw.body));
}

async function readLimited(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError('PAYLOAD_TOO_LARGE');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Key-order-independent text of a JSON value, so "the same body" means the same data. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Reads an HTML form post (urlencoded), under the same 100 KB limit. */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBodyBytes) throw new ApiError('PAYLOAD_TOO_LARGE');
  const type = c.req.header('content-type') ?? '';
  const bytes = await readLimited(c.req.raw.body);
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { description: 'Send the form as application/x-www-form-urlencoded.' });
  return new URLSearchParams(new TextDecoder().decode(bytes));
}
