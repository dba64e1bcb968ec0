/**
 * The handler's only secrets, all HMAC-SHA256: the `order_key` sent to `POST /orders` and the `order_token`
 * handed to the buyer. Nothing is stored. Node's own crypto where the runtime has it (synchronous, no thread-pool
 * hop per create), else WebCrypto with each imported key kept, so edge runtimes work too.
 */
import { timingSafeEqual } from '../webhooks/signature.js';
import { nodeBuiltin } from './node-builtin.js';

const encoder = new TextEncoder();
/** Fixed label of the default secret: derived from the merchant key, never the key itself. */
export const defaultSecretLabel = 'pay-checkout/server-secret/v1';
/** Prefix of every `order_key` (and so `id_external`) the handler creates. */
export const orderKeyPrefix = 'pc_';

type NodeCrypto = typeof import('node:crypto');
/** Node's crypto, looked up on first use (node-builtin.ts says why not at load); null until then. */
let nodeCrypto: NodeCrypto | undefined | null = null;
const nodeCryptoOf = () => (nodeCrypto === null ? (nodeCrypto = nodeBuiltin<NodeCrypto>('node:crypto')) : nodeCrypto);
const importedKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 as hex or base64url: Node encodes it natively, WebCrypto's bytes are encoded here. */
async function hmacText(secret: string, message: string, encoding: 'hex' | 'base64url'): Promise<string> {
  const node = nodeCryptoOf();
  if (node) return node.createHmac('sha256', secret).update(message).digest(encoding);
  const bytes = await hmac(secret, message);
  return encoding === 'hex' ? hex(bytes) : base64url(bytes);
}

async function hmac(secret: string, message: string): Promise<Uint8Array> {
  let key = importedKeys.get(secret);
  if (!key) importedKeys.set(secret, (key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])));
  return new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(message)));
}

const hex = (bytes: Uint8Array) => {
  let text = '';
  for (const b of bytes) text += (b < 16 ? '0' : '') + b.toString(16);
  return text;
};

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The handler's secrets: order tokens are signed with `sign` and accepted under any of `accept`. */
export interface ServerSecrets {
  sign: string;
  accept: readonly string[];
  /**
   * Derives `order_key`s: always from the merchant key, never from `secret`, so instances midway through a
   * rotation (different lists) still give one key the same `order_key` and share its claim.
   */
  orderKey: string;
}

function checkSecret(secret: unknown): string {
  if (typeof secret !== 'string' || secret.length < 16) throw new TypeError('createCheckoutHandler: every `secret` must be a string of at least 16 characters.');
  return secret;
}

/** Checks `secret` (one, or a non-empty list: sign with the first, accept any) at once, so a bad one fails at startup. */
export function checkSecrets(secret: string | readonly string[] | undefined): readonly string[] | undefined {
  if (secret === undefined) return undefined;
  const list = typeof secret === 'string' ? [secret] : [...secret];
  if (list.length === 0) throw new TypeError('createCheckoutHandler: `secret` must not be an empty list.');
  return list.map(checkSecret);
}

/** The secrets from the options; without `secret`, one derived as HMAC(merchantKey, fixed label). */
export async function serverSecrets(merchantKey: string, secret?: string | readonly string[]): Promise<ServerSecrets> {
  const derived = await hmacText(merchantKey, defaultSecretLabel, 'hex');
  const list = checkSecrets(secret) ?? [derived];
  return { sign: list[0] ?? derived, accept: list, orderKey: derived };
}

/** `pc_` + 32 hex: the same link and Idempotency-Key always give the same `order_key`. */
export async function orderKeyFor(secret: string, hash: string, idempotencyKey: string): Promise<string> {
  // A JSON array keeps `a:b`+`c` and `a`+`b:c` apart.
  return orderKeyPrefix + (await hmacText(secret, JSON.stringify(['order_key', hash, idempotencyKey]), 'hex')).slice(0, 32);
}

/**
 * The buyer's proof of an order: a digest of its `order_key` (`orderRefOf`), a dot, and the HMAC of the order's id
 * with that digest (base64url). A token so names one order of this service and merchant, never whichever order the
 * service later numbers the same (its ids start again after a sandbox reset, or in another environment on the same
 * store): the digest is checked against the service's record of the order before anything is answered
 * (buyer/operations.ts). The order key itself never reaches the buyer.
 */
export async function orderTokenFor(secret: string, idOrder: number, orderKey: string): Promise<string> {
  const ref = await orderRefOf(orderKey);
  return `${ref}.${await hmacText(secret, JSON.stringify(['order_token', idOrder, ref]), 'base64url')}`;
}

/** What an order token names of the order's key: 24 hex characters of its SHA-256. */
export const orderRefOf = async (orderKey: string): Promise<string> => (await sha256Hex(`pay-checkout/order-ref\n${orderKey}`)).slice(0, 24);

/** A token of the earlier form, the HMAC of the id alone: accepted only as `orderTokenKey` says. */
export async function legacyOrderTokenFor(secret: string, idOrder: number): Promise<string> {
  return hmacText(secret, JSON.stringify(['order_token', idOrder]), 'base64url');
}

const tokenRefPattern = /^[0-9a-f]{24}$/;

/**
 * The order reference (`orderRefOf`) that `token` proves for the order `idOrder` under any accepted secret (every one
 * is checked: no early exit); `null` for a valid token of the earlier form, which names none; `false` when it is no
 * token of this order.
 */
export async function orderTokenKey(secrets: string | readonly string[], idOrder: number, token: string | null): Promise<string | null | false> {
  if (!token) return false;
  const dot = token.indexOf('.');
  const ref = dot > 0 ? token.slice(0, dot) : undefined;
  if (ref !== undefined && !tokenRefPattern.test(ref)) return false;
  let match = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = ref === undefined ? await legacyOrderTokenFor(secret, idOrder) : `${ref}.${await hmacText(secret, JSON.stringify(['order_token', idOrder, ref]), 'base64url')}`;
    if (timingSafeEqual(expected, token)) match = true;
  }
  return match ? (ref ?? null) : false;
}

/** Whether `token` is a token of the order `idOrder` (of either form) under any accepted secret. */
export async function isOrderToken(secrets: string | readonly string[], idOrder: number, token: string | null): Promise<boolean> {
  return (await orderTokenKey(secrets, idOrder, token)) !== false;
}

/** SHA-256 of the body's canonical JSON: key order does not make a body "other". */
export const bodyDigest = (body: unknown): Promise<string> => sha256Hex(canonicalJson(body));

/** SHA-256 as hex: synchronous in Node (no thread-pool hop per call), WebCrypto elsewhere. */
export async function sha256Hex(text: string): Promise<string> {
  const node = nodeCryptoOf();
  // `crypto.hash` (Node 20.12+) makes no Hash object: a quarter of createHash's cost on a body this small.
  if (node) return typeof node.hash === 'function' ? node.hash('sha256', text, 'hex') : node.createHash('sha256').update(text).digest('hex');
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + canonicalJson(value[i]);
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Code-unit order, as `a < b` compares: the default sort's.
    const keys = Object.keys(record).sort();
    let text = '{';
    for (const key of keys) {
      const field = record[key];
      if (field === undefined) continue;
      text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(field)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
