/** Request and response plumbing of the handler: JSON bodies within their limits, the contract's ErrorResponse. */
import { errorBody, errorCatalog, maxBodyBytes, summarizeProblems, type ApiCode, type ErrorResponse, type FieldProblem } from '../contract/index.js';

type ErrorExtra = Partial<Omit<ErrorResponse, 'code' | 'api_code' | 'error'>>;

/** A refusal in the contract's words; the handler turns it into an ErrorResponse. */
export class CheckoutHttpError extends Error {
  readonly status: number;
  readonly body: ErrorResponse;
  readonly headers: Record<string, string>;

  constructor(status: number, body: ErrorResponse, headers: Record<string, string> = {}) {
    super(body.message);
    this.name = 'CheckoutHttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  static of(apiCode: ApiCode, extra: ErrorExtra = {}, headers: Record<string, string> = {}): CheckoutHttpError {
    return new CheckoutHttpError(errorCatalog[apiCode].httpStatus, errorBody(apiCode, extra), headers);
  }

  static invalid(problems: FieldProblem[], apiCode: ApiCode = 'VALIDATION_FAILED'): CheckoutHttpError {
    return CheckoutHttpError.of(apiCode, { description: summarizeProblems(problems), validation_errors: problems });
  }
}

const isJsonType = (type: string | null) => !!type && /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(type.trim());

/** Reads a JSON body: 413 over 100 KB (declared or actually sent), 415 for another type, 400 for broken JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (Number(request.headers.get('content-length') ?? '0') > maxBodyBytes) throw CheckoutHttpError.of('PAYLOAD_TOO_LARGE');
  const bytes = await readLimited(request.body);
  const type = request.headers.get('content-type');
  if (bytes.byteLength === 0 && !isJsonType(type)) throw CheckoutHttpError.of('UNSUPPORTED_MEDIA_TYPE');
  if (bytes.byteLength === 0) throw CheckoutHttpError.of('MALFORMED_JSON', { description: 'The request body is empty.' });
  if (!isJsonType(type)) throw CheckoutHttpError.of('UNSUPPORTED_MEDIA_TYPE', { description: `Got ${type ?? 'no Content-Type'}; send application/json.` });
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch (error) {
    throw CheckoutHttpError.of('MALFORMED_JSON', { description: error instanceof Error ? error.message : 'not JSON' });
  }
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
      // Stop reading at the limit: a huge body is never buffered.
      await reader.cancel().catch(() => {});
      throw CheckoutHttpError.of('PAYLOAD_TOO_LARGE');
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
