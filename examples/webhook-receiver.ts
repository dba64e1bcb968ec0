/**
 * A webhook receiver that fails closed and processes each delivery once, however many instances run it.
 *   npm run sandbox            (in another terminal; prints the sandbox URL)
 *   SIGNING_SECRET=whsec_test_demo SANDBOX_URL=http://127.0.0.1:4010 npx tsx examples/webhook-receiver.ts
 * It asks the sandbox to forward its webhooks here; pay an order in the demo and watch the log.
 * With REDIS_URL set, the instances share Redis; otherwise one process's memory.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { memoryClaimStore } from '../src/server/index.js';
import { createRedisStore } from '../src/server/redis/index.js';
import { parseDelivery, processOnce, WebhookDeliveryError, type DeliveryClaims, type WebhookDelivery } from '../src/webhooks/index.js';

/** The receiver as a Hono app: verify (secret or rotation list), process once, answer by outcome. */
export function webhookReceiver(claims: DeliveryClaims, secret: string | string[], work: (delivery: WebhookDelivery) => Promise<void>, now?: () => number): Hono {
  const app = new Hono();
  app.post('/webhooks/pay', async (c) => {
    try {
      const delivery = await parseDelivery({ headers: c.req.raw.headers, body: await c.req.text(), secret, ...(now ? { now } : {}) });
      const once = await processOnce(claims, delivery, work);
      // Another instance is running this very delivery: a 503 makes the service retry, and the retry finds it done.
      if (once.outcome === 'in_progress') return c.json({ error: true }, 503);
      return c.json({ received: true, outcome: once.outcome });
    } catch (error) {
      // 401 signature, 400 stale or malformed (final), 500 no secret configured (retried once fixed).
      if (error instanceof WebhookDeliveryError) return c.json({ error: true, reason: error.reason }, error.httpStatus as 400 | 401 | 500);
      throw error; // the work failed and released its claim: the 500 makes the service retry
    }
  });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.SIGNING_SECRET;
  if (!secret) throw new Error('Set SIGNING_SECRET (the sandbox demo partner signs with whsec_test_demo).');
  const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
  const port = Number(process.env.PORT ?? 3002);
  const claims = process.env.REDIS_URL ? createRedisStore({ url: process.env.REDIS_URL }) : memoryClaimStore();
  const app = webhookReceiver(claims, secret, async ({ event, payload }) => {
    console.log(`${event}:`, JSON.stringify(payload));
  });
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, async () => {
    const url = `http://127.0.0.1:${port}/webhooks/pay`;
    const forwarded = await fetch(`${sandboxUrl}/sandbox/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
    console.log(`Receiving on ${url} (sandbox forwarding: ${forwarded.status})`);
  });
}
