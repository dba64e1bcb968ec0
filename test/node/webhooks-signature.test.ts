import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoSigningSecret, exampleOrderPayment, referenceHmac } from './contract-helpers.js';
import fc from 'fast-check';
import { canonicalPayload, sign, timingSafeEqual, verify } from '../../src/webhooks/index.js';

const secret = demoSigningSecret;
const hmac = referenceHmac;

const payload = structuredClone(exampleOrderPayment);
const compact =
  '{"event":"order_payment","timestamp":"2025-06-01T12:00:00Z","id_order":123,"id_external":"order-12345","status":"confirmed","total_price":50000,"currency":"COP","payment_method":{"gateway":"nequi","status":"processed"},"totalItems":1,"shopper":{"first_name":"Ana","last_name":"Pérez","email":"ana@example.com"},"external_store_id":"demo-store"}';

describe('webhook signature', () => {
  it('signs compact JSON with property order kept', () => {
    assert.equal(canonicalPayload(payload), compact);
  });

  it('matches Node HMAC-SHA256 known answers, as lowercase hex', async () => {
    for (const [text, key] of [
      [compact, secret],
      ['{}', secret],
      ['{"event":"test.ping"}', 'another-secret'],
      ['{"store_name":"Café ñandú 🇨🇴"}', secret],
    ] as const) {
      const expected = hmac(text, key);
      assert.match(expected, /^[0-9a-f]{64}$/);
      assert.equal(await sign(text, key), expected);
    }
    assert.equal(await sign(payload, secret), hmac(compact));
  });

  it('verifies a correct signature, over the text or the parsed value', async () => {
    const signature = hmac(compact);
    assert.equal(await verify(compact, signature, secret), true);
    assert.equal(await verify(JSON.parse(compact) as object, signature, secret), true);
  });

  it('refuses a tampered payload', async () => {
    const signature = hmac(compact);
    assert.equal(await verify(compact.replace('50000', '5000'), signature, secret), false);
    assert.equal(await verify({ ...payload, total_price: 1 }, signature, secret), false);
  });

  it('refuses a wrong secret', async () => {
    assert.equal(await verify(compact, hmac(compact, 'whsec_other'), secret), false);
  });

  it('refuses prefixed, upper-case, truncated, empty and missing signatures', async () => {
    const signature = hmac(compact);
    for (const bad of [`sha256=${signature}`, signature.toUpperCase(), signature.slice(0, 63), `${signature}0`, '', ' ', null, undefined]) {
      assert.equal(await verify(compact, bad, secret), false, `signature ${String(bad)}`);
    }
  });

  it('property order matters', async () => {
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    assert.notEqual(canonicalPayload(reordered), compact);
    assert.equal(await verify(reordered, hmac(compact), secret), false);
    assert.notEqual(await sign({ a: 1, b: 2 }, secret), await sign({ b: 2, a: 1 }, secret));
  });

  it('whitespace matters: pretty-printed text is not the signed text', async () => {
    const pretty = JSON.stringify(payload, null, 2);
    assert.equal(await verify(pretty, hmac(compact), secret), false);
  });

  it('an empty secret never verifies and cannot sign', async () => {
    assert.equal(await verify(compact, hmac(compact), ''), false);
    await assert.rejects(sign(compact, ''), /secret is required/);
  });

  it('verifies any JSON value signed by Node HMAC (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.string({ minLength: 1 }), async (value, key) => {
        const text = JSON.stringify(value) ?? 'null';
        const signature = hmac(text, key);
        return (await verify(text, signature, key)) && (await sign(text, key)) === signature;
      }),
      { numRuns: 100 },
    );
  });

  it('timingSafeEqual compares whole strings', () => {
    assert.equal(timingSafeEqual('abcd', 'abcd'), true);
    assert.equal(timingSafeEqual('abcd', 'abce'), false);
    assert.equal(timingSafeEqual('abcd', 'abc'), false);
    assert.equal(timingSafeEqual('abc', 'abcabc'), false);
    assert.equal(timingSafeEqual('', ''), false);
  });
});
