/**
 * `pay-checkout`: the element class, its types and events. Side-effect free:
 * importing registers nothing (import `pay-checkout/define` for that).
 */
export { PayCheckout } from './element/pay-checkout.js';
export * from './element/events/index.js';
/** What the `shopper` property takes: the buyer's details the store already knows. */
export type { ShopperPrefill } from './element/internal/prefill-of.js';
export type { Locale, Messages } from './i18n/messages.js';
export type { CheckoutLink, CheckoutOrder, CheckoutGateway, NextAction } from './contract/checkout.js';
export type { OrderStatus, CancelReason } from './contract/orders.js';
