/**
 * The partner registry's storage: a few string keys with optional expiry, in Redis (redis-kv.ts) or one PostgreSQL
 * table (postgres-kv.ts), reached through the same connection helpers as the claim store and the outbox. Every value
 * written here is either public (names, URLs, ids) or sealed (keyring.ts); the registry (registry.ts) says which.
 */
export interface Kv {
  readonly kind: 'redis' | 'postgres';
  get(key: string): Promise<string | null>;
  /** Several keys at once, in order; null for each missing one. */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  /** Writes the value (forever, or for `ttlMs`); with `onlyNew`, only when the key is absent: true when written. */
  set(key: string, value: string, options?: { ttlMs?: number; onlyNew?: boolean }): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds `delta` to a counter (0 when absent or expired), atomically; a new counter lives `ttlMs`. The new value. */
  add(key: string, delta: number, ttlMs: number): Promise<number>;
  /** Every live key starting with `prefix`, with its value (for the operator and the start-up checks, not per request). */
  scan(prefix: string): Promise<[string, string][]>;
  close(): Promise<void>;
}

/** A key the registry may use: letters, digits and `:_.-` (never a space, never a glob character). */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9:_.-]{1,300}$/.test(key)) throw new TypeError(`partner registry: unusable key ${JSON.stringify(key.slice(0, 40))}`);
  return key;
}
