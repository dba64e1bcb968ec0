import type { CheckoutOrder } from '../contract/checkout.js';
import type { FlowState, FlowStep, OrderState } from './types.js';

// What the element's first script reads of a state (selectors.ts has the rest, for the later steps).

const orderSteps: readonly FlowStep[] = ['push', 'otp', 'transfer', 'redirect', 'processing', 'paid', 'declined', 'cancelled', 'expired'];

export function hasOrder(state: FlowState): state is OrderState {
  return orderSteps.includes(state.step);
}

/** The order on screen, if any. */
export function orderOf(state: FlowState): CheckoutOrder | null {
  return hasOrder(state) ? state.order : null;
}

/** Whether `next` asks for I/O the host has not started yet (requests are compared by identity). */
export function isNewRequest(prev: FlowState, next: FlowState): boolean {
  return next.request !== null && next.request !== prev.request;
}
