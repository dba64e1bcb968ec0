import { NetworkError, TimeoutError } from './errors.js';

/**
 * A NetworkError or TimeoutError from `send`, said again with what was tried, where, the lowest-level reason and what
 * to check. Here rather than in errors.ts, so the element's first script does not carry these sentences.
 */
export function explainUnanswered(error: unknown, method: string, url: string): unknown {
  const request = `${method} ${url}`;
  const origin = originOf(url);
  if (error instanceof NetworkError) {
    return new NetworkError({
      cause: error.cause,
      request,
      message: `${request} got no answer${reasonOf(error.cause)}. Check that the payment service runs at ${origin} (the sandbox: npx pay-checkout sandbox), the network, DNS and any proxy, and, from a browser, that it allows this page's origin (CORS).`,
    });
  }
  if (error instanceof TimeoutError) {
    return new TimeoutError(error.timeoutMs, {
      cause: error.cause,
      request,
      message: `${request} got no answer within ${error.timeoutMs} ms. Check that the payment service at ${origin} is up and reachable, or raise timeoutMs.`,
    });
  }
  return error;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The lowest-level reason a fetch gives (Node: `cause.cause`, e.g. `connect ECONNREFUSED 127.0.0.1:4010`). */
function reasonOf(cause: unknown): string {
  let error = cause;
  while (error instanceof Error && error.cause instanceof Error) error = error.cause;
  return error instanceof Error && error.message ? ` (${error.message})` : '';
}
