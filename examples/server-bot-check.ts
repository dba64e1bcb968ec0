/**
 * A bot check before every new order, the way a merchant adds Cloudflare Turnstile (or hCaptcha) to the handler.
 *   npm run sandbox            (in another terminal; prints the sandbox URL)
 *   MERCHANT_KEY=mk_test_demo SANDBOX_URL=http://127.0.0.1:4010 npx tsx examples/server-bot-check.ts
 * The page puts the widget's token on the element, which sends it with the order as `X-Bot-Check`:
 *   turnstile.render('#check', { sitekey, callback: (token) => (document.querySelector('pay-checkout').botCheck = token) });
 * Here a fake verifier stands in for Turnstile: `GET /demo/bot-token` hands out a token the way the widget would,
 * good for one order (Turnstile's tokens are single-use and live 5 minutes).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCheckoutHandler, toNodeListener, type BotCheck, type CheckoutLinkInfo } from '../src/server/index.js';

const merchantKey = process.env.MERCHANT_KEY;
if (!merchantKey) throw new Error('Set MERCHANT_KEY (the sandbox demo store is mk_test_demo).');
const sandboxUrl = (process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
const port = Number(process.env.PORT ?? 3000);

const links = new Map<string, CheckoutLinkInfo>([['camiseta-m', { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }]]);

/** The fake widget's tokens, each good once for 5 minutes. */
const issued = new Map<string, number>();

/**
 * What Turnstile's `POST https://challenges.cloudflare.com/turnstile/v0/siteverify` answers, faked. In production:
 *   const answer = await fetch(siteverifyUrl, { method: 'POST', body: new URLSearchParams({ secret, response: token, remoteip }) });
 *   return ((await answer.json()) as { success: boolean }).success;
 */
async function siteverify(token: string): Promise<{ success: boolean }> {
  const expires = issued.get(token);
  issued.delete(token);
  return { success: expires !== undefined && expires > Date.now() };
}

const botCheck: BotCheck = async ({ token }) => token !== null && (await siteverify(token)).success;

const handler = createCheckoutHandler({
  merchantKey,
  baseUrl: sandboxUrl.endsWith('/v1') ? sandboxUrl : `${sandboxUrl}/v1`,
  resolveLink: (hash) => links.get(hash) ?? null,
  botCheck,
});
const listener = toNodeListener(handler);

createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/demo/bot-token') {
    const token = randomUUID();
    issued.set(token, Date.now() + 5 * 60_000);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
    return;
  }
  listener(req, res);
}).listen(port, '127.0.0.1', function (this: { address(): AddressInfo }) {
  console.log(`Buyer API on http://127.0.0.1:${this.address().port}/v1/checkout/links/camiseta-m (merchant API: ${sandboxUrl}); demo tokens at /demo/bot-token`);
});
