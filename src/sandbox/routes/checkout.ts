/** The buyer API (docs/site/contributing/architecture.md) under /v1/checkout: no merchant key; an order is readable only with its token. */
import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { CheckoutOrderBodySchema, idempotencyKeyHeader, shopperContactFields, orderTokenHeader, OtpBodySchema, readStatusWait, statusWaitHeader } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { ensureQrPng } from '../gateways/simulators.js';
import { ApiError, canonicalJson, fieldError, orderIdFrom, parseOrThrow, readJson, validationError } from '../http.js';
import type { SandboxLink, SandboxOrder } from '../model.js';
import { cancelOrder, createOrder, submitOtp, sweepExpired } from '../orders.js';
import { waitForStatus } from '../status-wait.js';
import { gatewayById, storeById } from '../state.js';
import { checkoutLinkView, checkoutOrderView, linkStatusOf } from '../views.js';
import { originOf } from './origin.js';

const maxIdempotencyKeyLength = 255;

/**
 * `order_key` of a checkout order: `chk_` + a SHA-256 of link and Idempotency-Key. createCheckoutHandler() derives its
 * own the same way in spirit but as `pc_` + an HMAC under its server secret, so the two never produce the same key.
 */
export const orderKeyFromIdempotencyKey = (hash: string, key: string) =>
  `chk_${createHash('sha256').update(`${hash}\n${key}`).digest('hex').slice(0, 32)}`;

export function checkoutRoutes(ctx: SandboxContext): Hono {
  const api = new Hono();
  api.use(
    '/checkout/*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Content-Type', idempotencyKeyHeader, orderTokenHeader],
      exposeHeaders: ['Idempotent-Replayed', statusWaitHeader],
      maxAge: 600,
    }),
  );

  const activeLink = (hash: string): SandboxLink => {
    const link = ctx.state.links.get(hash);
    const store = link && storeById(ctx.state, link.id_store);
    if (!link || !store?.active) throw new ApiError('LINK_NOT_FOUND');
    return link;
  };

  /** Wrong or missing token answers like a missing order, so sequential ids reveal nothing. */
  const tokenOrder = (c: Context): SandboxOrder => {
    const id = orderIdFrom(c, 'id_order');
    const token = c.req.header(orderTokenHeader);
    const order = ctx.state.orders.get(id);
    if (!order || !order.order_token || !token || !sameText(order.order_token, token)) throw new ApiError('ORDER_NOT_FOUND');
    return order;
  };

  const orderWithToken = async (order: SandboxOrder, origin: string) => {
    await ensureQrPng(order);
    return { ...checkoutOrderView(ctx, order, origin), order_token: order.order_token ?? '' };
  };

  api.get('/checkout/links/:hash', (c) => c.json({ data: checkoutLinkView(ctx, activeLink(c.req.param('hash')), originOf(ctx, c)) }));

  api.post('/checkout/links/:hash/orders', async (c) => {
    const link = activeLink(c.req.param('hash'));
    const origin = originOf(ctx, c);
    const key = c.req.header(idempotencyKeyHeader)?.trim();
    if (!key) throw new ApiError('IDEMPOTENCY_KEY_REQUIRED');
    if (key.length > maxIdempotencyKeyLength) throw fieldError(idempotencyKeyHeader, `must be at most ${maxIdempotencyKeyLength} characters`);
    const raw = await readJson(c);
    const fingerprint = canonicalJson(raw);
    const slot = `${link.hash}\n${key}`;
    const earlier = ctx.state.idempotency.get(slot);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) throw new ApiError('IDEMPOTENCY_KEY_REUSED');
      const order = ctx.state.orders.get(earlier.id_order);
      if (!order) throw new ApiError('ORDER_NOT_FOUND');
      c.header('Idempotent-Replayed', 'true');
      return c.json({ data: await orderWithToken(order, origin) }, 200);
    }

    const status = linkStatusOf(ctx, link);
    if (status === 'paid') throw new ApiError('LINK_ALREADY_PAID');
    if (status === 'expired') throw new ApiError('LINK_EXPIRED');
    const body = parseOrThrow(CheckoutOrderBodySchema, raw);
    if (link.amount !== undefined && body.amount !== undefined) throw fieldError('amount', 'is fixed by the payment link; do not send it');
    const amount = link.amount ?? body.amount;
    if (amount === undefined) throw fieldError('amount', 'is required on a dynamic link');
    const gateway = gatewayById(ctx.state, body.payment_gateway.id_payment_gateway);
    if (!gateway || !gateway.currencies.includes(link.currency)) {
      throw new ApiError('GATEWAY_NOT_SUPPORTED', { validation_errors: [{ field: 'payment_gateway.id_payment_gateway', message: 'is not a payment method of this link' }] });
    }
    if (link.collect_shopper_data) {
      const missing = shopperContactFields.filter((f) => !body.shopper[f]);
      if (missing.length) throw validationError(missing.map((f) => ({ field: `shopper.${f}`, message: 'is required' })));
    }
    // The card page returns only where the developer's pages are, never to an origin the buyer (or an attacker) names.
    if (body.return_url && !ctx.guard.originAllowed(body.return_url, origin)) {
      throw fieldError('return_url', 'must be on an origin this sandbox serves or was started with (--allow-origin)');
    }
    const store = storeById(ctx.state, link.id_store);
    if (!store) throw new ApiError('LINK_NOT_FOUND');
    const order = createOrder(ctx, {
      store,
      gateway,
      amount,
      currency: link.currency,
      description: link.description,
      shopper: body.shopper,
      source: 'checkout',
      id_external: orderKeyFromIdempotencyKey(link.hash, key),
      id_partner: link.id_partner,
      link,
      return_url: body.return_url ?? `${origin}/checkout/${encodeURIComponent(link.hash)}`,
      order_token: randomBytes(24).toString('base64url'),
    });
    ctx.state.idempotency.set(slot, { fingerprint, id_order: order.id_order });
    return c.json({ data: await orderWithToken(order, origin) }, 201);
  });

  api.get('/checkout/orders/:id_order', async (c) => {
    const order = tokenOrder(c);
    const wait = readStatusWait(new URL(c.req.url).searchParams);
    if (Array.isArray(wait)) throw validationError(wait);
    if (wait) {
      await waitForStatus(ctx, order, wait, c.req.raw.signal, () => sweepExpired(ctx));
      c.header(statusWaitHeader, String(wait.seconds));
    }
    await ensureQrPng(order);
    return c.json({ data: checkoutOrderView(ctx, order, originOf(ctx, c)) });
  });

  api.post('/checkout/orders/:id_order/otp', async (c) => {
    const order = tokenOrder(c);
    const body = parseOrThrow(OtpBodySchema, await readJson(c));
    submitOtp(ctx, order, body.daviplata_otp);
    return c.json({ data: checkoutOrderView(ctx, order, originOf(ctx, c)) });
  });

  api.post('/checkout/orders/:id_order/cancel', (c) => {
    const order = tokenOrder(c);
    cancelOrder(ctx, order, 'buyer');
    return c.json({ data: checkoutOrderView(ctx, order, originOf(ctx, c)) });
  });

  return api;
}

function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
