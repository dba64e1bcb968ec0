// docs/site/servers/handler.md: the buyer API behind the merchant's own server (pay-checkout/server), and a webhook receiver
// (pay-checkout/webhooks). SANDBOX_URL is the sandbox origin; PORT 0 picks a free port, printed on start.
import { createServer } from 'node:http';
import { createCheckoutHandler, toNodeListener, type CheckoutLinkInfo } from 'pay-checkout/server';
import { parseDelivery, WebhookDeliveryError } from 'pay-checkout/webhooks';

const sandboxUrl = process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010';
const links = new Map<string, CheckoutLinkInfo>([['camiseta-m', { amount: 45_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }]]);
// Only verified deliveries get here (parseDelivery fails closed); secretIndex says which secret verified it.
const received: { event: string; idOrder: number | null; secretIndex: number | null }[] = [];

const buyerApi = toNodeListener(
  createCheckoutHandler({
    merchantKey: process.env.MERCHANT_KEY ?? 'mk_test_demo',
    baseUrl: `${sandboxUrl}/v1`,
    resolveLink: (hash) => links.get(hash) ?? null,
  }),
);

const server = createServer(async (req, res) => {
  if (req.url === '/webhooks/received') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  if (req.url !== '/webhooks/pay') return buyerApi(req, res);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const delivery = await parseDelivery({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), secret: process.env.SIGNING_SECRET ?? 'whsec_test_demo' });
    const payload = delivery.payload as { id_order?: number };
    received.push({ event: delivery.event, idOrder: payload.id_order ?? null, secretIndex: delivery.secretIndex });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
  } catch (error) {
    if (!(error instanceof WebhookDeliveryError)) throw error;
    res.writeHead(error.httpStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, reason: error.reason, message: error.message }));
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening http://127.0.0.1:${address.port}`);
});
