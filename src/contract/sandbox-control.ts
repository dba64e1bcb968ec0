import * as z from 'zod/mini';
import { ShopperSchema } from './orders.js';

/**
 * Bodies of the sandbox's control API (`/sandbox/*`): not part of the service contract, but sent by the
 * demo's phone simulator and dashboard, so they are defined once here.
 */

/** `POST /sandbox/clock` */
export const SandboxClockBodySchema = z.object({ advance_ms: z.int().check(z.minimum(0), z.maximum(366 * 24 * 60 * 60 * 1000)) });

/** `POST /sandbox/forward`: a local receiver (loopback only) that also gets every webhook. */
export const SandboxForwardBodySchema = z.object({ url: z.url({ protocol: /^https?$/ }) });

/** `POST /sandbox/onboarding`: completes a partner onboarding as the merchant would on the onboarding page. */
export const SandboxOnboardingBodySchema = z.object({
  platform: z.string().check(z.minLength(1), z.maxLength(100)),
  store_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  external_store_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  external_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});
export type SandboxOnboardingBody = z.infer<typeof SandboxOnboardingBodySchema>;

/**
 * `POST /sandbox/orders` for a payment link: an order "from the dashboard" on link `hash` (amount only on
 * dynamic links). The other accepted body is exactly `POST /orders`'s.
 */
export const SandboxLinkOrderBodySchema = z.object({
  hash: z.string().check(z.minLength(1)),
  amount: z.optional(z.number().check(z.gt(0))),
  payment_gateway: z.object({ id_payment_gateway: z.int().check(z.minimum(1)) }),
  shopper: ShopperSchema,
});

/** `DELETE /sandbox/forward`: one receiver, or every receiver when the body is empty. */
export const SandboxForwardRemoveBodySchema = z.object({ url: z.optional(z.string()) });

/** What a sandbox fault does to a matching request (`POST /sandbox/faults`). */
export const sandboxFaultModes = ['latency', 'error_5xx', 'drop', 'malformed_json', 'missing_field', 'slow_first_byte'] as const;
export type SandboxFaultMode = (typeof sandboxFaultModes)[number];
export const sandboxFaultMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

/**
 * `POST /sandbox/faults`: the next `count` requests whose path matches the glob `path` (`*` one segment, `**` any
 * number) and `method` (default: any but OPTIONS) get `mode`. `latency_ms` is required for the two delaying modes.
 */
export const SandboxFaultBodySchema = z
  .object({
    path: z.string().check(z.regex(/^\/\S*$/, 'must be a path starting with /, e.g. /v1/checkout/orders/*'), z.maxLength(500)),
    method: z.optional(z.enum(sandboxFaultMethods)),
    count: z.int().check(z.minimum(1), z.maximum(10_000)),
    mode: z.enum(sandboxFaultModes),
    latency_ms: z.optional(z.int().check(z.minimum(0), z.maximum(120_000))),
    status: z.optional(z.union([z.literal(500), z.literal(502), z.literal(503)])),
    field: z.optional(z.string().check(z.regex(/^[^.\s]+(\.[^.\s]+)*$/, 'must be a dotted path such as data.status'), z.maxLength(200))),
  })
  .check(
    z.refine((body) => !(body.mode === 'latency' || body.mode === 'slow_first_byte') || body.latency_ms !== undefined, {
      message: 'is required for latency and slow_first_byte',
      path: ['latency_ms'],
    }),
  );
export type SandboxFaultBody = z.output<typeof SandboxFaultBodySchema>;
