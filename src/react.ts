/**
 * `pay-checkout/react`: `<PayCheckout link="HASH" onPayPaid={...} />` for React apps. Importing it registers the
 * tag. React is an optional peer dependency, needed only by this entry; `@lit/react` is bundled into it, so
 * `npm i pay-checkout react react-dom` is the whole install and the types below need nothing but React's.
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

/** React prop → the element's DOM event. */
export const payCheckoutEvents = {
  onPayReady: 'pay-ready',
  onPayOrderCreated: 'pay-order-created',
  onPayStatusChange: 'pay-status-change',
  onPayPaid: 'pay-paid',
  onPayFailed: 'pay-failed',
  onPayCancelled: 'pay-cancelled',
  onPayError: 'pay-error',
} as const;

/** Each event prop gets the element's typed `CustomEvent`. */
export interface PayCheckoutEventProps {
  onPayReady?: (event: PayReadyEvent) => void;
  onPayOrderCreated?: (event: PayOrderCreatedEvent) => void;
  onPayStatusChange?: (event: PayStatusChangeEvent) => void;
  onPayPaid?: (event: PayPaidEvent) => void;
  onPayFailed?: (event: PayFailedEvent) => void;
  onPayCancelled?: (event: PayCancelledEvent) => void;
  onPayError?: (event: PayErrorEvent) => void;
}

/**
 * The element's settable properties: `link` is required; there is no key prop (a merchant key is a server secret,
 * and the element refuses one).
 */
export type PayCheckoutElementProps = Pick<PayCheckoutElement, 'link'> &
  Partial<Pick<PayCheckoutElement, 'apiBase' | 'environment' | 'locale' | 'returnUrl' | 'theme'>>;

export type PayCheckoutProps = Omit<React.HTMLAttributes<PayCheckoutElement>, keyof PayCheckoutEventProps | keyof PayCheckoutElementProps> &
  PayCheckoutElementProps &
  PayCheckoutEventProps &
  React.RefAttributes<PayCheckoutElement>;

// @lit/react derives props from every public member of the class; PayCheckoutProps is the narrower, curated set.
const LitPayCheckout = createComponent({
  react: React,
  tagName: 'pay-checkout',
  elementClass: PayCheckoutElement,
  events: payCheckoutEvents as Record<keyof PayCheckoutEventProps, EventName>,
  displayName: 'PayCheckout',
}) as unknown as React.ForwardRefExoticComponent<PayCheckoutProps & { 'defer-hydration': '' }>;

/**
 * The element, rendered with `defer-hydration`: server-rendered (Next.js, React Router), the tag upgrades before React
 * hydrates and would start without its `link` and before its listeners exist. @lit/react sets the properties and the
 * listeners, then removes the attribute, in the same layout effects: the element starts then, and no event is lost.
 */
export const PayCheckout = React.forwardRef<PayCheckoutElement, PayCheckoutProps>((props, ref) =>
  React.createElement(LitPayCheckout, { ...props, ref, 'defer-hydration': '' }),
);
PayCheckout.displayName = 'PayCheckout';

export { PayCheckoutElement };
export type * from './element/events/index.js';
