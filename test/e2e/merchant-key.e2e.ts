/**
 * A merchant page that (wrongly) puts its merchant key on the element, loading the built
 * dist/pay-checkout.js from its own origin: the element refuses the key visibly, and the key never leaves
 * the page in any URL, header or body, through a whole payment.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Buyer, completeOutside, distDir, onlyOrder, startWorld, type World } from './support/harness.js';

const merchantKey = 'mk_test_demo';

/** The merchant's own site: the embed page and the built script, on an origin other than the sandbox's. */
function merchantSite(apiBase: string, how: 'attribute' | 'property'): Promise<{ url: string; server: Server }> {
  const page = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Tienda</title>
<script type="module" src="/dist/pay-checkout.js"></script></head><body>
${how === 'attribute' ? `<pay-checkout link="demo-fixed" api-base="${apiBase}" merchant-key="${merchantKey}"></pay-checkout>` : `<pay-checkout link="demo-fixed" api-base="${apiBase}"></pay-checkout><script type="module" src="/set-key.js"></script>`}
</body></html>`;
  const setKey = `customElements.whenDefined('pay-checkout').then(() => { document.querySelector('pay-checkout').merchantKey = '${merchantKey}'; });`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    if (url.pathname === '/set-key.js') return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(setKey);
    const file = path.join(distDir, path.normalize(url.pathname.replace(/^\/dist\//, '')));
    if (!url.pathname.startsWith('/dist/') || !file.startsWith(distDir + path.sep)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server })));
}

describe('a merchant key given to the element', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());

  for (const how of ['attribute', 'property'] as const) {
    it(`set as ${how === 'attribute' ? 'an attribute' : 'a property'}: refused on screen and in the console, and never sent`, async () => {
      await world.reset();
      const site = await merchantSite(world.sandbox.baseUrl, how);
      const buyer = await Buyer.create(world);
      const leaks: string[] = [];
      let apiRequests = 0;
      buyer.page.on('request', async (request) => {
        if (request.url().startsWith(world.sandbox.url)) apiRequests += 1;
        const headers = await request.allHeaders();
        const wire = [request.url(), ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), request.postData() ?? ''].join('\n');
        if (wire.includes(merchantKey)) leaks.push(`${request.method()} ${request.url()}`);
      });
      try {
        await buyer.page.goto(site.url);
        await buyer.waitForStep('method');
        await buyer.page.getByText('la página incluye una llave secreta del comercio').waitFor();
        assert.ok(buyer.consoleErrors.some((m) => m.includes('merchant key')), `console error: ${buyer.consoleErrors.join(' | ')}`);
        assert.equal(await buyer.page.evaluate(() => document.querySelector('pay-checkout')?.merchantKey), undefined, 'the key is not kept');
        // A whole payment: link, order, status checks; none may carry the key.
        await buyer.chooseMethod('Nequi');
        await buyer.fillDetails({ phone: '3001234567' });
        await buyer.payButton().click();
        await buyer.waitForStep('push');
        await completeOutside(world, await onlyOrder(world, 'demo-fixed'));
        await buyer.waitForStep('paid');
        assert.ok(apiRequests >= 3, `the payment went through the sandbox (${apiRequests} requests)`);
        assert.deepEqual(leaks, []);
      } finally {
        await buyer.close();
        site.server.close();
      }
    });
  }
});
