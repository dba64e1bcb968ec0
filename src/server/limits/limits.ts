/**
 * Abuse limits of the buyer API (docs/site/servers/limits.md): counted per client address, link, phone, document
 * and order, each in a fixed window, in a `LimitStore` shared like the claims (memory for one process, Redis for
 * N). A request over any limit is refused with 429 `LIMIT_REACHED` and `Retry-After` before the service is called.
 */
import { CheckoutHttpError } from '../http/errors.js';
import { sha256Hex } from '../secrets.js';
import { LimitRefusal } from '../causes.js';

/** At most `max` in `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Every limit the handler applies; `limits: { ordersPerPhone: { max: 3, windowMs: 600_000 } }` changes one. */
export interface Limits {
  /** New orders from one client address. */
  ordersPerAddress: Limit;
  /** New orders on one payment link (all buyers together): the merchant's quota at the service. */
  ordersPerLink: Limit;
  /** New orders naming one phone (push approvals sent to it), in 10 minutes and in a day. */
  ordersPerPhone: Limit;
  ordersPerPhoneDay: Limit;
  /** New orders naming one document number (SMS codes sent to its wallet), in 10 minutes and in a day. */
  ordersPerDocument: Limit;
  ordersPerDocumentDay: Limit;
  /** SMS-code attempts on one order (the service's own 3 still apply), one document, one client address. */
  codesPerOrder: Limit;
  codesPerDocument: Limit;
  codesPerAddress: Limit;
  /** Link lookups (the buyer API's and the hosted page's) from one client address, before `resolveLink` is asked. */
  linksPerAddress: Limit;
  /** Status requests (waiting ones included) and cancels from one client address. */
  lookupsPerAddress: Limit;
  cancelsPerAddress: Limit;
}

const minutes = (n: number) => n * 60_000;

/**
 * Defaults an honest buyer never meets (five orders while changing method, two mistyped codes, a phone on shared
 * mobile NAT polling for 10 minutes), while one phone or document receives at most 5 pushes or SMS per 10 minutes
 * and 20 a day, whatever number of addresses send them.
 */
export const defaultLimits: Limits = {
  ordersPerAddress: { max: 30, windowMs: minutes(10) },
  ordersPerLink: { max: 600, windowMs: minutes(10) },
  ordersPerPhone: { max: 5, windowMs: minutes(10) },
  ordersPerPhoneDay: { max: 20, windowMs: minutes(24 * 60) },
  ordersPerDocument: { max: 5, windowMs: minutes(10) },
  ordersPerDocumentDay: { max: 20, windowMs: minutes(24 * 60) },
  codesPerOrder: { max: 5, windowMs: minutes(10) },
  codesPerDocument: { max: 10, windowMs: minutes(10) },
  codesPerAddress: { max: 30, windowMs: minutes(10) },
  linksPerAddress: { max: 300, windowMs: minutes(10) },
  lookupsPerAddress: { max: 1_200, windowMs: minutes(10) },
  cancelsPerAddress: { max: 30, windowMs: minutes(10) },
};

export type LimitName = keyof Limits;

/** One count against one limit: `key` is what is counted (an address, a link, a pseudonym of a phone). */
export interface LimitHit {
  name: LimitName;
  key: string;
  limit: Limit;
  /** Set by the store when this hit is over its limit: which limit refused, for the metric and the event. */
  refused?: boolean;
}

/** The cause of a 429: which limit refused (a name, never the counted key). */
export { LimitRefusal };

/**
 * Where counters live: atomic, every key expiring with its window. `hit` counts each hit at once (one round trip
 * where the store can) and answers 0 when all are within their limits, else the milliseconds until the longest
 * refusal ends. A store that cannot answer rejects: the handler answers 503.
 */
export interface LimitStore {
  hit(hits: readonly LimitHit[]): Promise<number>;
}

/** `limits` option: `false` turns every limit off (a load test); an object changes some, with its own store. */
export type LimitsOption = false | (Partial<Limits> & { store?: LimitStore });

export interface LimitsPlan {
  limits: Limits;
  store: LimitStore;
}

export function limitsPlan(option: LimitsOption | undefined, store: () => LimitStore): LimitsPlan | undefined {
  if (option === false) return undefined;
  const { store: given, ...changed } = option ?? {};
  const limits = { ...defaultLimits, ...changed };
  for (const [name, limit] of Object.entries(limits)) {
    if (!(Number.isInteger(limit.max) && limit.max > 0 && Number.isFinite(limit.windowMs) && limit.windowMs >= 1_000)) {
      throw new TypeError(`createCheckoutHandler: limits.${name} needs a whole max above 0 and a windowMs of at least 1,000.`);
    }
  }
  return { limits, store: given ?? store() };
}

type LimitKeys = Partial<Record<LimitName, string | undefined>>;

/**
 * Counts each group's names against their keys (a missing key is not counted), one store call per group, and
 * refuses with 429 at the first group over a limit: later groups are then not counted at all.
 */
export async function enforce(plan: LimitsPlan | undefined, groups: LimitKeys | LimitKeys[], count: (call: () => Promise<number>) => Promise<number>): Promise<void> {
  if (!plan) return;
  for (const keys of Array.isArray(groups) ? groups : [groups]) {
    const hits: LimitHit[] = [];
    for (const [name, key] of Object.entries(keys) as [LimitName, string | undefined][]) {
      if (key) hits.push({ name, key, limit: plan.limits[name] });
    }
    if (hits.length === 0) continue;
    const waitMs = await count(() => plan.store.hit(hits));
    if (waitMs > 0) throw limitReached(waitMs).withCause(new LimitRefusal(hits.find((hit) => hit.refused)?.name ?? hits.map((hit) => hit.name).join('|')));
  }
}

/**
 * The refusal of a limit: 429 `LIMIT_REACHED` with `Retry-After` in whole seconds (at least 1), its description
 * saying what was counted (`describe` gets those seconds; by default "Too many attempts").
 */
export function limitReached(waitMs: number, describe: (seconds: number) => string = (seconds) => `Too many attempts; try again in ${seconds} s.`): CheckoutHttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return CheckoutHttpError.of('LIMIT_REACHED', { description: describe(seconds) }, { 'Retry-After': String(seconds) });
}

/** A phone as the element sends it (10 digits from 3), whatever spacing or +57 an attacker adds to dodge the count. */
export const phoneForLimits = (phone: string | undefined) => {
  const digits = phone?.replace(/\D+/g, '') ?? '';
  return digits.length === 12 && digits.startsWith('57') ? digits.slice(2) : digits || undefined;
};

/** A document number without its dots, spaces and dashes, upper-cased; the type is left out, so it cannot dodge. */
export const documentForLimits = (id: string | undefined) => id?.replace(/[^0-9a-z]+/gi, '').toUpperCase() || undefined;

/** Phones and documents are counted under a keyed hash (its first 12 bytes), so the store never holds a buyer's number. */
export async function pseudonym(secret: string, kind: string, value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  return (await sha256Hex(`${secret}\u0000${kind}\u0000${value}`)).slice(0, 24);
}
