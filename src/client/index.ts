/** Typed `fetch` clients of the service; every response is validated with the contract's schemas. */
export { CheckoutClient } from './checkout-client.js';
export { CheckoutLinkClient } from './link-client.js';
export { MerchantClient } from './merchant-client.js';
export type { MerchantClientOptions, PartnerCredentials, CreateOrderOptions, CancelledOrder, OtpResult, RefundInput, DashboardStatsQuery } from './merchant-client.js';
export { PartnerClient } from './partner-client.js';
export type { PartnerClientOptions, PartnerEvent, DisconnectedStore, OnboardingLink } from './partner-client.js';
export { baseUrls, defaultTimeoutMs, resolveBaseUrl } from './http.js';
export type { CallOptions, ClientOptions, Environment } from './http.js';
export {
  PayCheckoutError,
  ServiceError,
  NetworkError,
  TimeoutError,
  AbortedError,
  InvalidResponseError,
  InvalidRequestError,
  isPayCheckoutError,
} from './errors.js';
export type { PayCheckoutErrorKind } from './errors.js';
export type { DialectReport, DialectVariant, OnDialect } from './dialect.js';
export type { TolerantCreatedLink } from './tolerant-read.js';
