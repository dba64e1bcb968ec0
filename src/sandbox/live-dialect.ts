/**
 * The sandbox's `live` dialect (`--dialect live`): the merchant and partner APIs answer in the shapes the live service
 * is documented or observed to use (live-service-facts §12–13), so a merchant's code meets them before production:
 * `result` envelopes, `{ payment_gateways }`, `{ link, hash, wallet_id }`, `amount`/`created_at` on an order, cancel
 * only by `PUT /orders/{id}/cancel`, every docs-required shopper field enforced, webhooks under `X-Wava-*` with
 * `data`-nested payloads. The buyer API (`/v1/checkout/*`) is ours and stays as it is; so do error bodies.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { liveWebhookHeaders, liveWebhookUserAgent } from '../contract/index.js';
import { validationError } from './http.js';


type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The shopper fields the live docs mark required besides the document (CO): a create without one is 400. */
export const liveRequiredShopperFields = ['first_name', 'last_name', 'email', 'phone_number', 'country'] as const;

/** Refuses a live-dialect `POST /orders` whose shopper lacks a docs-required field, naming each one. */
export function requireLiveShopper(raw: unknown): void {
  const shopper = isObject(raw) && isObject(raw.shopper) ? raw.shopper : {};
  const missing = liveRequiredShopperFields.filter((field) => typeof shopper[field] !== 'string' || (shopper[field] as string).trim() === '');
  if (missing.length) throw validationError(missing.map((field) => ({ field: `shopper.${field}`, message: 'is required' })));
}

/** What a framework answers for a route it does not have (the live service's documented-elsewhere cancel route). */
export function frameworkNotFound(c: Context): Response {
  return c.json({ statusCode: 404, message: `Cannot ${c.req.method} ${new URL(c.req.url).pathname}`, error: 'Not Found' }, 404);
}

/** Rewrites the merchant and partner APIs' successful JSON answers into the live shapes. */
export function liveAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const path = new URL(c.req.url).pathname;
    if (path.startsWith('/v1/checkout/') || !c.res.ok || !c.res.headers.get('content-type')?.includes('application/json')) return;
    const json = (await c.res.clone().json()) as unknown;
    if (!isObject(json) || !('data' in json)) return;
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify({ result: liveResult(c.req.method, path, json.data) }), { status: c.res.status, headers });
  };
}

function liveResult(method: string, path: string, data: unknown): unknown {
  if (method === 'GET' && path === '/v1/orders/paymentGateways') return { payment_gateways: data };
  if (method === 'POST' && path === '/v1/links' && isObject(data)) return { link: data.payment_url, hash: data.hash, wallet_id: null };
  if (method === 'GET' && /^\/v1\/orders\/\d+$/.test(path) && isObject(data)) {
    const { total, purchase_date, ...rest } = data;
    return { ...rest, amount: total, created_at: purchase_date };
  }
  return data;
}

/** A webhook as the live pages show it: `{ event, timestamp, data: {…} }`, the order's total as `amount`. */
export function liveWebhookBody(payload: object): object {
  const { event, timestamp, total_price, ...rest } = payload as Json;
  return { event, timestamp, data: total_price === undefined ? rest : { ...rest, amount: total_price } };
}

/** The live docs' webhook headers. */
export function liveWebhookRequestHeaders(event: string, at: string, signature: string | null): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [liveWebhookHeaders.event]: event,
    [liveWebhookHeaders.timestamp]: at,
    ...(signature === null ? {} : { [liveWebhookHeaders.signature]: signature }),
    'User-Agent': liveWebhookUserAgent,
  };
}
