/**
 * Deliveries as the live service's webhook pages show them: `X-Wava-*` headers, `data`-nested payloads,
 * older event names. The signature check is the same under either header family.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoSigningSecret, referenceHmac } from './contract-helpers.js';
import { parseDelivery, WebhookDeliveryError } from '../../src/webhooks/index.js';

const secret = demoSigningSecret;
const timestamp = '2025-06-01T12:00:00.000Z';
const now = () => Date.parse(timestamp) + 30_000;

const wava = (raw: string, event: string, key = secret) => ({
  'Content-Type': 'application/json',
  'X-Wava-Event': event,
  'X-Wava-Timestamp': timestamp,
  'X-Wava-Signature': referenceHmac(raw, key),
  'User-Agent': 'Wava-Webhooks/1.0',
});
const service = (raw: string, event: string, key = secret) => ({ 'X-Service-Event': event, 'X-Service-Signature': referenceHmac(raw, key) });

const nested = { event: 'order_payment', timestamp, data: { id_order: 77, id_external: 'pc_ok_abc', status: 'CONFIRMED', amount: 50000, currency: 'COP' } };

async function refused(promise: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof WebhookDeliveryError && error.reason === reason && error.httpStatus === 401);
}

describe('parseDelivery: the live service dialect', () => {
  it('verifies X-Wava-* and flattens a data-nested order_payment, status in lower case', async () => {
    const raw = JSON.stringify(nested);
    const delivery = await parseDelivery({ headers: wava(raw, 'order_payment'), body: raw, secret, now });
    assert.equal(delivery.event, 'order_payment');
    if (delivery.event !== 'order_payment') assert.fail('narrowing');
    assert.equal(delivery.headerFamily, 'wava');
    assert.equal(delivery.layout, 'nested');
    assert.equal(delivery.payload.id_order, 77);
    assert.equal(delivery.payload.id_external, 'pc_ok_abc');
    assert.equal(delivery.payload.status, 'confirmed');
    assert.equal(delivery.payload.total_price, 50000);
    assert.equal(delivery.timestamp, timestamp);
  });

  it('the same nested body under X-Service-* headers is read the same way', async () => {
    const raw = JSON.stringify(nested);
    const delivery = await parseDelivery({ headers: service(raw, 'order_payment'), body: raw, secret, now });
    assert.equal(delivery.event, 'order_payment');
    assert.equal(delivery.headerFamily, 'service');
  });

  it('maps the older event names to the typed events', async () => {
    for (const [old, typed] of [['order.confirmed', 'order_payment'], ['order.cancelled', 'order_cancelled'], ['order.refunded', 'order_refunded']] as const) {
      const raw = JSON.stringify({ event: old, timestamp, data: { id_order: 5, status: typed === 'order_payment' ? 'confirmed' : 'cancelled', amount: 1000, payment_gateway: 'nequi' } });
      const delivery = await parseDelivery({ headers: wava(raw, old), body: raw, secret, now });
      assert.equal(delivery.event, typed, old);
      assert.equal((delivery.payload as { id_order: number }).id_order, 5);
    }
  });

  it('a forged or missing signature is refused (401) under either family', async () => {
    const raw = JSON.stringify(nested);
    await refused(parseDelivery({ headers: wava(raw, 'order_payment', 'whsec_forged_by_someone'), body: raw, secret, now }), 'invalid_signature');
    await refused(parseDelivery({ headers: service(raw, 'order_payment', 'whsec_forged_by_someone'), body: raw, secret, now }), 'invalid_signature');
    const tampered = JSON.stringify({ ...nested, data: { ...nested.data, amount: 1 } });
    await refused(parseDelivery({ headers: wava(raw, 'order_payment'), body: tampered, secret, now }), 'invalid_signature');
    await refused(parseDelivery({ headers: { 'X-Wava-Event': 'order_payment', 'User-Agent': 'Wava-Webhooks/1.0' }, body: raw, secret, now }), 'missing_signature');
    await refused(parseDelivery({ headers: { 'X-Wava-Signature': 'sha256=' + referenceHmac(raw, secret) }, body: raw, secret, now }), 'invalid_signature');
  });

  it('a signed unknown live event is an unknown delivery carrying the body as sent', async () => {
    const body = { event: 'order_created', timestamp, data: { id_order: 9 } };
    const raw = JSON.stringify(body);
    const delivery = await parseDelivery({ headers: wava(raw, 'order_created'), body: raw, secret, now });
    assert.equal(delivery.event, 'unknown');
    if (delivery.event !== 'unknown') assert.fail('narrowing');
    assert.equal(delivery.name, 'order_created');
    assert.equal(delivery.headerFamily, 'wava');
    assert.deepEqual(delivery.payload, body);
  });
});
