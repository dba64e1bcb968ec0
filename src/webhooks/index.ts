/** Webhook deliveries: sign, verify in constant time, parse into typed events (failing closed), process once. */
export { sign, verify, canonicalPayload, timingSafeEqual } from './signature.js';
export type { SigningSecrets } from './signature.js';
export { parseDelivery, headerValue, defaultToleranceMs } from './delivery.js';
export type { DeliveryInput, VerifiedDeliveryInput, UnverifiedDeliveryInput, HeaderSource, WebhookDelivery, KnownWebhookDelivery, UnknownWebhookDelivery, HeaderFamily } from './delivery.js';
export { legacyEventNames } from './live-payload.js';
export type { LiveOrderPaymentPayload, PayloadLayout } from './live-payload.js';
export { WebhookDeliveryError } from './errors.js';
export type { WebhookDeliveryErrorReason } from './errors.js';
export { processOnce, deliveryKey, defaultDeliveryLeaseMs, defaultDeliveryTtlMs } from './process-once.js';
export type { DeliveryClaims, OnceOutcome, ProcessOnceOptions } from './process-once.js';
export { payCheckoutSignatureHeader, payCheckoutSignatureToleranceSeconds, signPayCheckout, verifyPayCheckoutSignature } from './pay-checkout-signature.js';
export type { VerifyPayCheckoutSignatureInput } from './pay-checkout-signature.js';
