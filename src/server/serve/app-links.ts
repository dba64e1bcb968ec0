/**
 * Links from the shop's own app, for `pay-checkout serve`: its `resolveLink`. For each hash a signed `GET` to the
 * links URL (`{hash}` filled in, URL-encoded); the app answers 200 with a link record (link-record.ts) or 404. The
 * app decides per hash, so a cart can be a link.
 *
 * A shop's app is someone else's code on someone else's server: it may hang, fail, or answer an HTML error page. Each
 * such answer is the buyer API's ErrorResponse (LINK_SOURCE_UNAVAILABLE 503, LINK_SOURCE_INVALID 502) within the
 * time bound, and an event that says what was wrong; other links go on being served, from the cache or their own
 * request. Records are cached (fresh 30 s, a 404 for 5 s, a failure for 1 s, at most 10,000 hashes) so a busy
 * checkout asks the app once per link and half-minute, and concurrent asks for one hash share one request. At most
 * `maxAsking` asks are under way at once, all hashes together (the handler's `linksPerAddress` limit bounds each
 * address before this is reached). A links URL's user info goes as `Authorization: Basic`, never in a message.
 */
import { readFileSync, statSync } from 'node:fs';
import { payCheckoutSignatureHeader, signPayCheckout } from '../../webhooks/pay-checkout-signature.js';
import { readStreamWithin } from '../http/body.js';
import { shown, withoutCredentials } from '../http/shown-values.js';
import { CheckoutHttpError } from '../http/errors.js';
import type { EventSink } from '../events.js';
import type { CheckoutLinkInfo, ResolveLink } from '../buyer/links.js';
import { linkInfoOf } from './link-record.js';

export const appLinkDefaults = {
  /** The app must have answered, body and all, within this. */
  timeoutMs: 3_000,
  /** A record is reused this long before the app is asked again. */
  freshMs: 30_000,
  /** A 404 is reused this long: a link the shop just made shows within seconds. */
  notFoundMs: 5_000,
  /** A failure is answered again this long without asking the app: a buyer's retries and a flood on one link do not pile onto an app that is down. */
  failureMs: 1_000,
  /** Hashes remembered at most; the oldest goes first. */
  maxEntries: 10_000,
  /** A record's JSON larger than this is not a record. */
  maxBytes: 64 * 1024,
  /**
   * Asks under way at once, all hashes together: a flood of made-up hashes from many addresses reaches the app at
   * this pace at most. One more waits for a free one within `timeoutMs`, else answers as an app that is down.
   */
  maxAsking: 16,
  /** Asks waiting for a free one at most; past that, answered at once as an app that is down. */
  maxWaiting: 256,
} as const;

/** A hash the app is asked about: what a URL path segment and a shop's id can be, within reason. */
const plausibleHash = /^[\w.~-]{1,128}$/;

export interface AppLinksOptions {
  /** The links URL with `{hash}` in it. */
  url: string;
  /** The secrets the requests are signed with (one `v1=` each while rotating). */
  secrets: readonly string[];
  /** Where each failure of the app is told, as a `links_app_failed` event. */
  emit: EventSink;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  freshMs?: number;
  notFoundMs?: number;
  failureMs?: number;
  maxEntries?: number;
  maxAsking?: number;
  maxWaiting?: number;
  now?: () => number;
}

type Found = CheckoutLinkInfo | null;
/** What is remembered of a hash: the record, no such link (null), or the app's failure. */
type Remembered = Found | AppFailure;

/** Why the app's answer was no link record: the event's `reason`, and whether the app was down or wrong. */
class AppFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'server_error' | 'unexpected_status' | 'not_json' | 'not_a_record' | 'busy',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  get unavailable(): boolean {
    return this.reason === 'timeout' || this.reason === 'unreachable' || this.reason === 'server_error' || this.reason === 'busy';
  }
}

/** A remembered answer per hash, newest last, at most `max`; a Map keeps insertion order. */
function boundedCache(max: number, now: () => number) {
  const entries = new Map<string, { until: number; found: Remembered }>();
  return {
    get(hash: string): { found: Remembered } | undefined {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.until > now()) return entry;
      entries.delete(hash);
      return undefined;
    },
    delete(hash: string) {
      entries.delete(hash);
    },
    set(hash: string, found: Remembered, forMs: number) {
      entries.delete(hash);
      entries.set(hash, { until: now() + forMs, found });
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
  };
}

/** The buyer's answer for a failure of the app, with the failure as its cause (for the event and the logs). */
function refusal(failure: AppFailure): CheckoutHttpError {
  const error = failure.unavailable
    ? CheckoutHttpError.of('LINK_SOURCE_UNAVAILABLE', { description: "The store's system did not answer for this payment link; try again in a moment." }, { 'Retry-After': '5' })
    : CheckoutHttpError.of('LINK_SOURCE_INVALID', { description: "The store's system answered for this payment link with something that is not a link." });
  return error.withCause(failure);
}

/** A `resolveLink` whose remembered record of a hash can be dropped (the link was just paid: ask the app again). */
export type CachedLinks = ResolveLink & { forget(hash: string): void };

export function appLinks(options: AppLinksOptions): CachedLinks {
  const o = { ...appLinkDefaults, ...options };
  const now = options.now ?? Date.now;
  const fetch = options.fetch ?? globalThis.fetch;
  const cache = boundedCache(o.maxEntries, now);
  const asking = new Map<string, Promise<Found>>();
  const slots = askSlots(o.maxAsking, o.maxWaiting);

  const ask = async (hash: string): Promise<Found> => {
    // fetch() refuses a URL with credentials in it: an app behind HTTP basic auth gets them as the header.
    const { url, authorization } = withoutCredentials(o.url.replace('{hash}', encodeURIComponent(hash)));
    const signature = signPayCheckout(o.secrets, `GET ${url.pathname}${url.search}`);
    const signal = AbortSignal.timeout(o.timeoutMs);
    if (!(await slots.take(signal))) throw new AppFailure('busy', `was not asked: ${o.maxAsking} asks were under way for ${o.timeoutMs} ms`);
    try {
      return await askWith(url, authorization, signature, signal);
    } finally {
      slots.give();
    }
  };

  const askWith = async (url: URL, authorization: string | undefined, signature: string, signal: AbortSignal): Promise<Found> => {
    let response: Response;
    try {
      const headers = { accept: 'application/json', [payCheckoutSignatureHeader]: signature, ...(authorization ? { authorization } : {}) };
      response = await fetch(url, { headers, redirect: 'manual', signal });
    } catch (error) {
      if (signal.aborted) throw new AppFailure('timeout', `no answer within ${o.timeoutMs} ms`);
      throw new AppFailure('unreachable', `could not be reached (${causeOf(error)})`);
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    if (response.status >= 500) {
      await response.body?.cancel().catch(() => {});
      throw new AppFailure('server_error', `answered ${response.status}`, response.status);
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      const hint = response.status === 401 || response.status === 403 ? ' (does it check the signature with PAY_CHECKOUT_APP_SECRET?)' : '';
      throw new AppFailure('unexpected_status', `answered ${response.status}, not 200 or 404${hint}`, response.status);
    }
    let text: string;
    try {
      text = await readWithin(response, o.maxBytes);
    } catch (error) {
      if (signal.aborted) throw new AppFailure('timeout', `its answer did not finish within ${o.timeoutMs} ms`);
      throw error instanceof AppFailure ? error : new AppFailure('unreachable', `its answer was cut off (${causeOf(error)})`);
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      const type = response.headers.get('content-type') ?? 'no content type';
      throw new AppFailure('not_json', `answered 200 with ${type}, not a JSON link record`, 200);
    }
    const checked = linkInfoOf(record);
    if (!checked.ok) throw new AppFailure('not_a_record', `answered a record that breaks the contract: ${checked.problem}`, 200);
    return checked.info;
  };

  const resolve: ResolveLink = async (hash) => {
    if (!plausibleHash.test(hash)) return null;
    const cached = cache.get(hash);
    if (cached) {
      if (cached.found instanceof AppFailure) throw refusal(cached.found);
      return cached.found;
    }
    let pending = asking.get(hash);
    if (!pending) {
      pending = ask(hash).then(
        (found) => {
          cache.set(hash, found, found ? o.freshMs : o.notFoundMs);
          return found;
        },
        (error: unknown) => {
          const failure = error instanceof AppFailure ? error : new AppFailure('unreachable', causeOf(error));
          cache.set(hash, failure, o.failureMs);
          options.emit({
            level: 'error',
            name: 'links_app_failed',
            message: `the links URL ${failure.message}, for link ${hash}`,
            reason: failure.reason,
            hash,
            ...(failure.status !== undefined ? { status: failure.status } : {}),
          });
          throw refusal(failure);
        },
      );
      asking.set(hash, pending);
      void pending.finally(() => asking.delete(hash)).catch(() => {});
    }
    return pending;
  };
  return Object.assign(resolve, { forget: (hash: string) => cache.delete(hash) });
}

/** The body as text, refusing one past `limit` bytes (no record is that large). */
async function readWithin(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new AppFailure('not_a_record', `answered ${declared} bytes, more than a link record's ${limit}`, 200);
  }
  const bytes = await readStreamWithin(response.body, limit);
  if (!bytes) throw new AppFailure('not_a_record', `answered more than a link record's ${limit} bytes`, 200);
  return new TextDecoder().decode(bytes);
}

/** Why fetch failed, as an event may say it: a URL it quotes without its user info or query. */
const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return shown(cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
};

/**
 * At most `max` asks under way; up to `waiting` more wait for a free one until their signal ends. `take` resolves
 * true with a slot held (give it back), false with none.
 */
function askSlots(max: number, waiting: number) {
  let free = max;
  const queue: ((taken: boolean) => void)[] = [];
  return {
    take(signal: AbortSignal): Promise<boolean> {
      if (free > 0) {
        free -= 1;
        return Promise.resolve(true);
      }
      if (queue.length >= waiting || signal.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const done = (taken: boolean) => {
          signal.removeEventListener('abort', gaveUp);
          resolve(taken);
        };
        const gaveUp = () => {
          const at = queue.indexOf(done);
          if (at >= 0) queue.splice(at, 1);
          done(false);
        };
        signal.addEventListener('abort', gaveUp, { once: true });
        queue.push(done);
      });
    },
    give(): void {
      const next = queue.shift();
      if (next) next(true);
      else free += 1;
    },
  };
}

export interface FileLinksOptions {
  path: string;
  emit: EventSink;
  /** How often, at most, the file's time and size are looked at; default 1,000 ms. */
  checkEveryMs?: number;
  now?: () => number;
}

/**
 * Links from a JSON file of records keyed by hash, for a shop with a few fixed links: re-read when its time or size
 * changes (looked at once a second at most, on a request). A file broken by an edit keeps the last good records, and
 * says so in a `links_file_invalid` event; a record that breaks the contract answers LINK_SOURCE_INVALID.
 */
export function fileLinks(options: FileLinksOptions): CachedLinks {
  const now = options.now ?? Date.now;
  const every = options.checkEveryMs ?? 1_000;
  let records: Record<string, unknown> = {};
  let version = '';
  let checkedAt = -Infinity;

  const reload = () => {
    checkedAt = now();
    let seen: string;
    try {
      const stat = statSync(options.path);
      seen = `${stat.mtimeMs}:${stat.size}`;
    } catch (error) {
      return void (version !== 'gone' && ((version = 'gone'), options.emit({ level: 'error', name: 'links_file_invalid', message: `the links file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); the last good records are kept`, path: options.path })));
    }
    if (seen === version) return;
    version = seen;
    try {
      const parsed: unknown = JSON.parse(readFileSync(options.path, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object keyed by hash');
      records = parsed as Record<string, unknown>;
      options.emit({ level: 'info', name: 'links_file_read', message: `${Object.keys(records).length} link(s) read from the links file`, path: options.path, links: Object.keys(records).length });
    } catch (error) {
      options.emit({ level: 'error', name: 'links_file_invalid', message: `the links file is ${error instanceof SyntaxError ? 'not JSON' : (error as Error).message}; the last good records are kept`, path: options.path });
    }
  };

  const resolve: ResolveLink = (hash) => {
    if (now() - checkedAt >= every) reload();
    if (!Object.hasOwn(records, hash)) return null;
    const checked = linkInfoOf(records[hash]);
    if (checked.ok) return checked.info;
    options.emit({ level: 'error', name: 'links_file_invalid', message: `the links file's record for ${hash} breaks the contract: ${checked.problem}`, path: options.path, hash });
    throw refusal(new AppFailure('not_a_record', checked.problem));
  };
  // The file is the shop's word, read again as it changes: nothing is kept to forget.
  return Object.assign(resolve, { forget: () => {} });
}
