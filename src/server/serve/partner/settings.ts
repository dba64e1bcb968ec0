/**
 * Partner mode's settings: with `PAY_CHECKOUT_PARTNER_KEY` and `PAY_CHECKOUT_PARTNER_SECRET` (and no merchant key),
 * `serve` runs for many shops. Checked like serve's own (serve/settings.ts): a missing or malformed one is one
 * sentence naming it, and the command exits 2. No secret's value is ever in the sentence.
 */
import { parseCommonSettings, parseSweepSettings, serveCommandSettings, SettingError, wrong, type CommonSettings, type RawSettings, type ServeCommandSettings } from '../settings.js';
import { parseMasterKeys, type MasterKey } from './keyring.js';
import { defaultShopRate } from './shop-share.js';

export interface PartnerSettings {
  apiKey: string;
  apiSecret: string;
  /** The partner account's webhook signing secret(s): a list while rotating. */
  webhookSecrets: readonly string[];
  /** `PAY_CHECKOUT_KEYS`: the first wraps, every one unwraps. */
  keys: readonly MasterKey[];
  /** `PAY_CHECKOUT_ALLOW_LOCAL_SHOPS=1`: http and local notify URLs (development and tests only). */
  allowLocalShops: boolean;
  /** `PAY_CHECKOUT_NOTIFY_RETRY_MS`: the first retry of a shop's notice, as for one shop. */
  notifyRetryMs: number | undefined;
  /** `PAY_CHECKOUT_PENDING_SHOPS`: at most this many shops registered and never connected at once. */
  pendingShops: number;
  /** `PAY_CHECKOUT_SHOP_RATE`, `PAY_CHECKOUT_SHOP_BURST`: each shop's buyer requests a second on an instance, and at once (shop-share.ts). */
  shopRate: { perSecond: number; burst: number };
}

/** Shops registered and not connected, at most, by default: a flood of registrations fills no store. */
export const defaultPendingShops = 10_000;

export type PartnerServeSettings = Omit<CommonSettings, 'store'> & {
  partner: PartnerSettings;
  /** The sweep of every shop's open orders, as one shop's serve reads its settings; false when turned off. */
  sweep: ServeCommandSettings['sweep'];
  store: { kind: 'redis'; url: string } | { kind: 'postgres'; url: string };
};

/** Partner mode: the partner pair named and no merchant key. */
export const isPartnerMode = (raw: RawSettings) => raw.partnerKey !== undefined || raw.partnerSecret !== undefined;

const required = (raw: RawSettings, name: 'partnerKey' | 'partnerSecret' | 'partnerWebhookSecret' | 'keys'): string => {
  const value = raw[name];
  if (value === undefined) throw new SettingError(`${serveCommandSettings[name].env} is not set: partner mode needs it; it expects ${serveCommandSettings[name].expects}.`);
  return value;
};

/** The settings of partner mode checked, or a `SettingError` naming the first one wrong. */
export function parsePartnerServeSettings(raw: RawSettings): PartnerServeSettings {
  if (raw.merchantKey !== undefined) throw new SettingError(`${serveCommandSettings.merchantKey.env} and ${serveCommandSettings.partnerKey.env} are both set: give the merchant key for one shop, or the partner pair for many.`);
  const apiKey = required(raw, 'partnerKey');
  const apiSecret = required(raw, 'partnerSecret');
  const webhookSecrets = required(raw, 'partnerWebhookSecret').split(',').map((s) => s.trim()).filter(Boolean);
  if (webhookSecrets.length === 0) throw new SettingError(`${serveCommandSettings.partnerWebhookSecret.env} is malformed: it expects ${serveCommandSettings.partnerWebhookSecret.expects}.`);
  const keys = parseMasterKeys(required(raw, 'keys'));
  if (typeof keys === 'string') throw new SettingError(`${serveCommandSettings.keys.env} is malformed (${keys}): it expects ${serveCommandSettings.keys.expects}.`);
  const notifyRetryMs = raw.notifyRetryMs === undefined ? undefined : Number(raw.notifyRetryMs);
  if (notifyRetryMs !== undefined && !(/^\d+$/.test(raw.notifyRetryMs ?? '') && notifyRetryMs >= 1)) throw wrong('notifyRetryMs', raw.notifyRetryMs);
  for (const unused of ['linksUrl', 'linksFile', 'notifyUrl', 'appSecret'] as const) {
    if (raw[unused] !== undefined) throw new SettingError(`${serveCommandSettings[unused].env} is set, but partner mode does not read it: each shop registers its own links and notify URL (POST /v1/stores); unset it.`);
  }
  const pendingShops = raw.pendingShops === undefined ? defaultPendingShops : Number(raw.pendingShops);
  if (raw.pendingShops !== undefined && !(/^\d{1,9}$/.test(raw.pendingShops) && pendingShops >= 1)) throw wrong('pendingShops', raw.pendingShops);
  const wholeFromOne = (name: 'shopRate' | 'shopBurst', fallback: number) => {
    const value = raw[name];
    if (value === undefined) return fallback;
    if (!(/^\d{1,9}$/.test(value) && Number(value) >= 1)) throw wrong(name, value);
    return Number(value);
  };
  const shopRate = { perSecond: wholeFromOne('shopRate', defaultShopRate.perSecond), burst: wholeFromOne('shopBurst', defaultShopRate.burst) };
  if (raw.allowLocalShops !== undefined && raw.allowLocalShops !== '1' && raw.allowLocalShops !== '0') throw wrong('allowLocalShops', raw.allowLocalShops);
  const common = parseCommonSettings(raw);
  const { store } = common;
  if (store.kind === 'memory') throw new SettingError(`${serveCommandSettings.redisUrl.env} is not set: partner mode keeps its shops in Redis (${serveCommandSettings.redisUrl.expects}) or PostgreSQL (${serveCommandSettings.databaseUrl.env}, ${serveCommandSettings.databaseUrl.expects}).`);
  const sweep = parseSweepSettings(raw);
  return { ...common, store, sweep, partner: { apiKey, apiSecret, webhookSecrets, keys, allowLocalShops: raw.allowLocalShops === '1', notifyRetryMs, pendingShops, shopRate } };
}
