// The sandbox's Vite plugin keeps its sandbox (orders, forwarding) across dev-server restarts and a re-imported
// plugin module, at the new address.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { directOrderBody, gateways, merchant } from './sandbox-harness.js';

describe('Vite plugin', () => {
  test('keeps its sandbox across dev-server restarts and a re-imported plugin module, at the new address', async () => {
    const { createServer } = await import('vite');
    const root = fileURLToPath(new URL('../../demo/', import.meta.url));
    const startVite = async (copy: string) => {
      // A query makes a second copy of the module, as Vite's re-bundled config would.
      const { paySandbox } = (await import(`../../src/sandbox/vite-plugin.ts?${copy}`)) as typeof import('../../src/sandbox/vite-plugin.js');
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'silent',
        server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
        optimizeDeps: { noDiscovery: true, include: [] },
        plugins: [paySandbox()],
      });
      await server.listen();
      return { server, origin: new URL(server.resolvedUrls?.local[0] ?? '').origin };
    };
    const first = await startVite('first');
    let second: Awaited<ReturnType<typeof startVite>> | undefined;
    try {
      const made = await fetch(`${first.origin}/v1/orders`, { method: 'POST', headers: { ...merchant, 'content-type': 'application/json' }, body: JSON.stringify(directOrderBody(gateways.otp)) });
      assert.equal(made.status, 200);
      const id = ((await made.json()) as { data: { id_order: number } }).data.id_order;
      assert.deepEqual(((await (await fetch(`${first.origin}/sandbox/forward`)).json()) as { data: { urls: string[] } }).data.urls, [`${first.origin}/sandbox/receiver`]);

      await first.server.restart();
      const restarted = new URL(first.server.resolvedUrls?.local[0] ?? '').origin;
      assert.equal((await fetch(`${restarted}/sandbox/orders/${id}`)).status, 200, 'the order survived server.restart()');

      await first.server.close();
      second = await startVite('second');
      const kept = await fetch(`${second.origin}/sandbox/orders/${id}`);
      assert.equal(kept.status, 200, 'the order survived a fresh copy of the plugin module');
      const link = (await (await fetch(`${second.origin}/v1/links`, { method: 'POST', headers: { ...merchant, 'content-type': 'application/json' }, body: JSON.stringify({ description: 'Vite', amount: 5_000 }) })).json()) as { data: { payment_url: string } };
      assert.ok(link.data.payment_url.startsWith(`${second.origin}/checkout/`), 'publicUrl follows the new server');
      assert.deepEqual(((await (await fetch(`${second.origin}/sandbox/forward`)).json()) as { data: { urls: string[] } }).data.urls, [`${second.origin}/sandbox/receiver`], 'the receiver moved with it');
    } finally {
      await first.server.close();
      await second?.server.close();
    }
  });
});
