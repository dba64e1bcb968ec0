/** Webhook deliveries: sign, verify in constant time, parse into typed events. */
export { sign, verify, canonicalPayload, timingSafeEqual } from './signature.js';
export { parseDelivery, headerValue, WebhookDeliveryError } from './delivery.js';
export type { DeliveryInput, HeaderSource, WebhookDelivery, WebhookDeliveryErrorReason } from './delivery.js';
