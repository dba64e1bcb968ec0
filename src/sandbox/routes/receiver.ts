/**
 * The built-in webhook receiver at /sandbox/receiver (and below it): answers every POST with 200
 * `{"received":true}` and keeps what arrived, with whether its signature verifies, so a fresh sandbox
 * shows delivered webhooks without any receiver of the developer's own.
 */
import { Hono, type Context } from 'hono';
import { liveWebhookHeaders, webhookHeaders, type SandboxReceivedWebhook } from '../../contract/index.js';
import { verify } from '../../webhooks/signature.js';
import type { SandboxContext } from '../context.js';
import { readText, refuseDeepText } from '../http.js';

/** Only the most recent requests are kept, as in the delivery log. */
export const receivedLogLimit = 1_000;

export function receiverRoutes(ctx: SandboxContext): Hono {
  const api = new Hono();

  api.post('/*', async (c: Context) => {
    const body = await readText(c);
    refuseDeepText(body); // the dashboard parses and shows it
    const signature = c.req.header(webhookHeaders.signature) ?? c.req.header(liveWebhookHeaders.signature) ?? null;
    const verifiedWith = await signerOf(ctx, body, signature);
    const received = ctx.state.received; // read after the awaits: a reset meanwhile starts a new log
    const record: SandboxReceivedWebhook = {
      id: `rcv_${ctx.state.nextReceivedId++}`,
      received_at: ctx.iso(),
      path: new URL(c.req.url).pathname,
      event: c.req.header(webhookHeaders.event) ?? c.req.header(liveWebhookHeaders.event) ?? null,
      headers: Object.fromEntries(c.req.raw.headers),
      body,
      signature,
      signature_valid: verifiedWith !== null,
      verified_with: verifiedWith,
    };
    received.push(record);
    if (received.length > receivedLogLimit) received.splice(0, received.length - receivedLogLimit);
    return c.json({ received: true });
  });

  api.get('/', (c) => c.json({ data: ctx.state.received }));

  return api;
}

/** Whose signing secret verifies the body: partners first (what forwarding signs with), then stores. */
async function signerOf(ctx: SandboxContext, body: string, signature: string | null): Promise<string | null> {
  if (signature === null) return null;
  const secrets = [
    ...ctx.state.partners.map((p) => [`partner ${p.name}`, p.signing_secret] as const),
    ...ctx.state.stores.map((s) => [`store ${s.external_store_id ?? s.id_store}`, s.signing_secret] as const),
  ];
  for (const [who, secret] of secrets) if (await verify(body, signature, secret)) return who;
  return null;
}
