/**
 * Webhook signatures: HMAC-SHA256 over the compact JSON text, as lowercase hex
 * with no prefix. WebCrypto only, so this runs in Node, browsers and edge runtimes.
 */
const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The text that is signed: compact JSON, property order kept. */
export function canonicalPayload(payload: unknown): string {
  return JSON.stringify(payload);
}

/** Signs the payload text (or a value, serialized compactly) with the shared secret. */
export async function sign(payload: string | object, secret: string): Promise<string> {
  // WebCrypto refuses a zero-length HMAC key with an obscure DataError; say what is wrong instead.
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('A webhook signing secret is required.');
  const text = typeof payload === 'string' ? payload : canonicalPayload(payload);
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(text));
  return toHex(mac);
}

/** Compares two strings in time that depends only on their length. */
export function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    diff |= (a.charCodeAt(i % (a.length || 1)) || 0) ^ (b.charCodeAt(i % (b.length || 1)) || 0);
  }
  return diff === 0 && a.length > 0;
}

/** One signing secret, or several while one is being rotated out: any of them verifies. */
export type SigningSecrets = string | readonly string[];

/**
 * Verifies a delivery's signature under the secret (or any of a list). The service sends plain lowercase hex:
 * a `sha256=` prefix, upper case, an empty or malformed value all fail.
 */
export async function verify(payload: string | object, signature: string | null | undefined, secret: SigningSecrets): Promise<boolean> {
  const text = typeof payload === 'string' ? payload : canonicalPayload(payload);
  return (await matchingSecret([text], signature, typeof secret === 'string' ? [secret] : secret)) !== null;
}

/** The index of the first secret under which the signature matches any of the texts, or null. */
export async function matchingSecret(texts: readonly string[], signature: string | null | undefined, secrets: readonly string[]): Promise<number | null> {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return null;
  for (const [index, secret] of secrets.entries()) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    for (const text of new Set(texts)) if (timingSafeEqual(await sign(text, secret), signature)) return index;
  }
  return null;
}
