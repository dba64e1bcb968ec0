/**
 * `pay-checkout serve`'s settings: environment variables only (an operator's systemd unit, container or PaaS sets
 * them), each also a flag for a quick try. The names are fixed: operators' scripts use them. Everything is checked
 * before the server listens; a missing or malformed setting is one sentence naming the variable and what it expects
 * (`SettingError`), which the command prints and exits 2 on.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Environment } from '../../client/index.js';
import { shown } from '../http/shown-values.js';

/** A setting that is missing or malformed: its message is the one line the command prints. */
export class SettingError extends Error {
  override readonly name = 'SettingError';
}

/** Each setting: its variable, its flag, and what it expects (said when it is wrong). */
export const serveCommandSettings = {
  merchantKey: { env: 'PAY_CHECKOUT_MERCHANT_KEY', flag: 'merchant-key', expects: "the store's merchant key" },
  baseUrl: { env: 'PAY_CHECKOUT_BASE_URL', flag: 'base-url', expects: "the service's http(s) base URL ending in /v1" },
  environment: { env: 'PAY_CHECKOUT_ENVIRONMENT', flag: 'environment', expects: 'production or development' },
  linksUrl: { env: 'PAY_CHECKOUT_LINKS_URL', flag: 'links-url', expects: 'an http(s) URL of your app with {hash} in it' },
  linksFile: { env: 'PAY_CHECKOUT_LINKS_FILE', flag: 'links-file', expects: 'a JSON file of link records keyed by hash' },
  appSecret: { env: 'PAY_CHECKOUT_APP_SECRET', flag: 'app-secret', expects: 'a secret shared with your app, at least 16 characters (a comma list while rotating)' },
  notifyUrl: { env: 'PAY_CHECKOUT_NOTIFY_URL', flag: 'notify-url', expects: 'an http(s) URL of your app that takes the order notices' },
  notifyRetryMs: { env: 'PAY_CHECKOUT_NOTIFY_RETRY_MS', flag: 'notify-retry-ms', expects: 'the first retry delay in milliseconds, a whole number from 1' },
  sweepFirstMs: { env: 'PAY_CHECKOUT_SWEEP_FIRST_MS', flag: 'sweep-first-ms', expects: "how long after an order's creation it is first read back, in milliseconds, a whole number from 1 (each next gap doubles)" },
  sweepReads: { env: 'PAY_CHECKOUT_SWEEP_READS', flag: 'sweep-reads', expects: 'at most how many times one order is read back over its life, a whole number from 2; 0 turns the sweep off' },
  sweepRate: { env: 'PAY_CHECKOUT_SWEEP_RATE', flag: 'sweep-rate', expects: 'at most how many orders each instance reads back per second, a whole number from 1' },
  webhookSecret: { env: 'PAY_CHECKOUT_WEBHOOK_SECRET', flag: 'webhook-secret', expects: "the service's webhook signing secret (a comma list while rotating)" },
  redisUrl: { env: 'PAY_CHECKOUT_REDIS_URL', flag: 'redis-url', expects: 'a redis:// or rediss:// URL' },
  databaseUrl: { env: 'PAY_CHECKOUT_DATABASE_URL', flag: 'database-url', expects: 'a postgres:// or postgresql:// URL' },
  secret: { env: 'PAY_CHECKOUT_SECRET', flag: 'secret', expects: 'a secret of at least 16 characters that signs order tokens (a comma list while rotating)' },
  allowedOrigins: { env: 'PAY_CHECKOUT_ALLOWED_ORIGINS', flag: 'allowed-origins', expects: "a comma list of your shop's origins, like https://shop.example, or *" },
  publicUrl: { env: 'PAY_CHECKOUT_PUBLIC_URL', flag: 'public-url', expects: 'the http(s) origin buyers reach this server at, like https://pay.shop.example, with no path or query' },
  frameAncestors: { env: 'PAY_CHECKOUT_FRAME_ANCESTORS', flag: 'frame-ancestors', expects: "a comma list of your own origins allowed to frame the hosted page, like https://shop.example, or 'self'" },
  trustProxy: { env: 'PAY_CHECKOUT_TRUST_PROXY', flag: 'trust-proxy', expects: 'how many proxies in front of it append to X-Forwarded-For, a whole number from 0' },
  partnerKey: { env: 'PAY_CHECKOUT_PARTNER_KEY', flag: 'partner-key', expects: "the partner's X-API-Key (partner mode: many shops, no PAY_CHECKOUT_MERCHANT_KEY)" },
  partnerSecret: { env: 'PAY_CHECKOUT_PARTNER_SECRET', flag: 'partner-secret', expects: "the partner's X-API-Secret" },
  partnerWebhookSecret: { env: 'PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET', flag: 'partner-webhook-secret', expects: "the partner account's webhook signing secret (a comma list while rotating)" },
  keys: { env: 'PAY_CHECKOUT_KEYS', flag: 'keys', expects: 'a comma list of random 32-byte keys in base64 (openssl rand -base64 32); the first encrypts, every one decrypts' },
  pendingShops: { env: 'PAY_CHECKOUT_PENDING_SHOPS', flag: 'pending-shops', expects: 'at most how many shops may be registered and not yet connected at once, a whole number from 1' },
  shopRate: { env: 'PAY_CHECKOUT_SHOP_RATE', flag: 'shop-rate', expects: "at most how many of one shop's buyer requests each instance takes a second, a whole number from 1" },
  shopBurst: { env: 'PAY_CHECKOUT_SHOP_BURST', flag: 'shop-burst', expects: "at most how many of one shop's buyer requests each instance takes at once after a quiet spell, a whole number from 1" },
  allowLocalShops: { env: 'PAY_CHECKOUT_ALLOW_LOCAL_SHOPS', flag: 'allow-local-shops', expects: '1 to allow http and local notify URLs (development and tests only), or 0' },
  port: { env: 'PORT', flag: 'port', expects: 'a port number from 0 to 65535' },
  host: { env: 'HOST', flag: 'host', expects: 'the interface to listen on, like 0.0.0.0 or 127.0.0.1' },
} as const;

export type SettingName = keyof typeof serveCommandSettings;

/** The raw values as given: flags win over the environment. */
export type RawSettings = Partial<Record<SettingName, string | undefined>>;

export type LinksSource = { kind: 'url'; url: string; secrets: readonly string[] } | { kind: 'file'; path: string };

export interface ServeCommandSettings {
  merchantKey: string;
  service: { baseUrl: string } | { environment: Environment };
  links: LinksSource;
  /** Secrets shared with the shop's app: links requests and notices are signed with them. */
  appSecrets: readonly string[];
  notifyUrl: string | undefined;
  notifyRetryMs: number | undefined;
  /** The sweep's timings (servers/serve.md, "Where outcomes come from"); false when `PAY_CHECKOUT_SWEEP_READS=0`. */
  sweep: { firstReadMs?: number; maxReads?: number; readsPerSecond?: number } | false;
  webhookSecret: readonly string[] | undefined;
  store: { kind: 'memory' } | { kind: 'redis'; url: string } | { kind: 'postgres'; url: string };
  secret: readonly string[] | undefined;
  allowedOrigins: '*' | readonly string[];
  /** The origin buyers reach this server at (behind a proxy, the proxy's): the hosted page's `og:url`, and HSTS over https. */
  publicUrl: string | undefined;
  /** Origins allowed to frame the hosted page; none by default (`frame-ancestors 'none'`, `X-Frame-Options: DENY`). */
  frameAncestors: readonly string[];
  trustProxy: number;
  port: number;
  host: string | undefined;
}

/** The raw settings from `env` with the flags' values over them. */
export function rawSettings(env: Record<string, string | undefined>, flags: Partial<Record<string, string | undefined>> = {}): RawSettings {
  const raw: RawSettings = {};
  for (const [name, setting] of Object.entries(serveCommandSettings) as [SettingName, (typeof serveCommandSettings)[SettingName]][]) {
    const value = flags[setting.flag] ?? env[setting.env];
    // An empty variable (`PAY_CHECKOUT_NOTIFY_URL=` in a unit file) means unset, as shells and dotenv files mean it.
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  return raw;
}

export const wrong = (name: SettingName, got?: string) => {
  const { env, expects } = serveCommandSettings[name];
  // Shown as an operator may paste it in a ticket: no user info, query or password (shown-values.ts).
  return new SettingError(got === undefined ? `${env} is not set: it expects ${expects}.` : `${env} is malformed: it expects ${expects}, got ${JSON.stringify(shown(got))}.`);
};

export const httpUrl = (name: SettingName, value: string): string => {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw wrong(name, value);
  return value;
};

export const list = (value: string) => value.split(',').map((item) => item.trim()).filter(Boolean);

export const secretList = (name: SettingName, value: string): readonly string[] => {
  const secrets = list(value);
  // The value itself is never printed: a short secret is still a secret.
  if (secrets.length === 0 || secrets.some((s) => s.length < 16)) throw new SettingError(`${serveCommandSettings[name].env} is malformed: it expects ${serveCommandSettings[name].expects}.`);
  return secrets;
};

/** A list given but empty (`' , '`): a mistake, not "none" (leave the variable unset for none). */
const nonEmpty = (name: SettingName, items: readonly string[]): readonly string[] => {
  if (items.length === 0) throw new SettingError(`${serveCommandSettings[name].env} is malformed: it expects ${serveCommandSettings[name].expects}, and lists none.`);
  return items;
};

const wholeNumber = (name: SettingName, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw wrong(name, value);
  return n;
};

function origins(value: string): '*' | readonly string[] {
  if (value === '*') return '*';
  return list(value).map((origin) => {
    // An origin exactly as a browser sends it in `Origin`: scheme, host and port, no path and no trailing slash.
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) throw wrong('allowedOrigins', origin);
    return origin;
  });
}

/** An http(s) origin, a trailing slash allowed: no credentials, path, query or fragment (a page's URL is drawn from it). */
function publicUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash || value.includes('?') || value.includes('#')) throw wrong('publicUrl', value);
  return url.origin;
}

/** Origins exactly as a browser names a framing page, or `'self'`: a wildcard or scheme would let any site frame a payment page. */
function frameAncestors(value: string): readonly string[] {
  return list(value).map((entry) => {
    if (entry === "'self'" || entry === 'self') return "'self'";
    if (!URL.canParse(entry) || !/^https?:$/.test(new URL(entry).protocol) || new URL(entry).origin !== entry) throw wrong('frameAncestors', entry);
    return entry;
  });
}

const both = (a: SettingName, b: SettingName) => new SettingError(`${serveCommandSettings[a].env} and ${serveCommandSettings[b].env} are both set: give one of them.`);

/** Checks the links file at start: it must be there and hold a JSON object (its records are checked when asked for). */
function linksFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingError(`${serveCommandSettings.linksFile.env} cannot be read: it expects ${serveCommandSettings.linksFile.expects}, got ${JSON.stringify(shown(path))} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SettingError(`${serveCommandSettings.linksFile.env} is malformed: ${JSON.stringify(shown(path))} is not a JSON object of link records keyed by hash.`);
  }
  return path;
}

/** What every mode of serve reads: the service, the store, the origins and the listening. */
export type CommonSettings = Pick<ServeCommandSettings, 'service' | 'webhookSecret' | 'store' | 'secret' | 'allowedOrigins' | 'publicUrl' | 'frameAncestors' | 'trustProxy' | 'port' | 'host'>;

/** The settings checked, or a `SettingError` naming the first one wrong. */
export function parseServeCommandSettings(raw: RawSettings): ServeCommandSettings {
  const merchantKey = raw.merchantKey ?? (() => { throw wrong('merchantKey'); })();
  const common = parseCommonSettings(raw);
  const appSecrets = raw.appSecret === undefined ? [] : secretList('appSecret', raw.appSecret);
  if (raw.linksUrl !== undefined && raw.linksFile !== undefined) throw both('linksUrl', 'linksFile');
  let links: LinksSource;
  if (raw.linksUrl !== undefined) {
    const url = httpUrl('linksUrl', raw.linksUrl);
    if (!url.includes('{hash}')) throw wrong('linksUrl', url);
    if (appSecrets.length === 0) throw new SettingError(`${serveCommandSettings.appSecret.env} is not set: ${serveCommandSettings.linksUrl.env} needs it, as the links requests are signed; it expects ${serveCommandSettings.appSecret.expects}.`);
    links = { kind: 'url', url, secrets: appSecrets };
  } else if (raw.linksFile !== undefined) links = { kind: 'file', path: linksFile(raw.linksFile) };
  else throw new SettingError(`${serveCommandSettings.linksUrl.env} is not set: it expects ${serveCommandSettings.linksUrl.expects} (or ${serveCommandSettings.linksFile.env}, ${serveCommandSettings.linksFile.expects}).`);
  const notifyUrl = raw.notifyUrl === undefined ? undefined : httpUrl('notifyUrl', raw.notifyUrl);
  if (notifyUrl !== undefined && appSecrets.length === 0) throw new SettingError(`${serveCommandSettings.appSecret.env} is not set: ${serveCommandSettings.notifyUrl.env} needs it, as the notices are signed; it expects ${serveCommandSettings.appSecret.expects}.`);
  const notifyRetryMs = raw.notifyRetryMs === undefined ? undefined : wholeNumber('notifyRetryMs', raw.notifyRetryMs, 1);
  return { merchantKey, links, appSecrets, notifyUrl, notifyRetryMs, sweep: parseSweepSettings(raw), ...common };
}

/** The sweep's settings (one shop's serve and partner mode alike), checked. */
export function parseSweepSettings(raw: RawSettings): ServeCommandSettings['sweep'] {
  const sweepReads = raw.sweepReads === undefined ? undefined : wholeNumber('sweepReads', raw.sweepReads, 0, 1_000);
  if (sweepReads === 1) throw wrong('sweepReads', raw.sweepReads);
  return sweepReads === 0
    ? false
    : {
        ...(raw.sweepFirstMs !== undefined ? { firstReadMs: wholeNumber('sweepFirstMs', raw.sweepFirstMs, 1) } : {}),
        ...(sweepReads !== undefined ? { maxReads: sweepReads } : {}),
        ...(raw.sweepRate !== undefined ? { readsPerSecond: wholeNumber('sweepRate', raw.sweepRate, 1, 10_000) } : {}),
      };
}

/** The settings every mode shares, checked. */
export function parseCommonSettings(raw: RawSettings): CommonSettings {
  if (raw.baseUrl !== undefined && raw.environment !== undefined) throw both('baseUrl', 'environment');
  let service: ServeCommandSettings['service'] = { environment: 'production' };
  if (raw.baseUrl !== undefined) {
    const url = httpUrl('baseUrl', raw.baseUrl);
    if (!/\/v1\/?$/.test(new URL(url).pathname)) throw wrong('baseUrl', url);
    service = { baseUrl: url.replace(/\/+$/, '') };
  } else if (raw.environment !== undefined) {
    if (raw.environment !== 'production' && raw.environment !== 'development') throw wrong('environment', raw.environment);
    service = { environment: raw.environment };
  }
  const store = storeSetting(raw);
  return {
    service,
    webhookSecret: raw.webhookSecret === undefined ? undefined : nonEmpty('webhookSecret', list(raw.webhookSecret)),
    store,
    secret: raw.secret === undefined ? undefined : secretList('secret', raw.secret),
    allowedOrigins: raw.allowedOrigins === undefined ? [] : origins(raw.allowedOrigins),
    publicUrl: raw.publicUrl === undefined ? undefined : publicUrl(raw.publicUrl),
    frameAncestors: raw.frameAncestors === undefined ? [] : frameAncestors(raw.frameAncestors),
    trustProxy: raw.trustProxy === undefined ? 0 : wholeNumber('trustProxy', raw.trustProxy, 0, 16),
    port: raw.port === undefined ? 3000 : wholeNumber('port', raw.port, 0, 65535),
    host: raw.host === undefined ? undefined : hostSetting(raw.host),
  };
}

/** An interface to listen on: an IPv4 or IPv6 address (brackets allowed) or a host name. */
function hostSetting(value: string): string {
  const bare = value.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0 && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(bare)) throw wrong('host', value);
  return bare;
}

/** The shared store the settings name, or memory. */
function storeSetting(raw: RawSettings): ServeCommandSettings['store'] {
  if (raw.redisUrl !== undefined && raw.databaseUrl !== undefined) throw both('redisUrl', 'databaseUrl');
  if (raw.redisUrl !== undefined) {
    if (!URL.canParse(raw.redisUrl) || !/^rediss?:$/.test(new URL(raw.redisUrl).protocol)) throw wrong('redisUrl', raw.redisUrl);
    return { kind: 'redis', url: raw.redisUrl };
  }
  if (raw.databaseUrl !== undefined) {
    if (!URL.canParse(raw.databaseUrl) || !/^postgres(ql)?:$/.test(new URL(raw.databaseUrl).protocol)) throw wrong('databaseUrl', raw.databaseUrl);
    return { kind: 'postgres', url: raw.databaseUrl };
  }
  return { kind: 'memory' };
}

/**
 * What `pay-checkout deliveries` needs: the shared store the outbox lives in (a memory outbox is inside the serving
 * process, out of reach), and the notify URL and app secrets a redelivery is sent and signed with.
 */
export function parseDeliverySettings(raw: RawSettings): Pick<ServeCommandSettings, 'notifyUrl' | 'appSecrets' | 'store'> & { notifyUrl: string } {
  const store = storeSetting(raw);
  if (store.kind === 'memory') throw new SettingError(`${serveCommandSettings.redisUrl.env} is not set: the outbox is read from the shared store (${serveCommandSettings.redisUrl.expects}, or ${serveCommandSettings.databaseUrl.env}); with neither, it lives inside the serve process.`);
  const notifyUrl = raw.notifyUrl === undefined ? (() => { throw wrong('notifyUrl'); })() : httpUrl('notifyUrl', raw.notifyUrl);
  const appSecrets = raw.appSecret === undefined ? (() => { throw wrong('appSecret'); })() : secretList('appSecret', raw.appSecret);
  return { notifyUrl, appSecrets, store };
}
