/**
 * Partner mode's metrics per shop through a registered OpenTelemetry SDK: orders and refusals counted under the
 * shop's id (`pay_checkout.store_id`), refusals by `api_code`, notices pending by shop; no other attribute.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { shopMetrics } from '../../src/server/serve/partner/metrics.js';
import { importApi } from '../../src/server/telemetry/telemetry.js';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const provider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(provider);
after(() => provider.shutdown());

const points = async (name: string) => {
  exporter.reset();
  await reader.forceFlush();
  return exporter
    .getMetrics()
    .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
    .filter((m) => m.descriptor.name === name)
    .flatMap((m) => m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
};

describe('per-shop metrics of partner mode', () => {
  it('counts orders, refusals and pending notices under each shop id, and nothing personal', async () => {
    const shops = shopMetrics(async () => new Map([['st_a', 3], ['st_b', 0]]));
    // The API module is imported once, in the background: the same import settled here, then its callback has run.
    await importApi();
    await new Promise((r) => setImmediate(r));
    shops.order('st_a');
    shops.order('st_a');
    shops.order('st_b');
    shops.refusal('st_b', 'LIMIT_REACHED');
    assert.deepEqual(
      (await points('pay_checkout.store.orders')).map((p) => [p.attributes, p.value]),
      [[{ 'pay_checkout.store_id': 'st_a' }, 2], [{ 'pay_checkout.store_id': 'st_b' }, 1]],
    );
    assert.deepEqual((await points('pay_checkout.store.refusals')).map((p) => p.attributes), [{ 'pay_checkout.store_id': 'st_b', 'pay_checkout.api_code': 'LIMIT_REACHED' }]);
    // The first collection starts the count; the next one reports it.
    await points('pay_checkout.store.notices_pending');
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual((await points('pay_checkout.store.notices_pending')).map((p) => [p.attributes, p.value]), [[{ 'pay_checkout.store_id': 'st_a' }, 3], [{ 'pay_checkout.store_id': 'st_b' }, 0]]);
  });
});
