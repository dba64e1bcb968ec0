/**
 * A value fetched at most once per `ttlMs`, shared by concurrent callers (one request in flight); a failure is
 * not kept, so the next caller tries again. Used for gateway discovery and document types.
 */
export function cached<T>(load: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let value: { promise: Promise<T>; until: number } | undefined;
  return () => {
    if (value && value.until > now()) return value.promise;
    const promise = load();
    const entry = { promise, until: Number.POSITIVE_INFINITY };
    value = entry;
    promise.then(
      () => {
        entry.until = now() + ttlMs;
      },
      () => {
        if (value === entry) value = undefined;
      },
    );
    return promise;
  };
}

/**
 * How long discovered gateways and document types are reused: 5 minutes. They change only when the merchant
 * turns a method on or off, and a buyer who picks one just turned off gets the service's own refusal.
 */
export const discoveryTtlMs = 5 * 60_000;
