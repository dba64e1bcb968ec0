// The server handler behind Node http on an ephemeral port, for the suites that speak to it over real sockets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCheckoutHandler, toNodeListener, type CheckoutHandlerOptions } from '../../src/server/index.js';

export interface ServedHandler {
  url: string;
  baseUrl: string;
  close(): Promise<void>;
}

export async function serveHandler(options: CheckoutHandlerOptions): Promise<ServedHandler> {
  const server: Server = createServer(toNodeListener(createCheckoutHandler(options)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const demoLinks = {
  'camiseta-m': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' },
  aporte: { description: 'Aporte voluntario', storeName: 'Tienda Demo' },
};
export const resolveDemoLink = (hash: string) => demoLinks[hash as keyof typeof demoLinks] ?? null;
export const pushOrderBody = { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '1020304050', id_type: 1, phone_number: '3001234567' } };
