import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { demoSigningSecret, exampleOrderPayment, referenceHmac } from './contract-helpers.js';
import { parseDelivery, WebhookDeliveryError } from '../../src/webhooks/index.js';
import type { WebhookDelivery } from '../../src/webhooks/index.js';

const secret = demoSigningSecret;
const hmac = referenceHmac;

const orderPayment = structuredClone(exampleOrderPayment);
const text = JSON.stringify(orderPayment);

function deliveryHeaders(body: string, event = 'order_payment'): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Service-Event': event,
    'X-Service-Timestamp': '2025-06-01T12:00:01Z',
    'X-Service-Signature': hmac(body),
  };
}

async function rejectsWith(promise: Promise<unknown>, reason: string, field?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WebhookDeliveryError, `expected WebhookDeliveryError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    if (field) assert.ok(error.problems.some((p) => p.field === field), JSON.stringify(error.problems));
    return true;
  });
}

describe('parseDelivery', () => {
  it('turns a signed delivery into a typed event (Headers object, raw text)', async () => {
    const delivery = await parseDelivery({ headers: new Headers(deliveryHeaders(text)), body: text, secret });
    assert.equal(delivery.event, 'order_payment');
    assert.equal(delivery.signatureValid, true);
    assert.equal(delivery.timestamp, '2025-06-01T12:00:01Z');
    if (delivery.event !== 'order_payment') assert.fail('narrowing');
    assert.equal(delivery.payload.id_order, 123);
    assert.equal(delivery.payload.external_store_id, 'demo-store');
  });

  it('reads plain header records in any case, and repeated headers', async () => {
    const lower = Object.fromEntries(Object.entries(deliveryHeaders(text)).map(([k, v]) => [k.toLowerCase(), v]));
    assert.equal((await parseDelivery({ headers: lower, body: text, secret })).signatureValid, true);
    const shouty = { 'X-SERVICE-EVENT': 'order_payment', 'x-service-signature': [hmac(text)] };
    const delivery = await parseDelivery({ headers: shouty, body: text, secret });
    assert.equal(delivery.signatureValid, true);
    assert.equal(delivery.timestamp, orderPayment.timestamp, 'falls back to the payload timestamp');
  });

  it('verifies an already parsed body by re-serializing it compactly', async () => {
    const delivery = await parseDelivery({ headers: deliveryHeaders(text), body: JSON.parse(text) as object, secret });
    assert.equal(delivery.signatureValid, true);
  });

  it('accepts bytes, and pretty-printed text whose compact form was signed', async () => {
    const bytes = new TextEncoder().encode(text);
    assert.equal((await parseDelivery({ headers: deliveryHeaders(text), body: bytes, secret })).signatureValid, true);
    const pretty = JSON.stringify(orderPayment, null, 2);
    assert.equal((await parseDelivery({ headers: deliveryHeaders(text), body: pretty, secret })).signatureValid, true);
  });

  it('accepts a signature over the exact raw text even when it is not compact', async () => {
    const spaced = text.replace('"id_order":123', '"id_order": 123.0');
    const delivery = await parseDelivery({ headers: deliveryHeaders(spaced), body: spaced, secret });
    assert.equal(delivery.signatureValid, true);
  });

  it('reports a bad signature as signatureValid false, and no secret as null', async () => {
    const tampered = text.replace('50000', '1');
    assert.equal((await parseDelivery({ headers: deliveryHeaders(text), body: tampered, secret })).signatureValid, false);
    assert.equal((await parseDelivery({ headers: deliveryHeaders(text), body: text, secret: 'wrong' })).signatureValid, false);
    const unsigned = { 'X-Service-Event': 'order_payment' };
    assert.equal((await parseDelivery({ headers: unsigned, body: text, secret })).signatureValid, false);
    assert.equal((await parseDelivery({ headers: deliveryHeaders(text), body: text })).signatureValid, null);
  });

  it('parses every event of the contract, lenient ones with unknown fields', async () => {
    const bodies = [
      { event: 'store_onboarded', timestamp: '2025-06-01T12:00:00Z', merchant_key: 'mk_new', id_store: 9 },
      { event: 'integration_uninstalled', timestamp: '2025-06-01T12:00:00Z', id_store: 9, external_id: 'x', store_name: 'Nueva' },
      { event: 'link_paid', id_external: 'order-1', status: 'paid', hash: 'demo-fixed' },
      { event: 'test.ping', message: 'hello' },
      { event: 'order_refunded', id_order: 5, whatever: true },
    ];
    for (const body of bodies) {
      const raw = JSON.stringify(body);
      const delivery: WebhookDelivery = await parseDelivery({ headers: deliveryHeaders(raw, body.event), body: raw, secret });
      assert.equal(delivery.event, body.event);
      assert.deepEqual(delivery.payload, body);
      assert.equal(delivery.signatureValid, true);
    }
  });

  it('refuses bad JSON, unknown events, mismatched headers and payloads that break the contract', async () => {
    await rejectsWith(parseDelivery({ headers: {}, body: '{"event":', secret }), 'malformed_json');
    await rejectsWith(parseDelivery({ headers: {}, body: '[1,2]' }), 'invalid_payload', 'body');
    await rejectsWith(parseDelivery({ headers: {}, body: '{"id_order":1}' }), 'invalid_payload', 'event');
    await rejectsWith(parseDelivery({ headers: {}, body: '{"event":"order.confirmed"}' }), 'unknown_event', 'event');
    await rejectsWith(parseDelivery({ headers: {}, body: '{"event":"toString"}' }), 'unknown_event');
    await rejectsWith(parseDelivery({ headers: deliveryHeaders(text, 'link_paid'), body: text }), 'event_mismatch');
    const { id_order: _drop, ...noId } = orderPayment;
    await rejectsWith(parseDelivery({ headers: {}, body: JSON.stringify(noId) }), 'invalid_payload', 'id_order');
  });

  it('works on a real HTTP receiver', async () => {
    const received: WebhookDelivery[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        parseDelivery({ headers: req.headers, body: Buffer.concat(chunks), secret }).then(
          (delivery) => {
            received.push(delivery);
            res.writeHead(delivery.signatureValid ? 200 : 401).end();
          },
          () => res.writeHead(400).end(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const post = (body: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/hooks', headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      assert.equal(await post(text, deliveryHeaders(text)), 200);
      assert.equal(await post(text, { ...deliveryHeaders(text), 'X-Service-Signature': hmac(text, 'nope') }), 401);
      assert.equal(await post('not json', deliveryHeaders('not json')), 400);
      assert.equal(received.length, 2);
      assert.equal(received[0]?.event, 'order_payment');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
