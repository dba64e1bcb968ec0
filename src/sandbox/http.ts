/** Request plumbing shared by every route: the contract's ErrorResponse, JSON bodies with their limits, path ids. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod/mini';
import { isJsonType, readJsonRequest, readTextRequest, refuseTooDeep, type Refuse } from '../server/http/body.js';
import {
  errorBody,
  errorCatalog,
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


const refuse: Refuse = (apiCode, extra) => {
  throw new ApiError(apiCode, extra);
};

/** JSON bodies already read by `readJsonFirst`, by request: a body can be read only once. */
const jsonBodies = new WeakMap<Request, unknown>();

/**
 * Reads every JSON body before routing, so routes that take no body refuse malformed or hostile JSON too
 * instead of ignoring it. Other content types are left to the route (a form page, the webhook receiver).
 */
export async function readJsonFirst(c: Context): Promise<void> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) || !isJsonType(c.req.header('content-type'))) return;
  jsonBodies.set(c.req.raw, await readJsonRequest(c.req.raw, refuse, { optional: true }));
}

/** Reads a JSON body within the contract's limits (src/server/http/body.ts). `optional` bodies may be empty. */
export async function readJson(c: Context, options: { optional?: boolean } = {}): Promise<unknown> {
  if (!jsonBodies.has(c.req.raw)) return readJsonRequest(c.req.raw, refuse, options);
  const value = jsonBodies.get(c.req.raw);
  if (value === undefined && !options.optional) refuse('MALFORMED_JSON', { description: 'The request body is empty.' });
  return value;
}

/** Reads any body as text (invalid UTF-8 replaced, not refused), under the same 100 KB limit. */
export const readText = (c: Context): Promise<string> => readTextRequest(c.req.raw, refuse);

/** Text that must not be nested deeper than the JSON limit (a webhook body kept for the dashboard). */
export const refuseDeepText = (text: string): void => refuseTooDeep(text, refuse);

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
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { description: 'Send the form as application/x-www-form-urlencoded.' });
  return new URLSearchParams(await readText(c));
}
