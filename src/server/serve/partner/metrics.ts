/**
 * Partner mode's metrics per shop, through `@opentelemetry/api` where it is installed (a no-op until an SDK is
 * registered, as the handler's own): orders created, refusals by `api_code`, and notices pending, each with the
 * shop's id as `pay_checkout.store_id`, and nothing personal (no address, phone, name or link).
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import { importApi } from '../../telemetry/telemetry.js';

export interface ShopMetrics {
  /** A buyer's order was created for the shop. */
  order(storeId: string): void;
  /** A buyer's request for the shop was refused (4xx) or failed (5xx). */
  refusal(storeId: string, apiCode: string): void;
}

/** How often the pending notices are counted again at most (each count reads the outbox). */
const pendingEveryMs = 10_000;

export function shopMetrics(pendingByShop: () => Promise<Map<string, number>>): ShopMetrics {
  let instruments: { orders: OpenTelemetry.Counter; refusals: OpenTelemetry.Counter } | undefined;
  let pending = new Map<string, number>();
  let countedAt = -Infinity;
  void importApi().then((api) => {
    if (!api) return;
    const meter = api.metrics.getMeter('pay-checkout');
    instruments = {
      orders: meter.createCounter('pay_checkout.store.orders', { description: 'Buyer orders created, by shop (partner mode).' }),
      refusals: meter.createCounter('pay_checkout.store.refusals', { description: 'Buyer requests refused or failed, by shop and api_code (partner mode).' }),
    };
    const gauge = meter.createObservableGauge('pay_checkout.store.notices_pending', { description: 'Notices to the shop not yet delivered, by shop (partner mode).' });
    gauge.addCallback((result) => {
      if (performance.now() - countedAt >= pendingEveryMs) {
        countedAt = performance.now();
        void pendingByShop().then((counts) => (pending = counts), () => {});
      }
      for (const [storeId, count] of pending) result.observe(count, { 'pay_checkout.store_id': storeId });
    });
  });
  return {
    order: (storeId) => instruments?.orders.add(1, { 'pay_checkout.store_id': storeId }),
    refusal: (storeId, apiCode) => instruments?.refusals.add(1, { 'pay_checkout.store_id': storeId, 'pay_checkout.api_code': apiCode }),
  };
}
