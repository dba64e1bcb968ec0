import * as z from 'zod/mini';
import { PositiveId, Timestamp } from './common.js';
import { CheckoutGatewaySchema, NextActionSchema } from './checkout.js';
import { DocumentTypeSchema, GatewayKindSchema } from './gateways.js';
import { OrderDetailsSchema } from './orders.js';
import { StoreSchema } from './partners.js';
import { sandboxFaultMethods, sandboxFaultModes } from './sandbox-control.js';

/**
 * What the sandbox's control API answers (`/sandbox/*`): not part of the service contract, but read by the
 * demo's phone simulator and dashboard, so the shapes are defined once here.
 */

export const orderSources = ['api', 'checkout', 'dashboard'] as const;

/** `GET /sandbox/orders/{id}` `data` (and each item of `GET /sandbox/orders`): everything, the SMS code included. */
export const SandboxOrderSchema = z.looseObject({
  ...OrderDetailsSchema.def.shape,
  id_store: PositiveId,
  store_name: z.nullable(z.string()),
  source: z.enum(orderSources),
  id_partner: z.nullable(PositiveId),
  link_hash: z.nullable(z.string()),
  gateway_kind: GatewayKindSchema,
  /** The code the sandbox "sent by SMS" (otp orders only). */
  otp: z.nullable(z.string()),
  otp_attempts_left: z.nullable(z.int()),
  phone: z.nullable(z.string()),
  transfer_key: z.nullable(z.string()),
  card_url: z.nullable(z.string()),
  next_action: z.nullable(NextActionSchema),
});
export type SandboxOrder = z.infer<typeof SandboxOrderSchema>;
export const SandboxOrderListSchema = z.array(SandboxOrderSchema);

/** `GET /sandbox/fixtures` `data`: the fixed data printed at start. */
export const SandboxFixturesSchema = z.looseObject({
  base_url: z.string(),
  checkout_url: z.string(),
  onboarding_url: z.string(),
  control_url: z.string(),
  merchant_key: z.string(),
  partner: z.looseObject({ name: z.string(), api_key: z.string(), api_secret: z.string(), signing_secret: z.string() }),
  links: z.array(
    z.looseObject({ hash: z.string(), amount: z.nullable(z.number()), description: z.string(), checkout_url: z.string() }),
  ),
  gateways: z.array(z.looseObject({ ...CheckoutGatewaySchema.def.shape, direct_orders: z.boolean() })),
  document_types: z.array(DocumentTypeSchema),
  stores: z.array(StoreSchema),
});
export type SandboxFixtures = z.infer<typeof SandboxFixturesSchema>;

/** `POST /sandbox/clock` `data`: the sandbox's time after the jump. */
export const SandboxClockSchema = z.looseObject({ now: z.string(), now_ms: z.number() });

/** `GET|POST|DELETE /sandbox/forward` `data`: the local receivers that also get every webhook. */
export const SandboxForwardSchema = z.looseObject({ urls: z.array(z.string()) });

/** `POST /sandbox/onboarding` `data`: the new store, its merchant key and integration. */
export const SandboxOnboardedSchema = z.looseObject({ ...StoreSchema.def.shape, id_integration: PositiveId });

/** One fault of `GET /sandbox/faults`, defaults filled in, with what is left of its count. */
export const SandboxFaultSchema = z.looseObject({
  id: z.string(),
  path: z.string(),
  method: z.nullable(z.enum(sandboxFaultMethods)),
  mode: z.enum(sandboxFaultModes),
  count: z.int(),
  remaining: z.int().check(z.minimum(0)),
  latency_ms: z.nullable(z.int()),
  status: z.nullable(z.int()),
  field: z.nullable(z.string()),
});
export type SandboxFault = z.infer<typeof SandboxFaultSchema>;
export const SandboxFaultListSchema = z.array(SandboxFaultSchema);

/** One request the sandbox's own webhook receiver got (`GET /sandbox/receiver` `data` items), oldest first. */
export const SandboxReceivedWebhookSchema = z.looseObject({
  id: z.string(),
  received_at: Timestamp,
  /** The path it was posted to: `/sandbox/receiver` or below it. */
  path: z.string(),
  /** X-Service-Event, or null when absent. */
  event: z.nullable(z.string()),
  headers: z.record(z.string(), z.string()),
  /** The exact text received. */
  body: z.string(),
  /** X-Service-Signature, or null when absent. */
  signature: z.nullable(z.string()),
  /** Whether the signature verifies over `body` with a signing secret the sandbox knows (a partner's or a store's). */
  signature_valid: z.boolean(),
  /** Whose secret verified it, e.g. `partner demo-partner`; null when none did. */
  verified_with: z.nullable(z.string()),
});
export type SandboxReceivedWebhook = z.infer<typeof SandboxReceivedWebhookSchema>;
export const SandboxReceivedWebhookListSchema = z.array(SandboxReceivedWebhookSchema);
