/**
 * `pay-checkout serve --check` in partner mode: the settings; the keys against the shops' store; the partner pair at
 * the service; the partner webhook (signed, subscribed to what serve needs, and the service's test delivery taken by
 * the running serve, which verifies it with `PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET`); and, with `--store STORE_ID`, that
 * shop's notify URL (a signed `test` notice, which a shop answers 2xx as any type it does not know).
 */
import { randomUUID } from 'node:crypto';
import { PartnerClient } from '../../../client/index.js';
import { payCheckoutSignatureHeader, signPayCheckout } from '../../../webhooks/pay-checkout-signature.js';
import type { CheckItem } from '../check.js';
import { SettingError, serveCommandSettings } from '../settings.js';
import { openRegistry } from './index.js';
import { postChecked } from './public-address.js';
import type { Registry } from './registry.js';
import type { PartnerServeSettings } from './settings.js';

export interface PartnerCheckOptions {
  /** `--store STORE_ID`: the shop whose notify URL gets a signed test notice. */
  store?: string;
  fetch?: typeof globalThis.fetch;
}

/** The subscribable partner deliveries serve acts on: without them a shop never connects, or never disconnects (`order_payment` is the service operator's to turn on, and not listed). */
const neededEvents = ['store_onboarded', 'integration_uninstalled'];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function checkPartner(settings: PartnerServeSettings, options: PartnerCheckOptions = {}): Promise<CheckItem[]> {
  const items: CheckItem[] = [{ name: 'settings', ok: true, sentence: `every setting is well formed (partner mode, store: ${settings.store.kind}, ${settings.partner.keys.length} key(s))` }];
  let registry: Registry | undefined;
  try {
    registry = await openRegistry(settings);
    const { shops, keyIds } = await registry.selfTest();
    items.push({ name: 'keys', ok: true, sentence: `${serveCommandSettings.keys.env} opens the store (${shops} shop(s), wrapped by ${keyIds.length || 'no'} key(s))` });
  } catch (error) {
    items.push({ name: 'keys', ok: false, sentence: error instanceof SettingError ? error.message : `the shops' store did not answer: ${messageOf(error)}` });
  }
  const partner = new PartnerClient({ apiKey: settings.partner.apiKey, apiSecret: settings.partner.apiSecret, ...settings.service, ...(options.fetch ? { fetch: options.fetch } : {}) });
  let pairAccepted = false;
  try {
    await partner.onboardingLink();
    pairAccepted = true;
    items.push({ name: 'service', ok: true, sentence: 'the service accepts the partner pair (GET /partners/onboarding-link)' });
  } catch (error) {
    items.push({ name: 'service', ok: false, sentence: `the service did not accept the partner pair (${serveCommandSettings.partnerKey.env}, ${serveCommandSettings.partnerSecret.env}): ${messageOf(error)}` });
  }
  if (pairAccepted) items.push(await checkWebhook(partner));
  if (options.store !== undefined) items.push(await checkNotify(registry, settings, options.store));
  else items.push({ name: 'notify', ok: true, warn: true, sentence: "no shop's notify URL tried: give --store STORE_ID to send that shop a signed test notice" });
  await registry?.close().catch(() => {});
  return items;
}

/** The partner webhook as the service has it, and its test delivery as the running serve answered it. */
async function checkWebhook(partner: PartnerClient): Promise<CheckItem> {
  const secret = serveCommandSettings.partnerWebhookSecret.env;
  try {
    const config = await partner.getWebhook();
    if (!config.signing_enabled) return { name: 'webhook', ok: false, sentence: `the partner webhook (${config.url ?? 'no URL'}) is not signed, so serve refuses every delivery: turn signing on and set ${secret} to its secret` };
    const missing = neededEvents.filter((event) => !config.events.includes(event));
    const tested = await partner.testWebhook();
    if (!tested.url) return { name: 'webhook', ok: false, sentence: "the partner account has no webhook URL: point it at serve's /v1/webhooks (PATCH /partners/webhook)" };
    if (tested.response_status === null || !tested.test_sent) return { name: 'webhook', ok: false, sentence: `the service's test delivery to ${tested.url} was not answered (${tested.error ?? 'no answer'}): start serve, and point the partner webhook at its /v1/webhooks` };
    if (tested.response_status === 401) return { name: 'webhook', ok: false, sentence: `${tested.url} refused the service's signed test delivery (401): ${secret} is not the partner account's webhook secret (or that URL is not this serve)` };
    if (tested.response_status < 200 || tested.response_status >= 300) return { name: 'webhook', ok: false, sentence: `${tested.url} answered the service's test delivery ${tested.response_status}: point the partner webhook at serve's /v1/webhooks` };
    if (missing.length > 0) return { name: 'webhook', ok: true, warn: true, sentence: `${tested.url} took the service's signed test delivery (${tested.response_status}), but the webhook is not subscribed to ${missing.join(', ')}: add them (PATCH /partners/webhook)` };
    return { name: 'webhook', ok: true, sentence: `${tested.url} took the service's signed test delivery (${tested.response_status}): ${secret} verifies it` };
  } catch (error) {
    return { name: 'webhook', ok: false, sentence: `the partner webhook could not be read or tested: ${messageOf(error)}` };
  }
}

/** One shop's notify URL: a signed `test` notice, through the same checks (https, a public address) as every notice. */
async function checkNotify(registry: Registry | undefined, settings: PartnerServeSettings, storeId: string): Promise<CheckItem> {
  if (!registry) return { name: 'notify', ok: false, sentence: `shop ${storeId}: the shops' store could not be read` };
  try {
    const record = await registry.get(storeId);
    if (!record) return { name: 'notify', ok: false, sentence: `no shop ${storeId} is registered here (\`pay-checkout stores\` lists them)` };
    const body = JSON.stringify({ id: `evt_check_${randomUUID()}`, type: 'test', created_at: new Date().toISOString(), data: { store_id: record.store_id } });
    const sent = await postChecked(
      record.notify_url,
      { 'content-type': 'application/json', 'user-agent': 'pay-checkout-relay', [payCheckoutSignatureHeader]: signPayCheckout([registry.secrets(record).notifySecret], body, Date.now() / 1000) },
      body,
      { allowLocal: settings.partner.allowLocalShops, timeoutMs: 10_000 },
    );
    const where = new URL(record.notify_url).origin;
    if (sent.status !== undefined && sent.status >= 200 && sent.status < 300) return { name: 'notify', ok: true, sentence: `shop ${storeId} (${where}) took a signed test notice (${sent.status})` };
    return { name: 'notify', ok: false, sentence: `shop ${storeId} (${where}) did not take a signed test notice: ${sent.status !== undefined ? `answered ${sent.status}` : (sent.error ?? 'failed')}` };
  } catch (error) {
    return { name: 'notify', ok: false, sentence: `shop ${storeId}: ${messageOf(error)}` };
  }
}
