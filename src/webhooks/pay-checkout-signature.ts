/**
 * The `Pay-Checkout-Signature` scheme, both ways between `pay-checkout serve` and the shop: the notices it posts
 * and the links requests it sends. `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<signed text>")>`, one `v1=`
 * per secret while one rotates, accepted within five minutes of `t`: the scheme PHP, Python and Java shops already
 * verify with their standard library.
 *
 * Synchronous on purpose, so a header is a plain string wherever it is built: Node's own crypto where the runtime
 * has it, else the small SHA-256 below (WebCrypto has no synchronous HMAC), so browsers and edge runtimes verify too.
 */
import { nodeBuiltin } from './node-builtin.js';
import { timingSafeEqual } from './signature.js';

/** The header's name on notices and links requests. */
export const payCheckoutSignatureHeader = 'Pay-Checkout-Signature';
/** How far `t` may be from the receiver's clock, in seconds. */
export const payCheckoutSignatureToleranceSeconds = 300;

type NodeCrypto = typeof import('node:crypto');
let nodeCrypto: NodeCrypto | undefined | null = null;
const nodeCryptoOf = () => (nodeCrypto === null ? (nodeCrypto = nodeBuiltin<NodeCrypto>('node:crypto')) : nodeCrypto);

const encoder = new TextEncoder();

/** HMAC-SHA256 of the message under the secret, as lowercase hex. */
export function hmacSha256Hex(secret: string, message: string, runtime: 'auto' | 'portable' = 'auto'): string {
  const node = runtime === 'auto' ? nodeCryptoOf() : undefined;
  if (node) return node.createHmac('sha256', secret).update(message).digest('hex');
  return toHex(portableHmac(encoder.encode(secret), encoder.encode(message)));
}

const nowInSeconds = () => Math.floor(Date.now() / 1000);

function checkSecrets(secrets: readonly string[]): readonly string[] {
  if (!Array.isArray(secrets) || secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('signPayCheckout: `secrets` must be a non-empty list of non-empty strings.');
  }
  return secrets;
}

/**
 * The header value signing `signedText` (a notice's raw body, or `GET <path and query>`) at `nowSeconds`, with one
 * `v1=` per secret: the receiver accepts it under whichever of them it holds.
 */
export function signPayCheckout(secrets: readonly string[], signedText: string, nowSeconds: number = nowInSeconds()): string {
  const t = Math.floor(nowSeconds);
  const signatures = checkSecrets(secrets).map((secret) => `v1=${hmacSha256Hex(secret, `${t}.${signedText}`)}`);
  return `t=${t},${signatures.join(',')}`;
}

export interface VerifyPayCheckoutSignatureInput {
  /** The header's value as received; null or absent fails. */
  header: string | null | undefined;
  /** The raw body of a notice, or `GET <path and query>` of a links request, exactly as received. */
  signedText: string;
  /** The secret, or all of them while one rotates: a `v1=` matching any of them passes. */
  secrets: string | readonly string[];
  /** How far `t` may be from now, either way; five minutes unless said. */
  toleranceSeconds?: number;
  nowSeconds?: number;
}

/**
 * True when the header carries a `t` within the tolerance of now and a `v1=` that is the HMAC of `"<t>.<signedText>"`
 * under one of the secrets. Compared in constant time; any malformed header is simply false.
 */
export function verifyPayCheckoutSignature({
  header,
  signedText,
  secrets,
  toleranceSeconds = payCheckoutSignatureToleranceSeconds,
  nowSeconds = nowInSeconds(),
}: VerifyPayCheckoutSignatureInput): boolean {
  if (typeof header !== 'string' || header.length > 4096 || typeof signedText !== 'string') return false;
  let t: number | undefined;
  const given: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return false;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) {
      given.push(value);
    }
  }
  if (t === undefined || given.length === 0 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  let matched = false;
  for (const secret of list) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    const expected = hmacSha256Hex(secret, `${t}.${signedText}`);
    // Every candidate is compared, so the time taken says nothing about which one matched.
    for (const signature of given) matched = timingSafeEqual(expected, signature) || matched;
  }
  return matched;
}

const toHex = (bytes: Uint8Array) => {
  let text = '';
  for (const b of bytes) text += (b < 16 ? '0' : '') + b.toString(16);
  return text;
};

/** FIPS 180-4's round constants. */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of the bytes, for runtimes without Node's crypto. */
function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const state = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = h[i]! + state[i]!;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

/** HMAC (RFC 2104) over SHA-256. */
function portableHmac(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}
