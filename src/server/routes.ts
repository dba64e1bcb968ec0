/**
 * Which part of the handler a path belongs to: a buyer route (`{basePath}/checkout/…`), the webhook intake
 * (`{basePath}/webhooks`) or a health probe (`{basePath}/health`, `…/health/ready`). Any prefix may come before
 * `{basePath}`, so the handler can be mounted under a sub-path. A server that adds routes of its own (a hosted page,
 * script files) asks the same router first and hands every match to the handler.
 */
import type { Reply } from './http/errors.js';
import type { Incoming } from './http/incoming.js';
import type { Operations } from './buyer/operations.js';

export type BuyerOperation = (ops: Operations, request: Incoming, param: string) => Promise<Reply>;

/** `template`: the route as `http.route` names it, under `{basePath}/checkout/`; `methods`: what each method runs. */
export interface BuyerRoute {
  template: string;
  methods: Readonly<Record<string, BuyerOperation>>;
}

/** The buyer API's five routes (docs/site/contributing/architecture.md#the-buyer-api). */
export const buyerRoutes = {
  link: { template: 'links/{hash}', methods: { GET: (ops, r, hash) => ops.getLink(r, hash) } },
  linkOrders: { template: 'links/{hash}/orders', methods: { POST: (ops, r, hash) => ops.createOrder(r, hash) } },
  order: { template: 'orders/{id}', methods: { GET: (ops, r, id) => ops.getOrder(r, id) } },
  otp: { template: 'orders/{id}/otp', methods: { POST: (ops, r, id) => ops.submitOtp(r, id) } },
  cancel: { template: 'orders/{id}/cancel', methods: { POST: (ops, r, id) => ops.cancelOrder(r, id) } },
} as const satisfies Record<string, BuyerRoute>;

/** The methods a route answers, OPTIONS included: its `Allow` header, made once per route rather than per request. */
const allowOf = new Map<BuyerRoute, string>(Object.values(buyerRoutes).map((route) => [route, [...Object.keys(route.methods), 'OPTIONS'].join(', ')]));
export const allowedMethods = (route: BuyerRoute): string => allowOf.get(route) ?? [...Object.keys(route.methods), 'OPTIONS'].join(', ');

/** What follows `{basePath}/checkout/`: `links/{hash}`, `links/{hash}/orders`, `orders/{id}`, `orders/{id}/otp`, `orders/{id}/cancel`. */
export function routeOf(rest: string): { route: BuyerRoute; param: string } | undefined {
  const [kind, raw, action, extra] = rest.split('/');
  if (extra !== undefined || !raw) return undefined;
  let param: string;
  try {
    param = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (kind === 'links') return action === undefined ? { route: buyerRoutes.link, param } : action === 'orders' ? { route: buyerRoutes.linkOrders, param } : undefined;
  if (kind === 'orders') {
    if (action === undefined) return { route: buyerRoutes.order, param };
    if (action === 'otp') return { route: buyerRoutes.otp, param };
    if (action === 'cancel') return { route: buyerRoutes.cancel, param };
  }
  return undefined;
}

/** A path's place in the handler; `template` is its `http.route` (a template, never the path itself). */
export type RouteMatch =
  | { kind: 'buyer'; route: BuyerRoute; param: string; template: string }
  | { kind: 'webhook'; template: string }
  | { kind: 'health'; ready: boolean; template: string };

export interface CheckoutRouter {
  /** `basePath` as the routes use it: one leading slash, no trailing one (`/v1`). */
  basePath: string;
  /** Where `path` (percent-encoded, as the URL parser leaves it) goes; undefined for a path that is none of the handler's. */
  match(path: string): RouteMatch | undefined;
}

/** `basePath` option → `/v1`, `/api/v1`: one leading slash, none trailing; default `/v1`. */
export const normalBasePath = (basePath = '/v1') => basePath.replace(/\/+$/, '').replace(/^(?=[^/])/, '/');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Routers by base path: a router holds no state, so every handler of one process with the same base path (partner mode's one per shop) shares one, its patterns compiled once. */
const routers = new Map<string, CheckoutRouter>();

export function checkoutRouter(basePathOption?: string): CheckoutRouter {
  const basePath = normalBasePath(basePathOption);
  let router = routers.get(basePath);
  if (!router) {
    if (routers.size >= 100) routers.clear();
    routers.set(basePath, (router = makeRouter(basePath)));
  }
  return router;
}

function makeRouter(basePath: string): CheckoutRouter {
  const base = escapeRegExp(basePath);
  const buyer = new RegExp(`^(?:/.*)?${base}/checkout/(.+)$`);
  const webhook = new RegExp(`^(?:/.*)?${base}/webhooks$`);
  const health = new RegExp(`^(?:/.*)?${base}/health(/ready)?$`);
  // Templates made once: a request's match carries one of these strings, never a new one.
  const templates = new Map<BuyerRoute, string>(Object.values(buyerRoutes).map((route) => [route, `${basePath}/checkout/${route.template}`]));
  const webhookMatch: RouteMatch = { kind: 'webhook', template: `${basePath}/webhooks` };
  const alive: RouteMatch = { kind: 'health', ready: false, template: `${basePath}/health` };
  const ready: RouteMatch = { kind: 'health', ready: true, template: `${basePath}/health/ready` };

  return {
    basePath,
    // Health, then the webhook, then the buyer routes: a path ending in `/health` or `/webhooks` is that, whatever precedes it.
    match(path) {
      const probe = health.exec(path);
      if (probe) return probe[1] ? ready : alive;
      if (webhook.test(path)) return webhookMatch;
      const rest = buyer.exec(path)?.[1];
      const found = rest === undefined ? undefined : routeOf(rest);
      return found && { kind: 'buyer', route: found.route, param: found.param, template: templates.get(found.route) ?? `${basePath}/checkout/${found.route.template}` };
    },
  };
}
