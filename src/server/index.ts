/** The buyer API on the merchant's own server: `createCheckoutHandler()` and its Node adapter. */
export { createCheckoutHandler } from './handler.js';
export type { CheckoutHandler, CheckoutHandlerOptions, DrainableCheckoutHandler, DrainOptions, DrainResult } from './options.js';
export type { EventSink, ServerEvent, ServerEventLevel } from './events.js';
export type { OpenTelemetryApi } from './telemetry.js';
export type { CheckoutLinkInfo, ResolveLink } from './links.js';
export { ClaimStoreError, memoryClaimStore } from './claims.js';
export type { ClaimResult, ClaimStore, ClaimView, MemoryClaimStoreOptions, Unsubscribe } from './claims.js';
export { claimChannel, defaultClaimTimings, isDefiniteFailure, orderChannel } from './once.js';
export type { ClaimTimings } from './once.js';
export type { OrderWakeUp } from './webhook-intake.js';
export { defaultAmountLimits, gatewayKindOf, toCheckoutGateways } from './gateways.js';
export { orderKeyPrefix } from './secrets.js';
export { defaultServeOptions, serve, toNodeListener } from './node.js';
export type { NodeListenerOptions, RunningNodeServer, ServeOptions } from './node.js';
export { defaultLimits } from './limits.js';
export type { Limit, LimitHit, Limits, LimitsOption, LimitStore } from './limits.js';
export { memoryLimitStore } from './limit-store.js';
export type { BotCheck, BotCheckInput } from './guards.js';
