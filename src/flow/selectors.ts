import { hasOrder } from './order-of.js';
import type { FlowState, FlowStep, WaitingState } from './types.js';

export { hasOrder, isNewRequest, orderOf } from './order-of.js';

/** Reading a state, for the host: what to render, whether to poll, what to save. */

export function stepOf(state: FlowState): FlowStep {
  return state.step;
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

/** What to keep in sessionStorage by link hash so a reload resumes the order; null: clear it. */
export function savedOrderOf(state: FlowState): { id_order: number; order_token: string } | null {
  return hasOrder(state) ? { id_order: state.order.id_order, order_token: state.orderToken } : null;
}

/** When the current step's countdown ends (`next_action.expires_at`), or null when there is none. */
export function expiresAtOf(state: FlowState): string | null {
  if (state.step === 'push' || state.step === 'otp' || state.step === 'transfer') return state.action.expires_at;
  return null;
}
