import type { CheckoutGateway } from '../contract/checkout-link.js';
import type { AmountRange } from './types.js';

/** What amounts each payment method takes: the amount and method screens need these (method-fields.ts: the rest). */

/** Lowest `min_amount` and highest `max_amount` of the gateways: what the amount screen accepts. */
export function amountRange(gateways: readonly CheckoutGateway[]): AmountRange {
  if (gateways.length === 0) return { min: 1, max: Number.MAX_SAFE_INTEGER };
  return {
    min: Math.max(1, Math.min(...gateways.map((g) => g.min_amount))),
    max: Math.max(...gateways.map((g) => g.max_amount)),
  };
}

export function gatewayAcceptsAmount(gateway: CheckoutGateway, amount: number): boolean {
  return amount >= gateway.min_amount && amount <= gateway.max_amount;
}
