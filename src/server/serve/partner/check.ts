/** `pay-checkout serve --check` in partner mode: the settings, the keys against the shops' store, the partner pair at the service. */
import { PartnerClient } from '../../../client/index.js';
import type { CheckItem } from '../check.js';
import { SettingError } from '../settings.js';
import { openRegistry } from './index.js';
import type { PartnerServeSettings } from './settings.js';

export async function checkPartner(settings: PartnerServeSettings): Promise<CheckItem[]> {
  const items: CheckItem[] = [{ name: 'settings', ok: true, sentence: `every setting is well formed (partner mode, store: ${settings.store.kind}, ${settings.partner.keys.length} key(s))` }];
  try {
    const registry = await openRegistry(settings);
    const { shops, keyIds } = await registry.selfTest();
    await registry.close();
    items.push({ name: 'keys', ok: true, sentence: `PAY_CHECKOUT_KEYS opens the store (${shops} shop(s), wrapped by ${keyIds.length || 'no'} key(s))` });
  } catch (error) {
    items.push({ name: 'keys', ok: false, sentence: error instanceof SettingError ? error.message : `the shops' store did not answer: ${error instanceof Error ? error.message : String(error)}` });
  }
  try {
    const partner = new PartnerClient({ apiKey: settings.partner.apiKey, apiSecret: settings.partner.apiSecret, ...settings.service });
    await partner.onboardingLink();
    items.push({ name: 'service', ok: true, sentence: 'the service accepts the partner pair (GET /partners/onboarding-link)' });
  } catch (error) {
    items.push({ name: 'service', ok: false, sentence: `the service did not accept the partner pair: ${error instanceof Error ? error.message : String(error)}` });
  }
  return items;
}
