import * as z from 'zod/mini';

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
