/** The contract's Authentication rules: merchant key selects the store; the partner pair is attribution, or the key to /partners/*. */
import type { Context } from 'hono';
import { merchantKeyHeader, partnerKeyHeader, partnerSecretHeader } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { ApiError } from './http.js';
import type { SandboxPartner, SandboxStore } from './model.js';
import { activeIntegration, storeByKey } from './state.js';

export interface Caller {
  store: SandboxStore;
  /** Set when a partner sent the three headers; the store stays the merchant key's. */
  partner: SandboxPartner | null;
}

/** `X-API-Key` identifies, `X-API-Secret` authenticates: both present and valid, else 401. */
export function partnerFrom(ctx: SandboxContext, c: Context): SandboxPartner {
  const key = c.req.header(partnerKeyHeader);
  const secret = c.req.header(partnerSecretHeader);
  if (!key || !secret) {
    throw new ApiError('INVALID_PARTNER_CREDENTIALS', { description: `${partnerKeyHeader} and ${partnerSecretHeader} are both required.` });
  }
  const partner = ctx.state.partners.find((p) => p.api_key === key && p.active);
  // Same answer for an unknown key and a wrong secret, so neither can be probed.
  if (!partner || !constantTimeEqual(partner.api_secret, secret)) throw new ApiError('INVALID_PARTNER_CREDENTIALS');
  return partner;
}

/** Payment endpoints: merchant key required; a partner pair, when any of it is sent, must be valid and allowed for the store. */
export function callerFrom(ctx: SandboxContext, c: Context): Caller {
  const key = c.req.header(merchantKeyHeader);
  if (!key) throw new ApiError('MISSING_MERCHANT_KEY');
  const store = storeByKey(ctx.state, key);
  if (!store) throw new ApiError('INVALID_MERCHANT_KEY', { description: unknownKeyHint(key) });
  const sentPartner = c.req.header(partnerKeyHeader) !== undefined || c.req.header(partnerSecretHeader) !== undefined;
  if (!sentPartner) return { store, partner: null };
  const partner = partnerFrom(ctx, c);
  if (!activeIntegration(ctx.state, partner.id_partner, store.id_store)) {
    throw new ApiError('UNAUTHORIZED_ACCESS', { description: `Partner ${partner.name} may not act for this store.` });
  }
  return { store, partner };
}

/** What to do instead, for a developer reading a 401 from curl or another language. Never repeats the key. */
function unknownKeyHint(key: string): string {
  const live = /^(?:mk|pk|sk)_live_/.test(key) ? 'This is the sandbox: a live key never works here. ' : '';
  return `${live}No store of this sandbox has this merchant key; GET /sandbox/fixtures lists them (the demo store's is mk_test_demo), and POST /sandbox/onboarding makes more.`;
}

function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
