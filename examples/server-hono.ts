/**
 * The buyer API inside a Hono app (the same handler runs on Workers, Deno, Bun or Node).
 *   npm run sandbox            (in another terminal; prints the sandbox URL)
 *   MERCHANT_KEY=mk_test_demo SANDBOX_URL=http://127.0.0.1:4010 npx tsx examples/server-hono.ts
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCheckoutHandler, type CheckoutLinkInfo } from '../src/server/index.js';

const merchantKey = process.env.MERCHANT_KEY;
if (!merchantKey) throw new Error('Set MERCHANT_KEY (the sandbox demo store is mk_test_demo).');
const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
const port = Number(process.env.PORT ?? 3001);

const links: Record<string, CheckoutLinkInfo> = {
  'camiseta-m': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' },
  aporte: { description: 'Aporte voluntario', storeName: 'Tienda Demo' },
};

const handler = createCheckoutHandler({
  merchantKey,
  baseUrl: sandboxUrl.endsWith('/v1') ? sandboxUrl : `${sandboxUrl}/v1`,
  resolveLink: (hash) => links[hash] ?? null,
});

const app = new Hono();
app.get('/', (c) => c.text('Shop home; the buyer API is under /v1/checkout/'));
app.all('/v1/checkout/*', (c) => handler(c.req.raw));
// Probes for Kubernetes or a load balancer (servers/operating.md): alive, and ready while the claim store answers.
app.get('/v1/health', (c) => handler(c.req.raw));
app.get('/v1/health/ready', (c) => handler(c.req.raw));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => {
  console.log(`Buyer API on http://127.0.0.1:${port}/v1/checkout/links/camiseta-m (merchant API: ${sandboxUrl})`);
});
// A graceful stop: stop accepting, answer waiting status requests now and let creates at the service finish (up to
// 10 s, servers/operating.md), then close what is left.
process.once('SIGTERM', () => {
  server.close();
  void handler.drain().finally(() => process.exit(0));
});
