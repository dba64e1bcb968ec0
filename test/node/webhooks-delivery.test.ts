import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { demoSigningSecret, exampleOrderPayment, referenceHmac } from './contract-helpers.js';
import { parseDelivery, WebhookDeliveryError } from '../../src/webhooks/index.js';
import type { DeliveryInput, WebhookDelivery } from '../../src/webhooks/index.js';

const secret = demoSigningSecret;
const hmac = referenceHmac;

const orderPayment = structuredClone(exampleOrderPayment);
const text = JSON.stringify(orderPayment);
/** 30 s after the example's signed timestamp. */
const now = () => Date.parse(orderPayment.timestamp) + 30_000;

function deliveryHeaders(body: string, event = 'order_payment', key = secret): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Service-Event': event,
    'X-Service-Timestamp': '2025-06-01T12:00:01Z',
    'X-Service-Signature': hmac(body, key),
  };
}

const parse = (input: Omit<DeliveryInput, 'secret' | 'dangerouslySkipSignatureCheck'> & { secret?: string | string[]; toleranceMs?: number; now?: () => number }) =>
  parseDelivery({ now, ...input, secret: input.secret ?? secret });

async function rejectsWith(promise: Promise<unknown>, reason: string, field?: string): Promise<WebhookDeliveryError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    assert.ok(error instanceof WebhookDeliveryError, `expected WebhookDeliveryError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    if (field) assert.ok(error.problems.some((p) => p.field === field), JSON.stringify(error.problems));
    return true;
  });
  return caught as WebhookDeliveryError;
}

describe('parseDelivery', () => {
  it('turns a signed delivery into a typed event (Headers object, raw text)', async () => {
    const delivery = await parse({ headers: new Headers(deliveryHeaders(text)), body: text });
    assert.equal(delivery.event, 'order_payment');
    assert.equal(delivery.secretIndex, 0);
    assert.equal(delivery.timestamp, orderPayment.timestamp, 'the signed timestamp, not the unsigned header');
    if (delivery.event !== 'order_payment') assert.fail('narrowing');
    assert.equal(delivery.payload.id_order, 123);
    assert.equal(delivery.payload.external_store_id, 'demo-store');
  });

  it('reads plain header records in any case, and repeated headers', async () => {
    const lower = Object.fromEntries(Object.entries(deliveryHeaders(text)).map(([k, v]) => [k.toLowerCase(), v]));
    assert.equal((await parse({ headers: lower, body: text })).secretIndex, 0);
    const shouty = { 'X-SERVICE-EVENT': 'order_payment', 'x-service-signature': [hmac(text)] };
    assert.equal((await parse({ headers: shouty, body: text })).timestamp, orderPayment.timestamp);
  });

  it('verifies an already parsed body by re-serializing it compactly; bytes and pretty text too', async () => {
    assert.equal((await parse({ headers: deliveryHeaders(text), body: JSON.parse(text) as object })).secretIndex, 0);
    assert.equal((await parse({ headers: deliveryHeaders(text), body: new TextEncoder().encode(text) })).secretIndex, 0);
    assert.equal((await parse({ headers: deliveryHeaders(text), body: JSON.stringify(orderPayment, null, 2) })).secretIndex, 0);
  });

  it('accepts a signature over the exact raw text even when it is not compact', async () => {
    const spaced = text.replace('"id_order":123', '"id_order": 123.0');
    assert.equal((await parse({ headers: deliveryHeaders(spaced), body: spaced })).secretIndex, 0);
  });

  describe('fails closed: a typed error and no payload', () => {
    it('without a secret (missing, empty, an empty list), even for a correctly signed body', async () => {
      for (const missing of [undefined, '', [], ['']]) {
        const input = { headers: deliveryHeaders(text), body: text, secret: missing } as unknown as DeliveryInput;
        const error = await rejectsWith(parseDelivery(input), 'no_secret');
        assert.equal(error.httpStatus, 500, 'the receiver is misconfigured: a 5xx lets the service retry once it is fixed');
      }
    });

    it('with a tampered body, a wrong secret or a malformed signature: invalid_signature, 401', async () => {
      const tampered = text.replace('50000', '1');
      assert.equal((await rejectsWith(parse({ headers: deliveryHeaders(text), body: tampered }), 'invalid_signature')).httpStatus, 401);
      await rejectsWith(parse({ headers: deliveryHeaders(text), body: text, secret: 'wrong' }), 'invalid_signature');
      for (const signature of [hmac(text).toUpperCase(), `sha256=${hmac(text)}`, 'abc']) {
        await rejectsWith(parse({ headers: { ...deliveryHeaders(text), 'X-Service-Signature': signature }, body: text }), 'invalid_signature');
      }
    });

    it('without a signature header: missing_signature, 401, before the body is even parsed', async () => {
      const error = await rejectsWith(parse({ headers: { 'X-Service-Event': 'order_payment' }, body: '{not json' }), 'missing_signature');
      assert.equal(error.httpStatus, 401);
    });

    it('a signed body from 2020 does not verify today (default window: 5 minutes, measured on the signed timestamp)', async () => {
      const old = JSON.stringify({ ...orderPayment, timestamp: '2020-01-01T00:00:00Z' });
      const error = await rejectsWith(parseDelivery({ headers: deliveryHeaders(old), body: old, secret }), 'timestamp_outside_tolerance', 'timestamp');
      assert.equal(error.httpStatus, 400);
    });

    it('the window is 5 minutes either way by default, and configurable', async () => {
      const at = Date.parse(orderPayment.timestamp);
      const headers = deliveryHeaders(text);
      assert.equal((await parse({ headers, body: text, now: () => at + 4 * 60_000 })).secretIndex, 0);
      assert.equal((await parse({ headers, body: text, now: () => at - 4 * 60_000 })).secretIndex, 0);
      await rejectsWith(parse({ headers, body: text, now: () => at + 5 * 60_000 + 1 }), 'timestamp_outside_tolerance');
      await rejectsWith(parse({ headers, body: text, now: () => at - 5 * 60_000 - 1 }), 'timestamp_outside_tolerance');
      await rejectsWith(parse({ headers, body: text, now: () => at + 61_000, toleranceMs: 60_000 }), 'timestamp_outside_tolerance');
      assert.equal((await parse({ headers, body: text, now: () => at + 10 * 365 * 86_400_000, toleranceMs: Infinity })).secretIndex, 0);
    });

    it('a fresh unsigned X-Service-Timestamp header never rescues an old signed body', async () => {
      const old = JSON.stringify({ ...orderPayment, timestamp: '2025-06-01T11:00:00Z' });
      const headers = { ...deliveryHeaders(old), 'X-Service-Timestamp': new Date(now()).toISOString() };
      await rejectsWith(parse({ headers, body: old }), 'timestamp_outside_tolerance');
    });

    it('a signed body without a timestamp cannot be checked for age, so it is refused', async () => {
      const ping = JSON.stringify({ event: 'test.ping', message: 'hola' });
      await rejectsWith(parse({ headers: deliveryHeaders(ping, 'test.ping'), body: ping }), 'missing_timestamp', 'timestamp');
      assert.equal((await parse({ headers: deliveryHeaders(ping, 'test.ping'), body: ping, toleranceMs: Infinity })).timestamp, null);
    });
  });

  it('accepts any secret of a list (rotation) and says which one verified', async () => {
    const headers = deliveryHeaders(text, 'order_payment', 'whsec_old_secret');
    assert.equal((await parse({ headers, body: text, secret: ['whsec_new_secret', 'whsec_old_secret'] })).secretIndex, 1);
    assert.equal((await parse({ headers: deliveryHeaders(text), body: text, secret: [secret, 'whsec_old_secret'] })).secretIndex, 0);
    await rejectsWith(parse({ headers, body: text, secret: ['whsec_new_secret', 'whsec_another'] }), 'invalid_signature');
  });

  it('parses every event of the contract, lenient ones with unknown fields', async () => {
    const timestamp = orderPayment.timestamp;
    const bodies = [
      { event: 'store_onboarded', timestamp, merchant_key: 'mk_new', id_store: 9 },
      { event: 'integration_uninstalled', timestamp, id_store: 9, external_id: 'x', store_name: 'Nueva' },
      { event: 'link_paid', timestamp, id_external: 'order-1', status: 'paid', hash: 'demo-fixed' },
      { event: 'test.ping', timestamp, message: 'hello' },
      { event: 'order_refunded', timestamp, id_order: 5, whatever: true },
    ];
    for (const body of bodies) {
      const raw = JSON.stringify(body);
      const delivery: WebhookDelivery = await parse({ headers: deliveryHeaders(raw, body.event), body: raw });
      assert.equal(delivery.event, body.event);
      assert.deepEqual(delivery.payload, body);
    }
  });

  it('refuses bad JSON and mismatched headers (signed or not)', async () => {
    const signed = (raw: string, event?: string) => parse({ headers: event ? deliveryHeaders(raw, event) : { 'X-Service-Signature': hmac(raw) }, body: raw });
    await rejectsWith(signed('{"event":'), 'malformed_json');
    await rejectsWith(signed(text, 'link_paid'), 'event_mismatch');
  });

  // A verified body whose event or shape is unknown is handed over as it came, never refused (a 4xx makes
  // the service drop it for good); an unsigned one is still refused, and a signed one still needs its timestamp.
  it('hands a signed body of unknown event or shape over as an unknown delivery with its payload as sent', async () => {
    const timestamp = orderPayment.timestamp;
    const signed = (body: unknown) => {
      const raw = JSON.stringify(body);
      return parse({ headers: { 'X-Service-Signature': hmac(raw) }, body: raw });
    };
    const { id_order: _drop, ...noId } = orderPayment;
    for (const [body, name, field] of [
      [{ event: 'order.failed', timestamp, data: { id_order: 5 } }, 'order.failed', 'event'],
      [{ event: 'toString', timestamp }, 'toString', 'event'],
      [{ timestamp, id_order: 1 }, null, 'event'],
      [noId, 'order_payment', 'id_order'],
    ] as const) {
      const delivery = await signed(body);
      assert.equal(delivery.event, 'unknown');
      if (delivery.event !== 'unknown') assert.fail('narrowing');
      assert.equal(delivery.name, name);
      assert.deepEqual(delivery.payload, body);
      assert.ok(delivery.problems.some((p) => p.field === field), JSON.stringify(delivery.problems));
      assert.equal(delivery.secretIndex, 0);
    }
    await rejectsWith(signed({ event: 'order.confirmed' }), 'missing_timestamp', 'timestamp');
    await rejectsWith(parse({ headers: { 'X-Service-Signature': hmac('{"event":"x"}', 'another_secret') }, body: JSON.stringify({ event: 'x', timestamp }) }), 'invalid_signature');
  });

  it('refuses JSON nested 5,000 levels deep without overflowing the stack, signed or not', async () => {
    const deep = `{"event":"test.ping","timestamp":"${orderPayment.timestamp}","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    await rejectsWith(parse({ headers: deliveryHeaders(deep, 'test.ping'), body: deep }), 'invalid_payload', 'body');
    await rejectsWith(parseDelivery({ headers: {}, body: deep, dangerouslySkipSignatureCheck: true }), 'invalid_payload', 'body');
  });

  it('dangerouslySkipSignatureCheck parses an unsigned, undated body for tests, and says it was not verified', async () => {
    const ping = JSON.stringify({ event: 'test.ping' });
    const delivery = await parseDelivery({ headers: {}, body: ping, dangerouslySkipSignatureCheck: true });
    assert.equal(delivery.event, 'test.ping');
    assert.equal(delivery.secretIndex, null);
  });

  it('works on a real HTTP receiver, answering with the error status', async () => {
    const received: WebhookDelivery[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        parseDelivery({ headers: req.headers, body: Buffer.concat(chunks), secret, now }).then(
          (delivery) => {
            received.push(delivery);
            res.writeHead(200).end();
          },
          (error: unknown) => res.writeHead(error instanceof WebhookDeliveryError ? error.httpStatus : 500).end(),
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
      assert.equal(received.length, 1);
      assert.equal(received[0]?.event, 'order_payment');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
