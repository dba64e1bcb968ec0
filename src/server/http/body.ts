/**
 * Reading request bodies within the contract's limits, shared by the server handler and the sandbox:
 * 413 over 100 KB (declared or actually sent, never buffering more), 415 for another content type,
 * 400 MALFORMED_JSON for broken JSON, 400 VALIDATION_FAILED for JSON nested deeper than `maxJsonDepth`.
 * Web-standard streams only, so it runs on Node and edge runtimes.
 */
import { jsonNestsDeeperThan, maxBodyBytes, maxJsonDepth, summarizeProblems, tooDeepProblem, type ApiCode, type FieldProblem } from '../../contract/index.js';

/** How the caller refuses: throws its own error type for the contract's code. */
export type Refuse = (apiCode: ApiCode, extra?: { description?: string; validation_errors?: FieldProblem[] }) => never;

/** A body its adapter reads itself within a limit (the Node adapter's native path): undefined when over it. */
export interface OwnBody {
  readonly headers: { get(name: string): string | null };
  readWithin(limit: number): Promise<Uint8Array | undefined>;
}

export const isJsonType = (type: string | null | undefined) => !!type && /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type.trim());

// Made once: a decoder used without `stream` keeps no state between calls.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON body; with `optional`, an empty body (and no or a JSON content type) is `undefined`. */
export async function readJsonRequest(request: Request | OwnBody, refuse: Refuse, { optional = false } = {}): Promise<unknown> {
  const bytes = await readBytes(request, refuse);
  const type = request.headers.get('content-type');
  if (bytes.byteLength === 0) {
    if (optional && !type) return undefined;
    if (!isJsonType(type)) refuse('UNSUPPORTED_MEDIA_TYPE');
    if (optional) return undefined;
    refuse('MALFORMED_JSON', { description: 'The request body is empty.' });
  }
  if (!isJsonType(type)) refuse('UNSUPPORTED_MEDIA_TYPE', { description: `Got ${type ?? 'no Content-Type'}; send application/json.` });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return refuse('MALFORMED_JSON', { description: 'The request body is not valid UTF-8.' });
  }
  refuseTooDeep(text, refuse);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return refuse('MALFORMED_JSON', { description: error instanceof Error ? error.message : 'not JSON' });
  }
}

/** Refuses text nested deeper than `maxJsonDepth` with 400 VALIDATION_FAILED, before anything parses or walks it. */
export function refuseTooDeep(text: string, refuse: Refuse): void {
  if (jsonNestsDeeperThan(text, maxJsonDepth)) refuse('VALIDATION_FAILED', { description: summarizeProblems([tooDeepProblem]), validation_errors: [tooDeepProblem] });
}

/** Any body as text (invalid UTF-8 replaced, not refused), under the same limit. */
export async function readTextRequest(request: Request | OwnBody, refuse: Refuse): Promise<string> {
  return new TextDecoder().decode(await readBytes(request, refuse));
}

async function readBytes(request: Request | OwnBody, refuse: Refuse): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBodyBytes) refuse('PAYLOAD_TOO_LARGE');
  if ('readWithin' in request) return (await request.readWithin(maxBodyBytes)) ?? refuse('PAYLOAD_TOO_LARGE');
  return (await readStreamWithin(request.body, maxBodyBytes)) ?? refuse('PAYLOAD_TOO_LARGE');
}

/**
 * A stream's bytes, or undefined once they pass `limit`: reading stops there and the stream is cancelled, so a huge
 * body is never buffered. Also reads what a server fetched (a shop's link record) under its own limit.
 */
export async function readStreamWithin(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
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
