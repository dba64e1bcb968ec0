import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { referenceHmac } from './contract-helpers.js';
import { payCheckoutSignatureHeader, signPayCheckout, verifyPayCheckoutSignature } from '../../src/webhooks/index.js';
import { hmacSha256Hex } from '../../src/webhooks/pay-checkout-signature.js';

const body = '{"id":"evt_1"}';
const t = 1700000000;

/** Computed apart from this code: `printf '%s' "<t>.<text>" | openssl dgst -sha256 -hmac KEY`. */
const opensslVectors = [
  { text: `${t}.${body}`, key: 'shop_secret_one', mac: 'ac4c0f2f3222b27468bbadcc453649d9271e1f12c219593af14fea5632c59782' },
  { text: `${t}.${body}`, key: 'shop_secret_two', mac: 'd17839491f5b75ba1b910ce9714cfbb0c7e066703b94c876605fccb15b38dd9f' },
  { text: '1764300000.GET /links/abc%20d?x=1', key: 's', mac: '9d581e0711731addfaa5839d7ecd39052522d8b4c56d61915ab89155c331db13' },
  { text: '0.', key: 'k', mac: '6b4a4b8b3c40f1e8f53a3d36682e5f99f7ad2ac1df1c93dfe336f329167641e7' },
  // A key longer than SHA-256's block is hashed first; the text is multi-byte UTF-8.
  { text: `${t}.Café ñandú 🇨🇴`, key: 'K'.repeat(100), mac: '30add73545aaac3b43a5f2ce320cd6156432e6f769ccc381f18a92a23666545e' },
];

describe('Pay-Checkout-Signature', () => {
  it('is named as every stack will read it', () => {
    assert.equal(payCheckoutSignatureHeader, 'Pay-Checkout-Signature');
  });

  it("matches openssl's HMAC-SHA256, with Node's crypto and with the portable code browsers and edge runtimes use", () => {
    for (const { text, key, mac } of opensslVectors) {
      assert.equal(hmacSha256Hex(key, text), mac, `node: ${text}`);
      assert.equal(hmacSha256Hex(key, text, 'portable'), mac, `portable: ${text}`);
    }
  });

  it('the portable HMAC agrees with Node for any text and key (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ minLength: 1, maxLength: 150 }), (text, key) => hmacSha256Hex(key, text, 'portable') === referenceHmac(text, key)),
      { numRuns: 200 },
    );
  });

  it('signs "<t>.<signed text>" with one v1 per secret, in the order given', () => {
    assert.equal(signPayCheckout(['shop_secret_one'], body, t), `t=${t},v1=${opensslVectors[0]!.mac}`);
    assert.equal(signPayCheckout(['shop_secret_one', 'shop_secret_two'], body, t), `t=${t},v1=${opensslVectors[0]!.mac},v1=${opensslVectors[1]!.mac}`);
  });

  it('refuses to sign without a secret', () => {
    for (const secrets of [[], [''], ['ok', ''], 'ok' as unknown as string[]]) {
      assert.throws(() => signPayCheckout(secrets, body, t), /non-empty list/);
    }
  });

  it('verifies its own header now, and a header signed with either secret while they rotate', () => {
    assert.equal(verifyPayCheckoutSignature({ header: signPayCheckout(['a-secret'], body), signedText: body, secrets: ['a-secret'] }), true);
    const both = signPayCheckout(['old', 'new'], body, t);
    for (const secrets of [['old'], ['new'], ['other', 'new'], 'old']) {
      assert.equal(verifyPayCheckoutSignature({ header: both, signedText: body, secrets, nowSeconds: t }), true, String(secrets));
    }
    assert.equal(verifyPayCheckoutSignature({ header: both, signedText: body, secrets: ['other'], nowSeconds: t }), false);
  });

  it('accepts within five minutes of t either way, and no further', () => {
    const header = signPayCheckout(['s'], body, t);
    for (const [now, ok] of [[t + 300, true], [t - 300, true], [t + 301, false], [t - 301, false]] as const) {
      assert.equal(verifyPayCheckoutSignature({ header, signedText: body, secrets: ['s'], nowSeconds: now }), ok, `now t${now - t}`);
    }
    assert.equal(verifyPayCheckoutSignature({ header, signedText: body, secrets: ['s'], nowSeconds: t + 1000, toleranceSeconds: 1000 }), true);
  });

  it('refuses a changed body, a changed t, and malformed headers', () => {
    const header = signPayCheckout(['s'], body, t);
    const mac = header.split('v1=')[1]!;
    const check = (h: string | null | undefined, text = body) => verifyPayCheckoutSignature({ header: h, signedText: text, secrets: ['s'], nowSeconds: t });
    assert.equal(check(header, `${body} `), false);
    assert.equal(check(`t=${t + 1},v1=${mac}`), false);
    for (const bad of [null, undefined, '', `v1=${mac}`, `t=${t}`, `t=${t},v1=${mac.toUpperCase()}`, `t=${t},v1=${mac.slice(1)}`, `t=${t},v0=${mac}`, `t=abc,v1=${mac}`, `t=${t},t=${t},v1=${mac}`, `t=${t},v1=sha256=${mac}`]) {
      assert.equal(check(bad), false, String(bad));
    }
    // Spaces after commas and unknown schemes beside v1 are tolerated, as other stacks write them.
    assert.equal(check(`t=${t}, v0=abc, v1=${mac}`), true);
  });
});
