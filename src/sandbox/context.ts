/** Everything a route or simulator needs: state, clock, webhook sender and the sandbox's tunable timings. */
import type { SandboxClock } from './clock.js';
import type { SandboxState } from './state.js';
import type { Deliverer } from './webhooks/delivery.js';
import type { SandboxGuard } from './guard.js';
import type { SandboxDialect } from './dialect.js';

export interface SandboxTimings {
  /** Per webhook attempt (contract: 5 s). */
  webhookTimeoutMs?: number;
  /** Between webhook attempts (contract: about 1 s). */
  webhookRetryDelayMs?: number;
  /** Contract: 3. */
  webhookMaxAttempts?: number;
  /** How long a phone ending in 0002 takes to decline by itself. */
  pushAutoDeclineMs?: number;
  /** Longest `link_paid` waits for `order_payment`'s delivery to the same receiver to finish (default 1 s). */
  linkPaidWaitMs?: number;
}

export interface SandboxContext {
  state: SandboxState;
  clock: SandboxClock;
  deliverer: Deliverer;
  /** Origin the buyer's browser reaches the sandbox at; when unset, each request's own origin. */
  publicUrl: string | undefined;
  pushAutoDeclineMs: number;
  linkPaidWaitMs: number;
  /** The built-in receiver's URL on this sandbox's own socket, once it listens; forwarded to by default. */
  receiverUrl: string | undefined;
  /** Folder of the built hosted page (index.html); default: found beside the sandbox or in dist/hosted/. */
  hostedDir: string | undefined;
  /** False: `order_key` is recorded as `id_external` but never replayed (`--no-order-key-dedupe`). */
  orderKeyDedupe: boolean;
  /** What the control API and pages refuse (hosts, origins, forward targets, card page returns). */
  guard: SandboxGuard;
  iso(ms?: number): string;
  /** Which shapes the merchant API answers in (live-dialect.ts). */
  dialect: SandboxDialect;
}

export const defaultPushAutoDeclineMs = 2_000;
/** The contract's spacing of attempts: a receiver that has not answered by then no longer holds `link_paid` back. */
export const defaultLinkPaidWaitMs = 1_000;
