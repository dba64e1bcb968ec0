/**
 * The route table the OpenAPI document is generated from: paths, methods, headers and who may call them
 * (the buyer API of docs/site/contributing/architecture.md, and the contract). Every shape is a zod schema of src/contract/; nothing here describes a body.
 */
import type * as z from 'zod/mini';
import {
  type ApiCode,
  CancelledOrderSchema,
  CheckoutLinkSchema,
  CheckoutOrderBodySchema,
  CheckoutOrderCreatedSchema,
  CheckoutOrderSchema,
  CreatedLinkSchema,
  CreatedStoreLinkSchema,
  CreateStoreLinkBodySchema,
  DeletedStoreSchema,
  RegisterStoreBodySchema,
  RegisteredStoreSchema,
  StoreOrderSchema,
  StoreProfileSchema,
  CreatedOrderSchema,
  CreateLinkBodySchema,
  CreateOrderBodySchema,
  DashboardStatsQuerySchema,
  DashboardStatsSchema,
  DisconnectedStoreSchema,
  DocumentTypeListSchema,
  OnboardingLinkSchema,
  OrderDetailsSchema,
  OtpBodySchema,
  OtpResultSchema,
  PartnerEventListSchema,
  PartnerWebhookConfigSchema,
  PatchWebhookBodySchema,
  PatchWebhookResultSchema,
  PaymentGatewayListSchema,
  RefundBodySchema,
  RefundResponseSchema,
  StoreListSchema,
  WebhookTestResultSchema,
} from '../contract/index.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';
/**
 * Who may call: the merchant key (a partner may add its pair as attribution), the partner pair, the order token, a
 * shop's API key (`pay-checkout serve` in partner mode), anyone.
 */
export type Caller = 'merchant' | 'partner' | 'order-token' | 'store-key' | 'public';
/** How the success body wraps the shape: `{ "data": … }`, `{ "result": … }`, or the shape itself. */
export type Wrap = 'data' | 'result' | 'bare';

export interface Route {
  method: Method;
  /** OpenAPI path template under `{base_url}` (`/v1`). */
  path: string;
  operationId: string;
  summary: string;
  tag: 'Merchant' | 'Partner' | 'Buyer' | 'Shop';
  caller: Caller;
  /** Request body, read as the service reads it (input side of the schema). */
  body?: z.ZodMiniType;
  /** The body may be left out (the refund). */
  optionalBody?: true;
  /** Query parameters: the properties of an object schema. */
  query?: z.ZodMiniType;
  /** Success statuses; one shape for all of them. */
  success: readonly number[];
  /** Name of the success shape in `components.schemas`, and its schema. */
  result: readonly [name: string, schema: z.ZodMiniType];
  wrap: Wrap;
  /** Required request headers besides the security scheme's. */
  headers?: readonly string[];
  /** Set on a replayed answer (an order returned again for the same key). */
  replayHeader?: boolean;
  /** Optional request headers. */
  optionalHeaders?: readonly string[];
  /** Refused with 429 and Retry-After past `createCheckoutHandler()`'s abuse limits. */
  limited?: boolean;
  /** Answers a redirect (`Location`) instead of a body: the success statuses are 3xx. */
  redirect?: true;
  /** 4xx refusals of the route's own rules, beside those of its caller, path and body (refusals.ts). */
  refuses?: readonly ApiCode[];
}

const merchant = (r: Omit<Route, 'tag' | 'caller'>): Route => ({ ...r, tag: 'Merchant', caller: 'merchant' });
const partner = (r: Omit<Route, 'tag' | 'caller'>): Route => ({ ...r, tag: 'Partner', caller: 'partner' });
const buyer = (caller: 'order-token' | 'public', r: Omit<Route, 'tag' | 'caller'>): Route => ({ ...r, tag: 'Buyer', caller });
/** The shop API of `pay-checkout serve` in partner mode (src/server/serve/partner/shop-api.ts), not of the service. */
const shop = (caller: 'store-key' | 'public', r: Omit<Route, 'tag' | 'caller'>): Route => ({ ...r, tag: 'Shop', caller });

const ok = [200] as const;

export const routes: readonly Route[] = [
  merchant({ method: 'post', path: '/orders', operationId: 'createOrder', summary: 'Create an order and start processing it', body: CreateOrderBodySchema, success: ok, result: ['CreatedOrder', CreatedOrderSchema], wrap: 'data', replayHeader: true, refuses: ['PAYMENT_GATEWAY_REQUIRED', 'GATEWAY_NOT_SUPPORTED', 'INVALID_CURRENCY', 'AMOUNT_OUT_OF_RANGE', 'GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED', 'IDEMPOTENCY_KEY_REUSED'] }),
  merchant({ method: 'get', path: '/orders/paymentGateways', operationId: 'listPaymentGateways', summary: 'Payment gateways of the store', success: ok, result: ['PaymentGatewayList', PaymentGatewayListSchema], wrap: 'data' }),
  merchant({ method: 'get', path: '/orders/{orderId}', operationId: 'getOrder', summary: 'An order as the service sees it now', success: ok, result: ['OrderDetails', OrderDetailsSchema], wrap: 'data', refuses: ['ORDER_NOT_FOUND'] }),
  merchant({ method: 'post', path: '/orders/refund/{orderId}', operationId: 'refundOrder', summary: 'Full refund of a confirmed order within 96 hours', body: RefundBodySchema, optionalBody: true, success: ok, result: ['RefundResponse', RefundResponseSchema], wrap: 'bare', refuses: ['ORDER_NOT_FOUND', 'INVALID_ORDER_STATUS'] }),
  merchant({ method: 'post', path: '/orders/cancel/{orderId}', operationId: 'cancelOrder', summary: 'Cancel a pending or processing order', success: ok, result: ['CancelledOrder', CancelledOrderSchema], wrap: 'data', refuses: ['ORDER_NOT_FOUND', 'INVALID_ORDER_STATUS'] }),
  merchant({ method: 'post', path: '/orders/daviplata/{orderId}', operationId: 'submitDigitalWalletCode', summary: 'Submit the digital-wallet SMS code', body: OtpBodySchema, success: ok, result: ['OtpResult', OtpResultSchema], wrap: 'data', refuses: ['ORDER_NOT_FOUND', 'INVALID_ORDER_STATUS', 'DAVIPLATA_OTP_ERROR'] }),
  merchant({ method: 'post', path: '/links', operationId: 'createLink', summary: 'Create a payment link (no amount: a dynamic link)', body: CreateLinkBodySchema, success: ok, result: ['CreatedLink', CreatedLinkSchema], wrap: 'data' }),
  merchant({ method: 'get', path: '/national-document-types/{countryCode}', operationId: 'listDocumentTypes', summary: 'National document types of a country', success: ok, result: ['DocumentTypeList', DocumentTypeListSchema], wrap: 'data' }),
  merchant({ method: 'get', path: '/merchant/{storeId}/dashboard/stats', operationId: 'getDashboardStats', summary: 'Dashboard statistics of the store', query: DashboardStatsQuerySchema, success: ok, result: ['DashboardStats', DashboardStatsSchema], wrap: 'result', refuses: ['INSUFFICIENT_SCOPE'] }),

  partner({ method: 'get', path: '/partners/stores', operationId: 'listConnectedStores', summary: 'Stores connected to the partner', success: ok, result: ['StoreList', StoreListSchema], wrap: 'data' }),
  partner({ method: 'delete', path: '/partners/stores/{id_store}', operationId: 'disconnectStore', summary: 'Disconnect a store (sends integration_uninstalled)', success: ok, result: ['DisconnectedStore', DisconnectedStoreSchema], wrap: 'data', refuses: ['STORE_NOT_FOUND'] }),
  partner({ method: 'get', path: '/partners/onboarding-link', operationId: 'getOnboardingLink', summary: "The partner's onboarding link", success: ok, result: ['OnboardingLink', OnboardingLinkSchema], wrap: 'data' }),
  partner({ method: 'get', path: '/partners/webhook', operationId: 'getWebhookConfig', summary: "The partner's webhook configuration", success: ok, result: ['PartnerWebhookConfig', PartnerWebhookConfigSchema], wrap: 'data' }),
  partner({ method: 'patch', path: '/partners/webhook', operationId: 'updateWebhookConfig', summary: 'Change the webhook URL or events (https only)', body: PatchWebhookBodySchema, success: ok, result: ['PatchWebhookResult', PatchWebhookResultSchema], wrap: 'data', refuses: ['INVALID_WEBHOOK_URL', 'UNSUPPORTED_EVENT'] }),
  partner({ method: 'post', path: '/partners/webhook/test', operationId: 'testWebhook', summary: 'Send a test.ping delivery', success: ok, result: ['WebhookTestResult', WebhookTestResultSchema], wrap: 'data' }),
  partner({ method: 'get', path: '/partners/events', operationId: 'listWebhookEvents', summary: 'Events the partner may subscribe to', success: ok, result: ['PartnerEventList', PartnerEventListSchema], wrap: 'data' }),

  buyer('public', { method: 'get', path: '/checkout/links/{hash}', operationId: 'getCheckoutLink', summary: 'Everything the first checkout screen needs', success: ok, result: ['CheckoutLink', CheckoutLinkSchema], wrap: 'data', limited: true }),
  buyer('public', { method: 'post', path: '/checkout/links/{hash}/orders', operationId: 'createCheckoutOrder', summary: 'Create the buyer’s order (201; 200 when replayed)', body: CheckoutOrderBodySchema, success: [201, 200], result: ['CheckoutOrderCreated', CheckoutOrderCreatedSchema], wrap: 'data', headers: ['Idempotency-Key'], optionalHeaders: ['X-Bot-Check'], replayHeader: true, limited: true, refuses: ['IDEMPOTENCY_KEY_REQUIRED', 'BOT_CHECK_FAILED', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE', 'LINK_ALREADY_PAID', 'LINK_EXPIRED', 'GATEWAY_NOT_SUPPORTED', 'AMOUNT_OUT_OF_RANGE', 'GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED'] }),
  buyer('order-token', { method: 'get', path: '/checkout/orders/{id_order}', operationId: 'getCheckoutOrder', summary: 'Status and next action of the buyer’s order', success: ok, result: ['CheckoutOrder', CheckoutOrderSchema], wrap: 'data', limited: true }),
  buyer('order-token', { method: 'post', path: '/checkout/orders/{id_order}/otp', operationId: 'submitCheckoutOtp', summary: 'Submit the SMS code', body: OtpBodySchema, success: ok, result: ['CheckoutOrder', CheckoutOrderSchema], wrap: 'data', limited: true, refuses: ['INVALID_ORDER_STATUS', 'DAVIPLATA_OTP_ERROR'] }),
  // The handler reads a cancel's optional body as JSON, so a body of another type is 415 there.
  buyer('order-token', { method: 'post', path: '/checkout/orders/{id_order}/cancel', operationId: 'cancelCheckoutOrder', summary: 'Cancel a pending or processing order', success: ok, result: ['CheckoutOrder', CheckoutOrderSchema], wrap: 'data', limited: true, refuses: ['INVALID_ORDER_STATUS', 'UNSUPPORTED_MEDIA_TYPE'] }),

  shop('public', { method: 'post', path: '/stores', operationId: 'registerStore', summary: 'Register a shop (partner mode): its api_key and notify_secret, shown once', body: RegisterStoreBodySchema, success: [201], result: ['RegisteredStore', RegisteredStoreSchema], wrap: 'data', limited: true, refuses: ['NOTIFY_URL_NOT_PUBLIC', 'MERCHANT_KEY_NOT_ACCEPTED'] }),
  shop('public', { method: 'get', path: '/stores/{store_id}/connect', operationId: 'connectStore', summary: 'Redirect the merchant to the partner’s onboarding, carrying the shop’s id and its connect token (`?token=`, from connect_url)', success: [302], result: ['StoreProfile', StoreProfileSchema], wrap: 'bare', redirect: true, refuses: ['STORE_NOT_FOUND', 'STORE_ALREADY_CONNECTED', 'CONNECT_URL_EXPIRED'] }),
  shop('store-key', { method: 'get', path: '/stores/me', operationId: 'getStore', summary: 'The shop, as its API key sees it', success: ok, result: ['StoreProfile', StoreProfileSchema], wrap: 'data' }),
  shop('store-key', { method: 'delete', path: '/stores/me', operationId: 'deleteStore', summary: 'Disconnect the shop and revoke its API key', success: ok, result: ['DeletedStore', DeletedStoreSchema], wrap: 'data' }),
  shop('store-key', { method: 'post', path: '/stores/me/links', operationId: 'createStoreLink', summary: 'Create a payment link for the shop (201; 200-shaped replay for the same Idempotency-Key)', body: CreateStoreLinkBodySchema, success: [201], result: ['CreatedStoreLink', CreatedStoreLinkSchema], wrap: 'data', optionalHeaders: ['Idempotency-Key'], replayHeader: true, refuses: ['STORE_NOT_CONNECTED', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE'] }),
  shop('store-key', { method: 'get', path: '/stores/me/orders/{id_order}', operationId: 'getStoreOrder', summary: 'One of the shop’s own orders (another shop’s is 404)', success: ok, result: ['StoreOrder', StoreOrderSchema], wrap: 'data', refuses: ['ORDER_NOT_FOUND'] }),
];
