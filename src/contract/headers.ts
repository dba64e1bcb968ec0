/** Header names of the contract. */
export const merchantKeyHeader = 'merchant-key';
export const partnerKeyHeader = 'X-API-Key';
export const partnerSecretHeader = 'X-API-Secret';
/** Headers on each webhook delivery. */
export const webhookHeaders = {
  event: 'X-Service-Event',
  timestamp: 'X-Service-Timestamp',
  signature: 'X-Service-Signature',
} as const;
/** A webhook-sender identifier with version 1.0. */
export const webhookUserAgent = 'PayCheckout-Webhooks/1.0';
/** The same headers as the live service's webhook docs name them; receivers accept either family. */
export const liveWebhookHeaders = {
  event: 'X-Wava-Event',
  timestamp: 'X-Wava-Timestamp',
  signature: 'X-Wava-Signature',
} as const;
/** The live service's webhook sender. */
export const liveWebhookUserAgent = 'Wava-Webhooks/1.0';
/**
 * On every answer of the pay-checkout sandbox, its dialect (`contract` or `live`): a client (`serve --check --pay`)
 * knows it talks to a sandbox, where no money moves, by what the service says rather than by its URL's spelling.
 */
export const sandboxHeader = 'Pay-Checkout-Sandbox';
