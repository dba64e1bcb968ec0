// `Pay-Checkout-Signature` in a browser, where Node's crypto is absent and the bundled SHA-256 signs: the same
// openssl vectors as in Node, WebCrypto's own HMAC agreeing on random texts and keys, and a header verified only
// under its secret and body.
import { expect } from '@open-wc/testing';
import { hmacSha256Hex, signPayCheckout, verifyPayCheckoutSignature } from '../../src/webhooks/pay-checkout-signature.js';

const t = 1700000000;
/** `printf '%s' "<text>" | openssl dgst -sha256 -hmac KEY`. */
const vectors = [
  { text: `${t}.{"id":"evt_1"}`, key: 'shop_secret_one', mac: 'ac4c0f2f3222b27468bbadcc453649d9271e1f12c219593af14fea5632c59782' },
  { text: '0.', key: 'k', mac: '6b4a4b8b3c40f1e8f53a3d36682e5f99f7ad2ac1df1c93dfe336f329167641e7' },
  { text: `${t}.Café ñandú 🇨🇴`, key: 'K'.repeat(100), mac: '30add73545aaac3b43a5f2ce320cd6156432e6f769ccc381f18a92a23666545e' },
];

async function webCryptoHmac(key: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const imported = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(text))), (b) => b.toString(16).padStart(2, '0')).join('');
}

describe('Pay-Checkout-Signature in the browser', () => {
  it("matches openssl's HMAC-SHA256", () => {
    // No Node crypto to lean on here: the bundled SHA-256 is what signs.
    expect((globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule).to.equal(undefined);
    for (const { text, key, mac } of vectors) expect(hmacSha256Hex(key, text)).to.equal(mac);
  });

  it("agrees with WebCrypto's HMAC for texts and keys of every length around the block size", async () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200]) {
      const text = 'ñ'.repeat(length) + String(length);
      const key = 'k'.repeat((length % 70) + 1);
      expect(hmacSha256Hex(key, text), `length ${length}`).to.equal(await webCryptoHmac(key, text));
    }
  });

  it('verifies a header under either rotating secret, and not a changed body or another secret', () => {
    const header = signPayCheckout(['new-secret', 'old-secret'], '{"id":"evt_1"}', t);
    expect(verifyPayCheckoutSignature({ header, signedText: '{"id":"evt_1"}', secrets: ['old-secret'], nowSeconds: t })).to.equal(true);
    expect(verifyPayCheckoutSignature({ header, signedText: '{"id":"evt_2"}', secrets: ['old-secret'], nowSeconds: t })).to.equal(false);
    expect(verifyPayCheckoutSignature({ header, signedText: '{"id":"evt_1"}', secrets: ['other'], nowSeconds: t })).to.equal(false);
  });
});
