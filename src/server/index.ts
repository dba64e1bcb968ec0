/** The buyer API on the merchant's own server: `createCheckoutHandler()` and its Node adapter. */
export { createCheckoutHandler } from './handler.js';
export type { CheckoutHandler, CheckoutHandlerOptions } from './options.js';
export type { CheckoutLinkInfo, ResolveLink } from './links.js';
export { ClaimStoreError, memoryClaimStore } from './claims.js';
export type { ClaimResult, ClaimStore, ClaimView, MemoryClaimStoreOptions, Unsubscribe } from './claims.js';
export { claimChannel, defaultClaimTimings, isDefiniteFailure, orderChannel } from './once.js';
export type { ClaimTimings } from './once.js';
export type { OrderWakeUp } from './webhook-intake.js';
export { defaultAmountLimits, gatewayKindOf, toCheckoutGateways } from './gateways.js';
export { orderKeyPrefix } from './secrets.js';
export { toNodeListener } from './node.js';
export type { NodeListenerOptions } from './node.js';
