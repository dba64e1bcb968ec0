/** The partner API under /v1/partners (the key pair only). */
import { Hono } from 'hono';
import { parseWith, partnerConfigurableEvents, PatchWebhookBodySchema, type PartnerConfigurableEvent } from '../../contract/index.js';
import { partnerFrom } from '../auth.js';
import type { SandboxContext } from '../context.js';
import { emitStoreEvent, sendTestPing } from '../events.js';
import { ApiError, readJson, validationError } from '../http.js';
import type { SandboxPartner } from '../model.js';
import { storeById } from '../state.js';
import { storeView } from '../views.js';
import { originOf } from './origin.js';

const eventDescriptions: Record<PartnerConfigurableEvent, string> = {
  store_onboarded: 'A merchant finished onboarding through your link, or re-subscribed; carries its merchant_key.',
  store_updated: 'A connected store changed.',
  store_deleted: 'A connected store was deleted.',
  integration_installed: 'Your integration was installed on a store.',
  integration_uninstalled: 'Your integration was removed from a store; stop using its merchant key.',
};

const webhookConfigView = (partner: SandboxPartner) => ({
  url: partner.webhook.url,
  events: [...partner.webhook.events],
  signing_enabled: partner.webhook.signing_enabled,
  operator_events: [...partner.operator_events],
});

export function partnerRoutes(ctx: SandboxContext): Hono {
  const api = new Hono();

  api.get('/partners/stores', (c) => {
    const partner = partnerFrom(ctx, c);
    const stores = ctx.state.integrations
      .filter((i) => i.active && i.id_partner === partner.id_partner)
      .map((i) => storeById(ctx.state, i.id_store))
      .filter((s) => s !== undefined);
    return c.json({ data: stores.map((s) => storeView(s)) });
  });

  api.delete('/partners/stores/:id_store', (c) => {
    const partner = partnerFrom(ctx, c);
    const raw = c.req.param('id_store');
    if (!/^[1-9]\d{0,15}$/.test(raw)) throw validationError([{ field: 'id_store', message: 'must be an integer of at least 1' }]);
    const integration = ctx.state.integrations.find((i) => i.active && i.id_partner === partner.id_partner && i.id_store === Number(raw));
    const store = integration && storeById(ctx.state, integration.id_store);
    if (!integration || !store) throw new ApiError('STORE_NOT_FOUND', { description: 'No store with this id is connected to your partner account.' });
    integration.active = false;
    emitStoreEvent(ctx, partner, integration, 'integration_uninstalled', {
      event: 'integration_uninstalled',
      timestamp: ctx.iso(),
      id_store: store.id_store,
      external_id: store.external_id,
      store_name: store.store_name,
      external_store_id: store.external_store_id,
    });
    return c.json({ data: { id_store: store.id_store, disconnected: true } });
  });

  api.get('/partners/onboarding-link', (c) => {
    const partner = partnerFrom(ctx, c);
    return c.json({ data: { url: `${originOf(ctx, c)}/onboarding?platform=${encodeURIComponent(partner.name)}` } });
  });

  api.get('/partners/webhook', (c) => c.json({ data: webhookConfigView(partnerFrom(ctx, c)) }));

  api.patch('/partners/webhook', async (c) => {
    const partner = partnerFrom(ctx, c);
    const raw = await readJson(c);
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const { url, events } = raw as { url?: unknown; events?: unknown };
      if (typeof url === 'string' && !isHttpsUrl(url)) {
        throw new ApiError('INVALID_WEBHOOK_URL', { validation_errors: [{ field: 'url', message: 'must be an https URL' }] });
      }
      if (Array.isArray(events)) {
        const unsupported = events.map((e, i) => [e, i] as const).filter(([e]) => !(partnerConfigurableEvents as readonly unknown[]).includes(e));
        if (unsupported.length) {
          throw new ApiError('UNSUPPORTED_EVENT', {
            description: `Supported events: ${partnerConfigurableEvents.join(', ')} (GET /partners/events).`,
            validation_errors: unsupported.map(([e, i]) => ({ field: `events.${i}`, message: `${JSON.stringify(e)} is not a supported event` })),
          });
        }
      }
    }
    const parsed = parseWith(PatchWebhookBodySchema, raw);
    if (!parsed.ok) throw validationError(parsed.problems);
    const body = parsed.value;
    // Omitted fields stay as they are; the change reaches the account and every integration attached to it.
    if (body.url !== undefined) partner.webhook.url = body.url;
    if (body.events !== undefined) partner.webhook.events = [...new Set(body.events)];
    const integrations = ctx.state.integrations.filter((i) => i.id_partner === partner.id_partner && i.active);
    for (const integration of integrations) integration.webhook = { ...partner.webhook, events: [...partner.webhook.events] };
    return c.json({ data: { success: true, webhook: webhookConfigView(partner), updated_integrations: integrations.length } });
  });

  api.post('/partners/webhook/test', async (c) => {
    const partner = partnerFrom(ctx, c);
    const record = await sendTestPing(ctx, partner);
    if (!record) {
      return c.json({ data: { success: false, test_sent: false, url: '', response_status: null, response_time_ms: 0, error: 'No webhook URL is configured (PATCH /partners/webhook, or POST /sandbox/forward).' } });
    }
    const first = record.attempts[0];
    return c.json({
      data: {
        success: record.state === 'delivered',
        test_sent: first !== undefined,
        url: record.url,
        response_status: first?.status ?? null,
        response_time_ms: first?.duration_ms ?? 0,
        error: first?.error ?? null,
      },
    });
  });

  api.get('/partners/events', (c) => {
    partnerFrom(ctx, c);
    return c.json({ data: partnerConfigurableEvents.map((event) => ({ event, description: eventDescriptions[event] })) });
  });

  return api;
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}
