/** createCheckoutHandler() on a real socket for the Node suites, and a buyer's create over HTTP. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCheckoutHandler, toNodeListener, type CheckoutHandlerOptions, type CheckoutLinkInfo } from '../../src/server/index.js';

export interface RunningHandler {
  url: string;
  close(): Promise<void>;
}

export const handlerLinks: Record<string, CheckoutLinkInfo> = {
  'camiseta-m': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' },
  aporte: { description: 'Aporte voluntario', storeName: 'Tienda Demo' },
};
export const resolveHandlerLink = (hash: string) => handlerLinks[hash] ?? null;
export const pushOrderBody = { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '1020304050', id_type: 1, phone_number: '3001234567' } };

export async function serveHandler(options: CheckoutHandlerOptions): Promise<RunningHandler> {
  // Suites that are not about the abuse limits create many orders for one fixture phone: limits off unless asked.
  return listenOnLoopback(createServer(toNodeListener(createCheckoutHandler({ limits: false, ...options }))));
}

/** A server on 127.0.0.1 and a free port; `close()` ends its connections too. */
export async function listenOnLoopback(server: Server): Promise<RunningHandler> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface BuyerReply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** `POST /v1/checkout/links/{hash}/orders` as the element sends it. */
export async function postOrder(origin: string, key: string, body: unknown = pushOrderBody, hash = 'camiseta-m'): Promise<BuyerReply> {
  const response = await fetch(`${origin}/v1/checkout/links/${hash}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
