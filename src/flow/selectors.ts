import type { CheckoutOrder } from '../contract/checkout.js';
import type { FlowState, FlowStep, OrderState, WaitingState } from './types.js';

/** Reading a state, for the host: what to render, whether to poll, what to save. */

export function stepOf(state: FlowState): FlowStep {
  return state.step;
}

const orderSteps: readonly FlowStep[] = ['push', 'otp', 'transfer', 'redirect', 'processing', 'paid', 'declined', 'cancelled', 'expired'];

export function hasOrder(state: FlowState): state is OrderState {
  return orderSteps.includes(state.step);
}

export function isWaitingStep(state: FlowState): state is WaitingState {
  return state.step === 'push' || state.step === 'otp' || state.step === 'transfer' || state.step === 'redirect' || state.step === 'processing';
}

/**
 * Whether the host should poll the order's status now: push, transfer and
 * processing always; card only once the buyer is back. The SMS code settles
 * when it is submitted, so it is not polled.
 */
export function isWaiting(state: FlowState): boolean {
  switch (state.step) {
    case 'push':
    case 'transfer':
    case 'processing':
      return true;
    case 'redirect':
      return state.returning;
    default:
      return false;
  }
}

/** The order on screen, if any. */
export function orderOf(state: FlowState): CheckoutOrder | null {
  return hasOrder(state) ? state.order : null;
}

/** What to keep in sessionStorage by link hash so a reload resumes the order; null: clear it. */
export function savedOrderOf(state: FlowState): { id_order: number; order_token: string } | null {
  return hasOrder(state) ? { id_order: state.order.id_order, order_token: state.orderToken } : null;
}

/** When the current step's countdown ends (`next_action.expires_at`), or null when there is none. */
export function expiresAtOf(state: FlowState): string | null {
  if (state.step === 'push' || state.step === 'otp' || state.step === 'transfer') return state.action.expires_at;
  return null;
}

/** Whether `next` asks for I/O the host has not started yet (requests are compared by identity). */
export function isNewRequest(prev: FlowState, next: FlowState): boolean {
  return next.request !== null && next.request !== prev.request;
}
