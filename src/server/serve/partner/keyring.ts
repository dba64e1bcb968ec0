/**
 * Keys at rest in partner mode: envelope encryption with Node's own AES-256-GCM. Each shop has a data key of its own
 * (32 random bytes) that seals its secrets (the merchant key, its notify secret); the data key is stored wrapped by
 * the first of `PAY_CHECKOUT_KEYS`, with that key's id beside it, and the shop's id is the associated data of both
 * layers, so a sealed value copied to another shop's record does not open. Every listed key unwraps; rotation
 * re-wraps each data key under the first. Shop API keys are never sealed: only their SHA-256 is stored.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One master key: its bytes and its id (the first 16 hex of its SHA-256: names it without revealing it). */
export interface MasterKey {
  id: string;
  bytes: Buffer;
}

/** A data key as stored: wrapped (`v1.<iv>.<ciphertext>.<tag>`, base64url) and the id of the key that wrapped it. */
export interface WrappedKey {
  key_id: string;
  wrapped: string;
}

export class KeyringError extends Error {
  override readonly name = 'KeyringError';
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

/** `PAY_CHECKOUT_KEYS`: a comma list of base64 32-byte keys; null names what is wrong (never the value). */
export function parseMasterKeys(value: string): MasterKey[] | string {
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) return 'no key listed';
  const keys: MasterKey[] = [];
  for (const [index, item] of items.entries()) {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(item)) return `key ${index + 1} is not base64`;
    const bytes = Buffer.from(item, item.includes('-') || item.includes('_') ? 'base64url' : 'base64');
    if (bytes.length !== 32) return `key ${index + 1} is ${bytes.length} bytes, not 32`;
    keys.push({ id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes });
  }
  if (new Set(keys.map((k) => k.id)).size !== keys.length) return 'a key is listed twice';
  return keys;
}

function seal(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return ['v1', b64(iv), b64(body), b64(cipher.getAuthTag())].join('.');
}

function open(key: Buffer, sealed: string, aad: string): Buffer {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new KeyringError('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  } catch {
    throw new KeyringError('the value does not open under this key');
  }
}

const wrapAad = (storeId: string) => `pay-checkout/partner/data-key/v1:${storeId}`;
const fieldAad = (storeId: string, field: string) => `pay-checkout/partner/secret/v1:${storeId}:${field}`;

export interface Keyring {
  /** The ids of the listed keys, the first (which wraps) first. */
  readonly ids: readonly string[];
  /** A new data key for a shop, wrapped by the first key, and the key itself (kept only in memory). */
  newDataKey(storeId: string): { stored: WrappedKey; key: Buffer };
  /** The shop's data key; a KeyringError when no listed key has its id, or it does not open. */
  unwrap(storeId: string, stored: WrappedKey): Buffer;
  /** The same data key wrapped by the first key (rotation); undefined when it is wrapped by it already. */
  rewrap(storeId: string, stored: WrappedKey): WrappedKey | undefined;
  /** A secret of the shop, sealed with its data key for one named field. */
  sealField(storeId: string, dataKey: Buffer, field: string, plain: string): string;
  openField(storeId: string, dataKey: Buffer, field: string, sealed: string): string;
}

export function createKeyring(keys: readonly MasterKey[]): Keyring {
  if (keys.length === 0) throw new KeyringError('no master key');
  const first = keys[0] as MasterKey;
  const byId = new Map(keys.map((k) => [k.id, k]));
  const unwrap = (storeId: string, stored: WrappedKey): Buffer => {
    const master = byId.get(stored.key_id);
    if (!master) throw new KeyringError(`the data key of ${storeId} is wrapped by key ${stored.key_id}, which is not listed`);
    return open(master.bytes, stored.wrapped, wrapAad(storeId));
  };
  return {
    ids: keys.map((k) => k.id),
    newDataKey(storeId) {
      const key = randomBytes(32);
      return { key, stored: { key_id: first.id, wrapped: seal(first.bytes, key, wrapAad(storeId)) } };
    },
    unwrap,
    rewrap(storeId, stored) {
      if (stored.key_id === first.id) return undefined;
      return { key_id: first.id, wrapped: seal(first.bytes, unwrap(storeId, stored), wrapAad(storeId)) };
    },
    sealField: (storeId, dataKey, field, plain) => seal(dataKey, Buffer.from(plain, 'utf8'), fieldAad(storeId, field)),
    openField: (storeId, dataKey, field, sealed) => open(dataKey, sealed, fieldAad(storeId, field)).toString('utf8'),
  };
}

/** A shop API key as stored: its SHA-256 (the key has 256 bits of randomness, so no slow hash is needed). */
export const apiKeyHash = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** Equal hashes, compared in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A new random secret with a readable prefix: `pcs_` (shop API key), `pcn_` (notify secret), `st_` (store id). */
export const randomToken = (prefix: string, bytes = 32) => `${prefix}${randomBytes(bytes).toString('base64url')}`;
