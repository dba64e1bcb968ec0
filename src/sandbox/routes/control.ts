/** The control API under /sandbox (never under /v1): drive simulators, the clock, onboarding, forwarding. */
import { Hono, type Context } from 'hono';
import {
  CreateOrderBodySchema,
  merchantKeyHeader,
  SandboxClockBodySchema,
  SandboxFaultBodySchema,
  SandboxForwardBodySchema,
  SandboxForwardRemoveBodySchema,
  SandboxLinkOrderBodySchema,
  SandboxOnboardingBodySchema,
} from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { demoLinks, demoMerchantKey, demoPartner, otherMerchantKey, otherPartner } from '../fixtures.js';
import { addFault, listFaults } from '../faults.js';
import { ensureQrPng } from '../gateways/simulators.js';
import { ApiError, fieldError, orderIdFrom, parseOrThrow, readJson } from '../http.js';
import { completeOnboarding } from '../onboarding.js';
import { cancelOrder, confirmOrder, createOrder, sweepExpired } from '../orders.js';
import { gatewayById, storeById, storeByKey } from '../state.js';
import { checkoutUrlOf, gatewayView, sandboxOrderListItemView, sandboxOrderView, storeView } from '../views.js';
import { originOf } from './origin.js';

export interface ControlHooks {
  reset(): void;
}

export function controlRoutes(ctx: SandboxContext, hooks: ControlHooks): Hono {
  const api = new Hono();
  const order = (c: Context) => {
    const found = ctx.state.orders.get(orderIdFrom(c, 'id'));
    if (!found) throw new ApiError('ORDER_NOT_FOUND');
    return found;
  };
  const view = async (c: Context, o: ReturnType<typeof order>) => {
    await ensureQrPng(o);
    return c.json({ data: sandboxOrderView(ctx, o, originOf(ctx, c)) });
  };

  api.get('/orders', (c) => {
    const origin = originOf(ctx, c);
    return c.json({ data: [...ctx.state.orders.values()].reverse().map((o) => sandboxOrderListItemView(ctx, o, origin)) });
  });

  // An order "from the merchant dashboard": the body of POST /v1/orders, or a link `hash`; no webhooks, ever.
  api.post('/orders', async (c) => {
    const raw = await readJson(c);
    const created = raw !== null && typeof raw === 'object' && 'hash' in raw ? dashboardLinkOrder(raw) : dashboardDirectOrder(c, raw);
    return view(c, created);
  });

  const dashboardDirectOrder = (c: Context, raw: unknown) => {
    const store = storeByKey(ctx.state, c.req.header(merchantKeyHeader) ?? demoMerchantKey);
    if (!store) throw new ApiError('INVALID_MERCHANT_KEY');
    const body = parseOrThrow(CreateOrderBodySchema, raw);
    if (!body.payment_gateway) throw new ApiError('PAYMENT_GATEWAY_REQUIRED');
    const gateway = gatewayById(ctx.state, body.payment_gateway.id_payment_gateway);
    if (!gateway || !gateway.direct_orders) throw new ApiError('GATEWAY_NOT_SUPPORTED');
    return createOrder(ctx, {
      store,
      gateway,
      amount: body.amount,
      currency: body.currency,
      description: body.description,
      shopper: body.shopper,
      source: 'dashboard',
      id_external: body.order_key ?? null,
      id_partner: null,
      link: null,
    });
  };

  // The merchant charges through one of its links by hand: the link gives amount and description; its status is not checked.
  const dashboardLinkOrder = (raw: unknown) => {
    const body = parseOrThrow(SandboxLinkOrderBodySchema, raw);
    const link = ctx.state.links.get(body.hash);
    const store = link && storeById(ctx.state, link.id_store);
    if (!link || !store) throw new ApiError('LINK_NOT_FOUND');
    if (link.amount !== undefined && body.amount !== undefined) throw fieldError('amount', 'is fixed by the payment link; do not send it');
    const amount = link.amount ?? body.amount;
    if (amount === undefined) throw fieldError('amount', 'is required on a dynamic link');
    const gateway = gatewayById(ctx.state, body.payment_gateway.id_payment_gateway);
    if (!gateway || !gateway.currencies.includes(link.currency)) throw new ApiError('GATEWAY_NOT_SUPPORTED');
    return createOrder(ctx, {
      store,
      gateway,
      amount,
      currency: link.currency,
      description: link.description,
      shopper: body.shopper,
      source: 'dashboard',
      id_external: null,
      id_partner: null,
      link,
    });
  };

  api.get('/orders/:id', (c) => view(c, order(c)));
  api.post('/orders/:id/approve', (c) => {
    const o = order(c);
    confirmOrder(ctx, o);
    return view(c, o);
  });
  api.post('/orders/:id/pay', (c) => {
    const o = order(c);
    confirmOrder(ctx, o);
    return view(c, o);
  });
  api.post('/orders/:id/decline', (c) => {
    const o = order(c);
    cancelOrder(ctx, o, 'declined');
    return view(c, o);
  });
  api.post('/orders/:id/expire', (c) => {
    const o = order(c);
    cancelOrder(ctx, o, 'expired');
    return view(c, o);
  });

  api.post('/clock', async (c) => {
    const body = parseOrThrow(SandboxClockBodySchema, await readJson(c));
    ctx.clock.advance(body.advance_ms);
    sweepExpired(ctx);
    return c.json({ data: { now: ctx.iso(), now_ms: ctx.clock.now() } });
  });

  api.post('/onboarding', async (c) => {
    const body = parseOrThrow(SandboxOnboardingBodySchema, await readJson(c));
    const { store, integration } = completeOnboarding(ctx, body);
    return c.json({ data: { ...storeView(store, true), id_integration: integration.id_integration } });
  });

  api.get('/deliveries', (c) => c.json({ data: ctx.deliverer.records() }));

  api.get('/forward', (c) => c.json({ data: { urls: [...ctx.state.forwardTargets] } }));
  api.post('/forward', async (c) => {
    const body = parseOrThrow(SandboxForwardBodySchema, await readJson(c));
    const refusal = ctx.guard.forwardRefusal(body.url, [ctx.receiverUrl, ctx.publicUrl, new URL(c.req.url).origin]);
    if (refusal) throw fieldError('url', refusal);
    if (!ctx.state.forwardTargets.includes(body.url)) ctx.state.forwardTargets.push(body.url);
    return c.json({ data: { urls: [...ctx.state.forwardTargets] } });
  });
  api.delete('/forward', async (c) => {
    const body = parseOrThrow(SandboxForwardRemoveBodySchema, (await readJson(c, { optional: true })) ?? {});
    const targets = ctx.state.forwardTargets;
    if (body.url === undefined) targets.length = 0;
    else if (targets.includes(body.url)) targets.splice(targets.indexOf(body.url), 1);
    return c.json({ data: { urls: [...targets] } });
  });

  // Fault modes: the next `count` matching requests outside /sandbox are slowed, failed, dropped or broken.
  api.get('/faults', (c) => c.json({ data: listFaults(ctx.state) }));
  api.post('/faults', async (c) => {
    const body = parseOrThrow(SandboxFaultBodySchema, await readJson(c));
    return c.json({ data: addFault(ctx.state, body) });
  });
  api.delete('/faults', (c) => {
    ctx.state.faults.length = 0;
    return c.json({ data: listFaults(ctx.state) });
  });

  api.post('/reset', (c) => {
    hooks.reset();
    return c.json({ data: { reset: true } });
  });

  api.get('/fixtures', (c) => c.json({ data: fixturesView(ctx, originOf(ctx, c)) }));

  return api;
}

export function fixturesView(ctx: SandboxContext, origin: string) {
  return {
    base_url: `${origin}/v1`,
    checkout_url: checkoutUrlOf(origin),
    onboarding_url: `${origin}/onboarding`,
    control_url: `${origin}/sandbox`,
    merchant_key: demoMerchantKey,
    partner: { name: demoPartner.name, api_key: demoPartner.apiKey, api_secret: demoPartner.apiSecret, signing_secret: demoPartner.signingSecret },
    other_store: { merchant_key: otherMerchantKey, partner: { name: otherPartner.name, api_key: otherPartner.apiKey, api_secret: otherPartner.apiSecret } },
    links: [demoLinks.fixed, demoLinks.dynamic].map((hash) => {
      const link = ctx.state.links.get(hash);
      return { hash, amount: link?.amount ?? null, description: link?.description ?? '', checkout_url: `${checkoutUrlOf(origin)}/${hash}` };
    }),
    gateways: ctx.state.gateways.map((g) => ({ ...gatewayView(g, origin), direct_orders: g.direct_orders })),
    document_types: ctx.state.documentTypes,
    stores: ctx.state.stores.map((s) => storeView(s)),
  };
}
