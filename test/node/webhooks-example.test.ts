/** examples/webhook-receiver.ts against the sandbox over real sockets: signed deliveries are processed once, the rest refused. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { serve } from '@hono/node-server';
import { webhookReceiver } from '../../examples/webhook-receiver.js';
import { memoryClaimStore } from '../../src/server/index.js';
import type { WebhookDelivery } from '../../src/webhooks/index.js';
import { demoSigningSecret, referenceHmac } from './contract-helpers.js';
import { checkoutOrder, gateways, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

let sb: TestSandbox;
let server: ReturnType<typeof serve>;
let url = '';
const processed: WebhookDelivery[] = [];

before(async () => {
  sb = await startTestSandbox();
  const app = webhookReceiver(memoryClaimStore(), ['whsec_new_not_used_yet', demoSigningSecret], async (d) => void processed.push(d), () => sb.clock.now());
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/pay`;
  assert.equal((await sb.api('POST', '/sandbox/forward', { url })).status, 200);
});
after(async () => {
  await sb.close();
  await new Promise((resolve) => server.close(resolve));
});

test('a paid order reaches the work once; a copy sent again is a duplicate; tampered or stale copies are refused', async () => {
  const created = await checkoutOrder(sb, 'demo-fixed', gateways.transfer);
  const id: number = created.body.data.id_order;
  assert.equal((await sb.api('POST', `/sandbox/orders/${id}/pay`)).status, 200);
  const deadline = performance.now() + 20_000;
  while (!processed.some((d) => d.event === 'link_paid')) {
    if (performance.now() > deadline) assert.fail(`not processed: ${JSON.stringify(processed.map((d) => d.event))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(processed.map((d) => d.event).sort(), ['link_paid', 'order_payment']);
  assert.equal(processed[0]?.secretIndex, 1, 'verified by the second secret of the rotation list');

  const sent = ((await sb.api('GET', '/sandbox/deliveries')).body.data as { event: string; body: string; signature: string }[]).find((d) => d.event === 'order_payment')!;
  const post = (body: string, signature: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signature }, body });
  const again = await post(sent.body, sent.signature);
  assert.deepEqual([again.status, await again.json()], [200, { received: true, outcome: 'duplicate' }]);
  assert.equal((await post(sent.body.replace(/"id_order":\d+/, '"id_order":424242'), sent.signature)).status, 401);
  const stale = sent.body.replace(/"timestamp":"[^"]+"/, '"timestamp":"2020-01-01T00:00:00.000Z"');
  assert.equal((await post(stale, referenceHmac(stale))).status, 400);
  assert.equal(processed.length, 2);
});
