/**
 * `pay-checkout/react`: `<PayCheckout link="HASH" onPayPaid={...} />` for React apps. Importing it registers the
 * tag. React and `@lit/react` are optional peer dependencies, needed only by this entry.
 */
// The default import is the one CommonJS React gives every loader (bundlers, Node, dev servers) the same way.
import React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { PayCheckout as PayCheckoutElement } from './define.js';
import type {
  PayCancelledEvent,
  PayErrorEvent,
  PayFailedEvent,
  PayOrderCreatedEvent,
  PayPaidEvent,
  PayReadyEvent,
  PayStatusChangeEvent,
} from './element/events/index.js';

/** React prop → the element's DOM event (design.md §5); each handler gets the typed `CustomEvent`. */
export const payCheckoutEvents = {
  onPayReady: 'pay-ready' as EventName<PayReadyEvent>,
  onPayOrderCreated: 'pay-order-created' as EventName<PayOrderCreatedEvent>,
  onPayStatusChange: 'pay-status-change' as EventName<PayStatusChangeEvent>,
  onPayPaid: 'pay-paid' as EventName<PayPaidEvent>,
  onPayFailed: 'pay-failed' as EventName<PayFailedEvent>,
  onPayCancelled: 'pay-cancelled' as EventName<PayCancelledEvent>,
  onPayError: 'pay-error' as EventName<PayErrorEvent>,
};

export const PayCheckout = createComponent({
  react: React,
  tagName: 'pay-checkout',
  elementClass: PayCheckoutElement,
  events: payCheckoutEvents,
  displayName: 'PayCheckout',
});

export type PayCheckoutProps = React.ComponentProps<typeof PayCheckout>;
export { PayCheckoutElement };
export type * from './element/events/index.js';
