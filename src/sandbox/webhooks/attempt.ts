/** One webhook POST: sends, waits at most `timeoutMs` (headers and body), and classifies the answer. */

/** The receiver's answer is kept to this many characters in the delivery log. */
export const responseBodyLogLimit = 4_096;
/** More than this is not read at all (the rest is discarded), so a huge answer cannot exhaust memory. */
const responseReadLimit = 64 * 1024;

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the attempt from outside (the deliverer's reset). */
  cancel: AbortSignal;
  fetch: typeof fetch;
}

export interface AttemptResult {
  status: number | null;
  responseBody: string | null;
  error: string | null;
  /** `delivered`; `retry`: connection failure, timeout or 5xx; `reject`: anything else. */
  verdict: 'delivered' | 'retry' | 'reject';
}

class AttemptTimeout extends Error {}

export async function attemptDelivery(request: AttemptRequest): Promise<AttemptResult> {
  const controller = new AbortController();
  const timeoutMessage = `timeout after ${request.timeoutMs} ms`;
  // One timer covers connecting, the headers and the body: a receiver that stalls anywhere is cut off.
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(timeoutMessage)), request.timeoutMs);
  const onCancel = () => controller.abort(request.cancel.reason);
  request.cancel.addEventListener('abort', onCancel, { once: true });
  let status: number | null = null;
  let responseBody: string | null = null;
  try {
    const response = await request.fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual', // a webhook URL that redirects is misconfigured: report it, never follow it
      signal: controller.signal,
    });
    status = response.status;
    const text = await readLimited(response);
    responseBody = text.slice(0, responseBodyLogLimit);
    return { status, responseBody, ...classify(response.status, text) };
  } catch (error) {
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    if (reason instanceof AttemptTimeout) return { status, responseBody, error: timeoutMessage, verdict: 'retry' };
    if (request.cancel.aborted) return { status, responseBody, error: 'cancelled: the delivery log was reset', verdict: 'reject' };
    // A response that broke off mid-body still had its status: a 5xx is retried, anything else was an answer.
    const verdict = status === null || status >= 500 ? 'retry' : 'reject';
    return { status, responseBody, error: describeNetworkError(error), verdict };
  } finally {
    clearTimeout(timer);
    request.cancel.removeEventListener('abort', onCancel);
  }
}

function classify(status: number, text: string): Pick<AttemptResult, 'error' | 'verdict'> {
  if (status >= 200 && status < 300) {
    return answersError(text) ? { error: `receiver answered ${status} with "error": true`, verdict: 'reject' } : { error: null, verdict: 'delivered' };
  }
  if (status >= 500) return { error: `receiver answered ${status}`, verdict: 'retry' };
  if (status >= 300 && status < 400) return { error: `redirect (${status}) not followed`, verdict: 'reject' };
  return { error: `receiver rejected the delivery with ${status}`, verdict: 'reject' };
}

/** The contract counts a 2xx whose JSON body has `error` = true as a failure. */
function answersError(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && (parsed as { error?: unknown }).error === true;
  } catch {
    return false;
  }
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
    if (bytes >= responseReadLimit) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return text + decoder.decode();
}

const networkErrorText: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
};

/** Node's fetch reports "fetch failed" and hides the reason in `cause`: turn it into plain text. */
export function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return networkErrorText[code] ?? `connection failed (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `connection failed: ${message}`;
}
