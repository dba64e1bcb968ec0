/**
 * The buyer API on a plain Node `http` server, holding the merchant key, with serve()'s timeouts and connection caps.
 *   npm run sandbox            (in another terminal; prints the sandbox URL)
 *   MERCHANT_KEY=mk_test_demo SANDBOX_URL=http://127.0.0.1:4010 npx tsx examples/server-node-http.ts
 * Then point the element at it: <pay-checkout link="camiseta-m" api-base="http://127.0.0.1:3000/v1">.
 */
import { createCheckoutHandler, serve, type CheckoutLinkInfo } from '../src/server/index.js';

const merchantKey = process.env.MERCHANT_KEY;
if (!merchantKey) throw new Error('Set MERCHANT_KEY (the sandbox demo store is mk_test_demo).');
const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
const port = Number(process.env.PORT ?? 3000);

// The merchant's own payment links; in a real shop, a database lookup.
const links = new Map<string, CheckoutLinkInfo>([
  ['camiseta-m', { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }],
  ['aporte', { description: 'Aporte voluntario', storeName: 'Tienda Demo' }],
]);

const handler = createCheckoutHandler({
  merchantKey,
  baseUrl: sandboxUrl.endsWith('/v1') ? sandboxUrl : `${sandboxUrl}/v1`,
  resolveLink: (hash) => links.get(hash) ?? null,
  // A page served from another origin (a Vite dev server, say) needs to be listed here.
  allowedOrigins: (process.env.ALLOWED_ORIGINS ?? '').split(',').filter(Boolean),
});

// serve(): header and body timeouts, keep-alive, and connection caps (in all and per address) already set; see
// docs/site/servers/node.md. Behind a proxy or load balancer, pass maxConnectionsPerAddress: Infinity.
const server = await serve(handler, { port, host: '127.0.0.1' });
console.log(`Buyer API on ${server.url}/v1/checkout/links/camiseta-m (merchant API: ${sandboxUrl})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
