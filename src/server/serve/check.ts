/**
 * `pay-checkout serve --check`: before a deploy, whether this configuration can work, one line per item. The settings
 * (already checked when this runs), the service (the doctor's read-only probe: gateway discovery and document types,
 * never an order), the shop's links (one request for the hash `pay-checkout-check`, where a 404 is as good an answer as a
 * record), and the notify URL (a signed test notice). Exit 0 when every item passed, 1 when any failed.
 */
import { resolveBaseUrl } from '../../client/send.js';
import type { ServerEvent } from '../events.js';
import { readFileSync } from 'node:fs';
import { shown } from '../http/shown-values.js';
import { appLinks } from './app-links.js';
import { linkInfoOf } from './link-record.js';
import { forwardedMark, trustProxyAdvice } from './untrusted-proxy.js';
import type { ServeCommandSettings } from './settings.js';

/** The hash `--check` asks the links URL for: an app answers 404 for it (or a record, if it made one). */
export const checkHash = 'pay-checkout-check';

export interface CheckItem {
  name: 'settings' | 'service' | 'links' | 'notify' | 'proxy' | 'keys' | 'webhook';
  ok: boolean;
  /** Passed, but something to fix: printed with `!`. */
  warn?: boolean;
  sentence: string;
}

/**
 * The doctor's read-only probe (`runDoctor` of src/doctor/, which sits above the server and is handed in by the CLI):
 * whether the service answers this merchant key, and which gateways the handler could drive.
 */
export type ServiceProbe = (options: { baseUrl: string; merchantKey: string; fetch?: typeof globalThis.fetch }) => Promise<{
  ready: boolean;
  mistake?: string | undefined;
  checks: readonly { ok: boolean; sentence: string }[];
  drivable: readonly string[];
}>;

export interface CheckOptions {
  probe: ServiceProbe;
  fetch?: typeof globalThis.fetch;
  /** Sends the signed test notice (the relay's); resolves with a sentence, rejects with what failed. */
  sendTestEvent?: () => Promise<string>;
}

export async function checkServeCommand(settings: ServeCommandSettings, options: CheckOptions): Promise<CheckItem[]> {
  const items: CheckItem[] = [{ name: 'settings', ok: true, sentence: `every setting is well formed (store: ${settings.store.kind}, links: ${settings.links.kind === 'url' ? 'from your app' : 'from a file'})` }];
  const baseUrl = shown(resolveBaseUrl(settings.service));
  const [service, links, notify, proxy] = await Promise.all([checkService(settings, baseUrl, options), checkLinks(settings, options), checkNotify(settings, options), checkProxy(settings, options)]);
  return [...items, service, links, ...(notify ? [notify] : []), ...(proxy ? [proxy] : [])];
}

/** Through the public URL, whether the running server sees requests come through a proxy it does not trust. */
async function checkProxy(settings: ServeCommandSettings, options: CheckOptions): Promise<CheckItem | undefined> {
  if (settings.publicUrl === undefined || settings.trustProxy > 0) return undefined;
  const health = `${settings.publicUrl}/v1/health`;
  const answer = await (options.fetch ?? fetch)(health, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined);
  await answer?.body?.cancel().catch(() => {});
  if (answer?.headers.get(forwardedMark) !== 'untrusted') return undefined;
  return { name: 'proxy', ok: true, warn: true, sentence: `${health}: ${trustProxyAdvice}` };
}

async function checkService(settings: ServeCommandSettings, baseUrl: string, options: CheckOptions): Promise<CheckItem> {
  const report = await options.probe({ baseUrl: resolveBaseUrl(settings.service), merchantKey: settings.merchantKey, ...(options.fetch ? { fetch: options.fetch } : {}) });
  if (report.ready) return { name: 'service', ok: true, sentence: `${baseUrl} answers with this merchant key; it can drive ${report.drivable.join(', ') || 'no gateway'}` };
  const failed = report.mistake ?? report.checks.find((check) => !check.ok)?.sentence ?? 'no gateway the server can drive is enabled for this store';
  return { name: 'service', ok: false, sentence: `${baseUrl}: ${failed}` };
}

async function checkLinks(settings: ServeCommandSettings, options: CheckOptions): Promise<CheckItem> {
  const events: ServerEvent[] = [];
  const emit = (event: ServerEvent) => void events.push(event);
  const request = new Request('http://check.internal/');
  if (settings.links.kind === 'file') {
    // Every record, not one: a file holds all the links there are.
    const { path } = settings.links;
    let records: Record<string, unknown>;
    try {
      records = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      return { name: 'links', ok: false, sentence: `${path}: ${error instanceof SyntaxError ? 'not JSON' : (error as NodeJS.ErrnoException).code ?? 'unreadable'}` };
    }
    for (const [hash, record] of Object.entries(records)) {
      const checked = linkInfoOf(record);
      if (!checked.ok) return { name: 'links', ok: false, sentence: `${path}: the record for ${hash} breaks the contract: ${checked.problem}` };
    }
    return { name: 'links', ok: true, sentence: `${path} holds ${Object.keys(records).length} valid link record(s)` };
  }
  const resolve = appLinks({ url: settings.links.url, secrets: settings.links.secrets, emit, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const asked = shown(settings.links.url.replace('{hash}', checkHash));
  try {
    const found = await resolve(checkHash, request);
    return { name: 'links', ok: true, sentence: `${asked} answered ${found ? 'a valid link record' : '404 (no such link), as expected'}` };
  } catch {
    return { name: 'links', ok: false, sentence: `${asked}: ${events[0]?.message.replace(/^the links URL /, '').replace(/, for link [^ ]+$/, '') ?? 'failed'}` };
  }
}

async function checkNotify(settings: ServeCommandSettings, options: CheckOptions): Promise<CheckItem | undefined> {
  if (!settings.notifyUrl) return { name: 'notify', ok: true, sentence: 'no PAY_CHECKOUT_NOTIFY_URL: order outcomes are not relayed to your app' };
  if (!options.sendTestEvent) return undefined;
  try {
    return { name: 'notify', ok: true, sentence: `${shown(settings.notifyUrl)}: ${shown(await options.sendTestEvent())}` };
  } catch (error) {
    return { name: 'notify', ok: false, sentence: `${shown(settings.notifyUrl)}: ${shown(error instanceof Error ? error.message : String(error))}` };
  }
}

/** One line per item. */
export const formatCheck = (items: readonly CheckItem[]): string => items.map((item) => `${item.warn ? '!' : item.ok ? '✓' : '✗'} ${item.name}: ${item.sentence}`).join('\n');
