import * as z from 'zod/mini';
import { PositiveId } from './common.js';

/** Events a partner may subscribe to through `PATCH /partners/webhook`. */
export const partnerConfigurableEvents = [
  'store_onboarded',
  'store_updated',
  'store_deleted',
  'integration_installed',
  'integration_uninstalled',
] as const;
/** Events the service operator enables on an account. */
export const operatorConfiguredEvents = ['order_payment', 'link_paid', 'order_cancelled', 'order_refunded'] as const;
export const webhookEventNames = [...partnerConfigurableEvents, ...operatorConfiguredEvents, 'test.ping'] as const;
export type PartnerConfigurableEvent = (typeof partnerConfigurableEvents)[number];
export type WebhookEventName = (typeof webhookEventNames)[number];
export const WebhookEventNameSchema = z.enum(webhookEventNames);

/** Store / merchant as a partner sees it. */
export const StoreSchema = z.looseObject({
  id_store: PositiveId,
  external_id: z.optional(z.nullable(z.string())),
  external_store_id: z.optional(z.nullable(z.string())),
  store_name: z.string(),
  merchant_key: z.optional(z.string()),
});
export type Store = z.infer<typeof StoreSchema>;
export const StoreListSchema = z.array(StoreSchema);

export const PartnerWebhookConfigSchema = z.looseObject({
  url: z.nullable(z.string()),
  events: z.array(z.string()),
  signing_enabled: z.boolean(),
});
export type PartnerWebhookConfig = z.infer<typeof PartnerWebhookConfigSchema>;

const httpsUrl = z.url().check(
  z.refine((u) => u.toLowerCase().startsWith('https://'), { message: 'must use https' }),
);

/** `PATCH /partners/webhook` body: omitted fields stay unchanged. */
export const PatchWebhookBodySchema = z.strictObject({
  url: z.optional(httpsUrl),
  events: z.optional(z.array(z.enum(partnerConfigurableEvents))),
});
export type PatchWebhookBody = z.infer<typeof PatchWebhookBodySchema>;

/** `PATCH /partners/webhook` 200 `data`. */
export const PatchWebhookResultSchema = z.looseObject({
  success: z.boolean(),
  webhook: PartnerWebhookConfigSchema,
  updated_integrations: z.int().check(z.minimum(0)),
});
export type PatchWebhookResult = z.infer<typeof PatchWebhookResultSchema>;

/** `POST /partners/webhook/test` result. */
export const WebhookTestResultSchema = z.looseObject({
  success: z.boolean(),
  test_sent: z.boolean(),
  url: z.string(),
  response_status: z.nullable(z.int()),
  response_time_ms: z.int(),
  error: z.nullable(z.string()),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

/** `GET /partners/events` `data`: the names PATCH accepts, with what each means. */
export const PartnerEventListSchema = z.array(z.looseObject({ event: z.string(), description: z.string() }));

/** `DELETE /partners/stores/{id_store}` `data`: which store was disconnected (the contract does not show it). */
export const DisconnectedStoreSchema = z.looseObject({ id_store: PositiveId });

/** `GET /partners/onboarding-link` `data`. */
export const OnboardingLinkSchema = z.looseObject({ url: z.string() });
