/**
 * The buyer API on several instances sharing Redis: one order per Idempotency-Key whichever instance a request
 * reaches, and a signed order_payment webhook on any instance settles a create whose outcome was unknown.
 *   redis-server --port 6379 --save '' --appendonly no       (or any Redis 6+)
 *   npm run sandbox -- --no-order-key-dedupe                  (the exactly-once guarantee is then the handler's alone)
 *   REDIS_URL=redis://127.0.0.1:6379 MERCHANT_KEY=mk_test_demo SANDBOX_URL=http://127.0.0.1:4010 PORT=3000 npx tsx examples/server-redis.ts
 *   ...the same with PORT=3001 for a second instance, and a load balancer in front of both.
 * Forward the sandbox's webhooks here: curl -X POST $SANDBOX_URL/sandbox/forward -d '{"url":"http://127.0.0.1:3000/v1/webhooks"}' -H 'content-type: application/json'
 */
import { createCheckoutHandler, serve, type CheckoutLinkInfo } from '../src/server/index.js';
import { createRedisStore } from '../src/server/redis/index.js';

const merchantKey = process.env.MERCHANT_KEY;
const redisUrl = process.env.REDIS_URL;
if (!merchantKey || !redisUrl) throw new Error('Set MERCHANT_KEY (the sandbox demo store is mk_test_demo) and REDIS_URL.');
const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');

const links = new Map<string, CheckoutLinkInfo>([['camiseta-m', { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }]]);

// One store per process; every instance points at the same Redis.
const store = createRedisStore({ url: redisUrl });
const handler = createCheckoutHandler({
  merchantKey,
  baseUrl: sandboxUrl.endsWith('/v1') ? sandboxUrl : `${sandboxUrl}/v1`,
  resolveLink: (hash) => links.get(hash) ?? null,
  store,
  // Every instance must share these: a list while rotating (sign with the first, accept any).
  secret: (process.env.ORDER_TOKEN_SECRETS ?? 'example-order-token-secret').split(','),
  // The sandbox signs forwarded webhooks with the demo partner's secret.
  webhookSecret: process.env.WEBHOOK_SECRET ?? 'whsec_test_demo',
});

// Behind the load balancer every connection comes from it: no per-address cap (servers/node.md).
const server = await serve(handler, { port: Number(process.env.PORT ?? 3000), host: '127.0.0.1', maxConnectionsPerAddress: Infinity });
console.log(`Buyer API on ${server.url}/v1 (claims in ${redisUrl}, merchant API ${sandboxUrl})`);
// A graceful stop (servers/operating.md): /health/ready answers 503 and the load balancer, probing it, stops sending
// (acceptForMs: a little over two probe intervals); waiting status requests are answered now; creates at the service
// finish (up to 10 s), so none is left in doubt; then the store's connections close.
process.once('SIGTERM', () => {
  void server
    .close({ acceptForMs: Number(process.env.ACCEPT_FOR_MS ?? 0) })
    .then(() => store.close?.())
    .finally(() => process.exit(0));
});
