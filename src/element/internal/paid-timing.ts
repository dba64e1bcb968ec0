import type { GatewayKind } from '../../contract/gateways.js';
import { markTiming } from './user-timing.js';

/** The order's marks, with the later steps: created, and paid with the time from the first screen to the receipt. */
export function markOrderCreated(gateway: GatewayKind): void {
  markTiming('order-created', { detail: { gateway } });
}

export function markPaid(gateway: GatewayKind): void {
  const detail = { gateway };
  markTiming('paid', { detail });
  try {
    if (performance.getEntriesByName('pay-checkout:first-screen', 'mark').length > 0) {
      performance.measure('pay-checkout:time-to-pay', { start: 'pay-checkout:first-screen', end: 'pay-checkout:paid', detail });
    }
  } catch {
    // As markTiming: an engine without User Timing level 3.
  }
}
