/** A merchant finishing onboarding through a partner's link: store, integration, `store_onboarded` with the merchant key. */
import { randomBytes } from 'node:crypto';
import type { SandboxContext } from './context.js';
import { emitStoreEvent } from './events.js';
import { ApiError } from './http.js';
import type { SandboxIntegration, SandboxStore } from './model.js';

export interface OnboardingInput {
  platform: string;
  store_name: string;
  external_store_id?: string | undefined;
  external_id?: string | undefined;
}

export function completeOnboarding(ctx: SandboxContext, input: OnboardingInput): { store: SandboxStore; integration: SandboxIntegration } {
  const { state } = ctx;
  const partner = state.partners.find((p) => p.name === input.platform && p.active);
  if (!partner) throw new ApiError('VALIDATION_FAILED', { validation_errors: [{ field: 'platform', message: 'is not a partner of the sandbox' }] });
  const externalStoreId = input.external_store_id ?? input.external_id ?? null;
  // A merchant that disconnected and comes back through the same partner re-subscribes its old store.
  const returning = externalStoreId === null ? undefined : state.integrations.find((i) => !i.active && i.id_partner === partner.id_partner && state.stores.find((s) => s.id_store === i.id_store)?.external_store_id === externalStoreId);
  let store: SandboxStore;
  let integration: SandboxIntegration;
  if (returning) {
    store = state.stores.find((s) => s.id_store === returning.id_store)!;
    store.store_name = input.store_name;
    integration = returning;
    integration.active = true;
    integration.webhook = { ...partner.webhook, events: [...partner.webhook.events] };
  } else {
    store = {
      id_store: state.nextStoreId,
      store_name: input.store_name,
      merchant_key: `mk_test_${randomBytes(12).toString('hex')}`,
      external_id: input.external_id ?? externalStoreId,
      external_store_id: externalStoreId,
      currency: 'COP',
      signing_secret: `whsec_store_${randomBytes(12).toString('hex')}`,
      active: true,
    };
    integration = {
      id_integration: state.nextIntegrationId,
      id_partner: partner.id_partner,
      id_store: store.id_store,
      active: true,
      webhook: { ...partner.webhook, events: [...partner.webhook.events] },
      created_at: ctx.clock.now(),
    };
    state.nextStoreId += 1;
    state.nextIntegrationId += 1;
    state.stores.push(store);
    state.integrations.push(integration);
  }
  emitStoreEvent(ctx, partner, integration, 'store_onboarded', {
    event: 'store_onboarded',
    timestamp: ctx.iso(),
    id_store: store.id_store,
    store_name: store.store_name,
    external_id: store.external_id,
    external_store_id: store.external_store_id,
    merchant_key: store.merchant_key,
  });
  return { store, integration };
}
