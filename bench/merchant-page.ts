/**
 * A merchant's page for the benches (timing, vitals): a heading, a line of text, the two lines of the README's embed
 * (with the documented reserve or not) and a footer, served on another origin: `localhost`, while the sandbox is
 * `127.0.0.1` (cross-origin, and both loopback, so Chromium's private-network rules let the script load).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSandbox } from '../src/sandbox/server.js';

/** The reserve the merchants' page documents (docs/site/merchants/index.md): the room the first screen takes. */
export const documentedReserve = 'pay-checkout{display:block;min-block-size:38rem}';

export interface MerchantPage {
  /** The page's address for a link, with the reserve in its style or not. */
  url(link: string, reserve?: boolean): string;
  close(): Promise<void>;
}

export async function startMerchantPage(sandbox: RunningSandbox): Promise<MerchantPage> {
  const page = (reserve: boolean, link: string) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tienda</title>${reserve ? `<style>${documentedReserve}</style>` : ''}
<script type="module" src="${sandbox.url}/pay-checkout.js"></script></head>
<body><h1>Tienda Demo</h1><p>Paga tu pedido con el medio que prefieras.</p>
<pay-checkout link="${link}" api-base="${sandbox.url}/v1"></pay-checkout>
<footer><p>Tienda Demo · Bogotá · contacto@tienda.example</p></footer></body></html>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(url.pathname === '/reserve', url.searchParams.get('link') ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (link, reserve = false) => `http://localhost:${port}/${reserve ? 'reserve' : ''}?link=${encodeURIComponent(link)}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
