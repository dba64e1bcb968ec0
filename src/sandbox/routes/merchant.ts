/** The merchant API under /v1 (merchant key; partners add their pair as attribution). */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import {
  CreateLinkBodySchema,
  CreateOrderBodySchema,
  DashboardStatsQuerySchema,
  OtpBodySchema,
  RefundBodySchema,
} from '../../contract/index.js';
import { callerFrom, type Caller } from '../auth.js';
import type { SandboxContext } from '../context.js';
import { dashboardStats } from '../dashboard.js';
import { ensureQrPng } from '../gateways/simulators.js';
import { ApiError, fieldError, orderIdFrom, parseOrThrow, readJson } from '../http.js';
import type { SandboxLink, SandboxOrder } from '../model.js';
import { earlierOrder, orderKeyFingerprint, rememberOrderKey } from '../order-keys.js';
import { cancelOrder, createOrder, refundOrder, submitOtp } from '../orders.js';
import { gatewayById } from '../state.js';
import { createdLinkView, createdOrderView, gatewayView, orderDetailsView } from '../views.js';
import { originOf } from './origin.js';
import { frameworkNotFound, requireLiveShopper } from '../live-dialect.js';

/** Links made through the API live 7 days unless `ttl_minutes` says otherwise. */
export const defaultLinkTtlMinutes = 7 * 24 * 60;

export function merchantRoutes(ctx: SandboxContext): Hono {
  const api = new Hono();

  const ownOrder = (c: Context, caller: Caller): SandboxOrder => {
    const id = orderIdFrom(c);
    const order = ctx.state.orders.get(id);
    // Another store's order is "not accessible to the caller": the same 4010 as a missing one.
    if (!order || order.id_store !== caller.store.id_store) throw new ApiError('ORDER_NOT_FOUND');
    return order;
  };

  api.post('/orders', async (c) => {
    const caller = callerFrom(ctx, c);
    const raw = await readJson(c);
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>).payment_gateway === undefined) {
      throw new ApiError('PAYMENT_GATEWAY_REQUIRED', { validation_errors: [{ field: 'payment_gateway.id_payment_gateway', message: 'is required' }] });
    }
    if (ctx.dialect === 'live') requireLiveShopper(raw);
    const body = parseOrThrow(CreateOrderBodySchema, raw);
    // A used key is judged as soon as the body parses (another body is 409 before any business rule), and there is
    // no await from here to rememberOrderKey, so concurrent creates with one key make one order.
    const orderKey = body.order_key;
    const fingerprint = orderKeyFingerprint(body);
    const earlier = orderKey === undefined ? undefined : earlierOrder(ctx, caller.store.id_store, orderKey, fingerprint);
    if (earlier) {
      await ensureQrPng(earlier);
      c.header('Idempotent-Replayed', 'true');
      return c.json({ data: createdOrderView(ctx, earlier) });
    }
    const gatewayId = body.payment_gateway?.id_payment_gateway ?? 0;
    const gateway = gatewayById(ctx.state, gatewayId);
    if (!gateway || !gateway.direct_orders) {
      throw new ApiError('GATEWAY_NOT_SUPPORTED', {
        description: gateway ? `${gateway.name} is only available through payment links and the hosted checkout.` : `There is no payment gateway ${gatewayId}; see GET /orders/paymentGateways.`,
        ...(gateway ? { gateway_name: gateway.gateway } : {}),
      });
    }
    const order = createOrder(ctx, {
      store: caller.store,
      gateway,
      amount: body.amount,
      currency: body.currency,
      description: body.description,
      shopper: body.shopper,
      source: 'api',
      id_external: body.order_key ?? null,
      id_partner: caller.partner?.id_partner ?? null,
      link: null,
      redirect_link: body.redirect_link,
      redirect_link_cancel: body.redirect_link_cancel,
      redirect_link_failure: body.redirect_link_failure,
    });
    if (orderKey !== undefined) rememberOrderKey(ctx, caller.store.id_store, orderKey, fingerprint, order.id_order);
    await ensureQrPng(order);
    return c.json({ data: createdOrderView(ctx, order) });
  });

  // Registered before /orders/:orderId, which would otherwise read "paymentGateways" as an id.
  api.get('/orders/paymentGateways', (c) => {
    const caller = callerFrom(ctx, c);
    const origin = originOf(ctx, c);
    const gateways = ctx.state.gateways.filter((g) => g.currencies.includes(caller.store.currency));
    return c.json({ data: gateways.map((g) => gatewayView(g, origin)) });
  });

  api.get('/orders/:orderId', (c) => {
    const order = ownOrder(c, callerFrom(ctx, c));
    return c.json({ data: orderDetailsView(ctx, order) });
  });

  api.post('/orders/refund/:orderId', async (c) => {
    const caller = callerFrom(ctx, c);
    const id = orderIdFrom(c);
    const raw = (await readJson(c, { optional: true })) ?? {};
    // The schema strips unknown keys; an amount means a partial refund, which the service does not do.
    if (raw !== null && typeof raw === 'object' && 'amount' in raw) throw fieldError('amount', 'partial refunds are unsupported; omit amount to refund the whole order');
    const body = parseOrThrow(RefundBodySchema, raw);
    const order = ctx.state.orders.get(id);
    if (!order || order.id_store !== caller.store.id_store) throw new ApiError('ORDER_NOT_FOUND');
    refundOrder(ctx, order, body.id_external);
    return c.json({ result: 'Refund processed successfully' });
  });

  // The API reference's route in the contract dialect, the guide's in the live one; each dialect knows only its own.
  const cancel = (c: Context) => {
    const order = ownOrder(c, callerFrom(ctx, c));
    cancelOrder(ctx, order, 'merchant');
    return c.json({ data: { id_order: order.id_order, status: order.status } });
  };
  if (ctx.dialect === 'live') {
    api.post('/orders/cancel/:orderId', frameworkNotFound);
    api.put('/orders/:orderId/cancel', cancel);
  } else api.post('/orders/cancel/:orderId', cancel);

  api.post('/orders/daviplata/:orderId', async (c) => {
    const order = ownOrder(c, callerFrom(ctx, c));
    const body = parseOrThrow(OtpBodySchema, await readJson(c));
    submitOtp(ctx, order, body.daviplata_otp);
    const gateway = gatewayById(ctx.state, order.id_payment_gateway);
    const idNumber = order.shopper.id_number;
    return c.json({
      data: {
        id_order: order.id_order,
        status: order.status,
        payment_method: { gateway: gateway?.gateway ?? 'daviplata', id_number: `****${idNumber.slice(-3)}`, status: 'completed', confirmation_number: `DAVI${String(order.id_order).padStart(9, '0')}` },
      },
    });
  });

  api.post('/links', async (c) => {
    const caller = callerFrom(ctx, c);
    const body = parseOrThrow(CreateLinkBodySchema, await readJson(c));
    const currency = body.currency ?? caller.store.currency;
    if (body.amount !== undefined && currency === 'COP' && !Number.isInteger(body.amount)) throw fieldError('amount', 'must be whole pesos for COP');
    const now = ctx.clock.now();
    const link: SandboxLink = {
      payment_link_id: ctx.state.nextLinkId,
      hash: newLinkHash(ctx),
      id_store: caller.store.id_store,
      description: body.description,
      amount: body.amount,
      currency,
      order_key: body.order_key ?? null,
      redirect_link: body.redirect_link ?? null,
      redirect_link_cancel: body.redirect_link_cancel ?? null,
      redirect_link_failure: body.redirect_link_failure ?? null,
      collect_shopper_data: body.collect_shopper_data ?? false,
      created_at: now,
      expires_at: now + (body.ttl_minutes ?? defaultLinkTtlMinutes) * 60_000,
      paid_at: null,
      source: 'api',
      id_partner: caller.partner?.id_partner ?? null,
    };
    ctx.state.nextLinkId += 1;
    ctx.state.links.set(link.hash, link);
    return c.json({ data: createdLinkView(ctx, link, originOf(ctx, c)) });
  });

  api.get('/national-document-types/:countryCode', (c) => {
    callerFrom(ctx, c);
    const country = c.req.param('countryCode').toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) throw fieldError('countryCode', 'must be a 2-letter ISO country code');
    return c.json({ data: ctx.state.documentTypes.filter((d) => d.country_code === country) });
  });

  api.get('/merchant/:storeId/dashboard/stats', (c) => {
    const caller = callerFrom(ctx, c);
    if (c.req.param('storeId') !== String(caller.store.id_store)) {
      throw new ApiError('INSUFFICIENT_SCOPE', { description: 'The store must be the one the merchant key selects.' });
    }
    const query = parseOrThrow(DashboardStatsQuerySchema, c.req.query());
    return c.json({ result: dashboardStats(ctx, caller.store.id_store, query) });
  });

  return api;
}

function newLinkHash(ctx: SandboxContext): string {
  for (;;) {
    const hash = randomBytes(8).toString('base64url').replace(/[-_]/g, '').slice(0, 10);
    if (hash.length >= 8 && !ctx.state.links.has(hash)) return hash;
  }
}
