/**
 * The buyer API with its metrics for Prometheus and its traces through OpenTelemetry (docs/site/servers/operating.md).
 *   npm run sandbox            (in another terminal; prints the sandbox URL)
 *   MERCHANT_KEY=mk_test_demo SANDBOX_URL=http://127.0.0.1:4010 npx tsx examples/server-opentelemetry.ts
 *   curl http://127.0.0.1:9464/metrics
 * The SDK is registered before the handler is made: pay-checkout records through `@opentelemetry/api` only, and
 * records nothing until an SDK is there. SDK 2.x and exporter-prometheus 0.2xx run on Node 20 (3.x needs Node 22).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { createCheckoutHandler, serve, type CheckoutLinkInfo } from '../src/server/index.js';

const merchantKey = process.env.MERCHANT_KEY;
if (!merchantKey) throw new Error('Set MERCHANT_KEY (the sandbox demo store is mk_test_demo).');
const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');

// Metrics: pulled by Prometheus from /metrics on a port of its own, never the public one.
const prometheus = new PrometheusExporter({ preventServerStart: true });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [prometheus] }));
// Traces: spans carry their parent across awaits, and `traceparent` goes out on each call to the payment service. Add
// your exporter here (OTLP to a collector, Jaeger, Honeycomb, …) with `spanProcessors: [new BatchSpanProcessor(exporter)]`.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(new BasicTracerProvider());

const links = new Map<string, CheckoutLinkInfo>([['camiseta-m', { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }]]);
const handler = createCheckoutHandler({
  merchantKey,
  baseUrl: sandboxUrl.endsWith('/v1') ? sandboxUrl : `${sandboxUrl}/v1`,
  resolveLink: (hash) => links.get(hash) ?? null,
  // The sandbox signs forwarded webhooks with the demo partner's secret.
  webhookSecret: process.env.WEBHOOK_SECRET ?? 'whsec_test_demo',
  // Structured events, one JSON line each, for a log shipper (default: a readable console line).
  onEvent: (event) => console.log(JSON.stringify(event)),
});

const server = await serve(handler, { port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
const metricsServer = http.createServer((request, response) => {
  if (request.url === '/metrics') return prometheus.getMetricsRequestHandler(request, response);
  response.writeHead(404).end();
});
metricsServer.listen(Number(process.env.METRICS_PORT ?? 9464), '127.0.0.1', () => {
  console.log(`Metrics on http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`);
  console.log(`Buyer API on ${server.url}/v1/checkout/links/camiseta-m (merchant API: ${sandboxUrl})`);
});

// SIGTERM: /health/ready answers 503 at once, the load balancer stops sending (acceptForMs), waiting status requests
// are answered now, creates at the service finish (up to 10 s); then the process ends.
process.once('SIGTERM', () => {
  void server
    .close({ acceptForMs: Number(process.env.ACCEPT_FOR_MS ?? 0) })
    .then(() => prometheus.shutdown())
    .finally(() => {
      metricsServer.close();
      process.exit(0);
    });
});
