/**
 * The buyer API's operations, each translated to the merchant API through MerchantClient: the five routes' (routes.ts)
 * and `createdReply`, the answer a webhook stores for a create it settles.
 */
import type { MerchantClient } from '../../client/index.js';
import {
  CheckoutLinkSchema,
  CheckoutOrderBodySchema,
  CheckoutOrderCreatedSchema,
  CheckoutOrderSchema,
  OrderIdParam,
  OtpBodySchema,
  parseWith,
  readStatusWait,
  shopperContactFields,
  statusWaitHeader,
  summarizeProblems,
  type CheckoutGateway,
  type CheckoutOrder,
  type CheckoutOrderCreated,
  type CheckoutOrderInput,
  type CreatedOrder,
  type OrderDetails,
} from '../../contract/index.js';
import type * as z from 'zod/mini';
import { compiledOnUse } from '../../contract/compiled.js';
import { cached, discoveryTtlMs } from './cache.js';
import type { ClaimStore } from '../once/claims.js';
import type { Guards } from './guards.js';
import { toCheckoutGateways } from './gateways.js';
import type { StatusWaits } from './status-wait.js';
import { CheckoutHttpError, readJsonBody, type Reply } from '../http/errors.js';
import { createOnce, InDoubtError, isDefiniteFailure, type ClaimTimings } from '../once/exactly-once.js';
import { isReplayed, replayedHeader } from '../once/replay.js';
import { linkAmount, linkCurrency, linkStatus, toCheckoutLink, type CheckoutLinkInfo, type ResolveLink } from './links.js';
import type { Incoming } from '../http/incoming.js';
import { gatewayOfOrder, toCheckoutOrder } from './orders.js';
import { shopperForOrder } from './shopper.js';
import type { OrderStatusNotices } from './order-status.js';
import { noteGatewayKind } from '../telemetry/request-notes.js';
import { bodyDigest, orderKeyFor, orderRefOf, orderTokenFor, orderTokenKey, type ServerSecrets } from '../secrets.js';

const maxIdempotencyKeyLength = 255;

export interface Operations {
  getLink(request: Incoming, hash: string): Promise<Reply>;
  createOrder(request: Incoming, hash: string): Promise<Reply>;
  getOrder(request: Incoming, id: string): Promise<Reply>;
  /** The buyer's reply for an order created under `orderKey`, built when a webhook settles an in-doubt create. */
  createdReply(details: OrderDetails): Promise<Reply>;
  submitOtp(request: Incoming, id: string): Promise<Reply>;
  cancelOrder(request: Incoming, id: string): Promise<Reply>;
  /** A verified webhook said order `idOrder` is now `status` (order-status.ts reports outcomes). */
  statusDelivered(idOrder: number, status: string): Promise<void>;
}


export interface OperationDeps {
  merchant: MerchantClient;
  resolveLink: ResolveLink;
  secrets: () => Promise<ServerSecrets>;
  gateways?: CheckoutGateway[] | undefined;
  store: ClaimStore;
  timings: ClaimTimings;
  countryCode: string;
  now: () => number;
  /** Waiting status requests, one watch per order (status-wait.ts). */
  waits: StatusWaits;
  /** Limits and bot check, before a request reaches the service (guards.ts). */
  guards: Guards;
  /** Where outcomes go (`onOrderStatus`); undefined without one. */
  orderStatus?: OrderStatusNotices | undefined;
}

/** The create's two checks and the order view's, compiled (../../contract/compiled.ts). */
const orderBodySchema = compiledOnUse(CheckoutOrderBodySchema);
const orderCreatedSchema = compiledOnUse(CheckoutOrderCreatedSchema);
const orderViewSchema = compiledOnUse(CheckoutOrderSchema);

/** Our own output is checked against the contract, so a bad `resolveLink` answer is a 500, not a broken element. */
function checked<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = parseWith(schema, value);
  if (!result.ok) throw new TypeError(`${what} does not match the contract: ${summarizeProblems(result.problems)}`);
  return result.value;
}

/** The order a buyer's token proves: its id, and its order key's digest (`orderRefOf`; `null` for a token of the earlier form). */
interface TokenOrder {
  id: number;
  ref: string | null;
}

/** How long after an instance starts a token of the earlier form is still taken: its orders, and a rolling deploy's. */
export const legacyTokenGraceMs = 15 * 60_000;

export function checkoutOperations(deps: OperationDeps): Operations {
  const { merchant } = deps;
  const legacyTokensBefore = deps.now() + legacyTokenGraceMs;

  const resolve = async (request: Incoming, hash: string): Promise<CheckoutLinkInfo> => {
    const info = await deps.resolveLink(hash, request.request);
    if (!info) throw CheckoutHttpError.of('LINK_NOT_FOUND');
    return info;
  };

  // Discovery answers are reused for a few minutes (cache.ts), not asked for on every create.
  const discover = cached(() => merchant.paymentGateways(), discoveryTtlMs, deps.now);
  const knownDocumentTypes = cached(() => merchant.documentTypes(deps.countryCode), discoveryTtlMs, deps.now);

  const offeredGateways = async (currency: string, withDocumentTypes: boolean) => {
    const documentTypes = withDocumentTypes ? knownDocumentTypes() : Promise.resolve([]);
    if (deps.gateways) return { gateways: deps.gateways, documentTypes: await documentTypes };
    const [discovered, types] = await Promise.all([discover(), documentTypes]);
    return { gateways: toCheckoutGateways(discovered, types, currency), documentTypes: types };
  };

  /** The order behind a path id, only with its token: a wrong or missing token is the same 404 as no order. */
  const tokenOrder = async (request: Incoming, rawId: string): Promise<TokenOrder> => {
    const id = parseWith(OrderIdParam, rawId);
    if (!id.ok) throw CheckoutHttpError.invalid(id.problems.map((p) => ({ ...p, field: 'id_order' })));
    const ref = await orderTokenKey((await deps.secrets()).accept, id.value, request.headers.get('x-order-token'));
    if (ref === false) throw CheckoutHttpError.of('ORDER_NOT_FOUND');
    return { id: id.value, ref };
  };

  /**
   * The service's order under the token's id, only if it is the token's order: the same order key (its digest). The service's ids
   * start again (a sandbox reset, another environment on the same store), and a token never reaches the order that
   * took its id later; that is the same 404 as no order. A token of the earlier form names no key: it is taken only
   * for an order the service says was made before this instance started (and a rolling deploy's few minutes after).
   */
  const readOwn = async (order: TokenOrder): Promise<OrderDetails> => {
    const details = await merchant.getOrder(order.id);
    const other = order.ref !== null ? Boolean(details.id_external) && (await orderRefOf(details.id_external!)) !== order.ref : Date.parse(details.purchase_date) > legacyTokensBefore;
    if (other) {
      throw CheckoutHttpError.of('ORDER_NOT_FOUND');
    }
    return details;
  };

  /** The buyer's view of an order, not yet checked: `orderView` checks it alone, `withToken` with its token (once). */
  const viewOf = (details: OrderDetails, known = deps.gateways, created?: CreatedOrder, description?: string): CheckoutOrder => {
    const gateway = gatewayOfOrder(details, known);
    if (!gateway) throw new TypeError(`Order ${details.id_order} names no gateway the checkout knows.`);
    return toCheckoutOrder({ details, gateway, created, description });
  };

  const orderView = async (details: OrderDetails): Promise<CheckoutOrder> => {
    const view = checked(orderViewSchema(), viewOf(details), 'The order');
    if (deps.orderStatus) await deps.orderStatus.seen(details);
    return view;
  };

  const currentOrder = async (order: TokenOrder): Promise<Reply> => ({ status: 200, data: await orderView(await readOwn(order)) });

  const withToken = async (order: CheckoutOrder, orderKey: string) =>
    checked(orderCreatedSchema(), { ...order, order_token: await orderTokenFor((await deps.secrets()).sign, order.id_order, orderKey) }, 'The created order');

  /** The create itself, run only under a claim. Failures before `POST /orders` is sent are definite. */
  const createNew = async (request: Incoming, hash: string, info: CheckoutLinkInfo, body: CheckoutOrderInput, orderKey: string): Promise<Reply> => {
    await deps.guards.beforeCreate(request, hash, body);
    const status = linkStatus(info, deps.now());
    if (status === 'paid') throw CheckoutHttpError.of('LINK_ALREADY_PAID');
    if (status === 'expired') throw CheckoutHttpError.of('LINK_EXPIRED');
    const fixed = linkAmount(info);
    if (fixed !== undefined && body.amount !== undefined) throw CheckoutHttpError.invalid([{ field: 'amount', message: 'is fixed by the payment link; do not send it' }]);
    const amount = fixed ?? body.amount;
    if (amount === undefined) throw CheckoutHttpError.invalid([{ field: 'amount', message: 'is required on a dynamic link' }]);
    const shopper = shopperForOrder(body.shopper, info, deps.countryCode);
    if (info.collectShopperData) {
      const missing = shopperContactFields.filter((f) => !shopper[f]);
      if (missing.length) throw CheckoutHttpError.invalid(missing.map((f) => ({ field: `shopper.${f}`, message: 'is required' })));
    }
    const currency = linkCurrency(info);
    const { gateways } = await offeredGateways(currency, false);
    const gateway = gateways.find((g) => g.id_payment_gateway === body.payment_gateway.id_payment_gateway);
    if (!gateway) {
      throw CheckoutHttpError.of('GATEWAY_NOT_SUPPORTED', {
        validation_errors: [{ field: 'payment_gateway.id_payment_gateway', message: 'is not a payment method of this link' }],
      });
    }

    noteGatewayKind(request, gateway.kind);
    // The merchant API may deduplicate order_key itself (the sandbox does): its replay is ours too, 200 not 201.
    let replayed = false;
    let created: CreatedOrder;
    try {
      created = await merchant.createOrder(
        {
          amount,
          description: info.description,
          currency,
          shopper,
          payment_gateway: { id_payment_gateway: gateway.id_payment_gateway },
          order_key: orderKey,
        },
        { onHeaders: (headers) => (replayed = isReplayed(headers)) },
      );
    } catch (error) {
      throw isDefiniteFailure(error) ? error : new InDoubtError(error);
    }
    // What creation returned is enough for the buyer's answer; one service call per create, not two.
    const fromCreation = (): OrderDetails => ({
      id_order: created.id_order,
      id_external: created.id_external ?? orderKey,
      purchase_date: new Date(deps.now()).toISOString(),
      status: created.status,
      total: amount,
      currency,
      description: info.description,
      payment_method: { gateway: gateway.name, id_payment_gateway: gateway.id_payment_gateway, status: 'pending' },
      payment_gateway: created.payment_gateway,
      expires_at: created.expires_at ?? null,
    });
    // A replayed order is read back: it may carry another body's amount or gateway. If that read fails, the order
    // still exists, so the answer comes from what creation returned rather than failing the buyer.
    const details = replayed ? await merchant.getOrder(created.id_order).catch(fromCreation) : fromCreation();
    // A merchant API that deduplicates order_key hands back the first order: another amount or gateway means another body.
    const methodId = details.payment_method?.id_payment_gateway;
    if (details.total !== amount || (methodId !== undefined && methodId !== gateway.id_payment_gateway)) {
      throw CheckoutHttpError.of('IDEMPOTENCY_KEY_REUSED');
    }
    if (gateway.kind === 'otp') deps.guards.created(created.id_order, body);
    if (deps.orderStatus) {
      // Its life as a length, measured on the clock the service's times are read against, so a skewed clock moves nothing.
      const expires = details.expires_at ? Date.parse(details.expires_at) : NaN;
      await deps.orderStatus.created({ hash, idOrder: created.id_order, orderKey, amount, expiresInMs: Number.isFinite(expires) ? expires - deps.now() : undefined });
    }
    let order: CheckoutOrderCreated;
    try {
      order = await withToken(viewOf(details, [gateway], created, info.description), orderKey);
    } catch (error) {
      // The order exists but cannot be shown: the claim is kept, never released into a second order.
      throw new InDoubtError(error);
    }
    if (replayed) return { status: 200, data: order, headers: { [replayedHeader]: 'true' } };
    return { status: 201, data: order };
  };

  return {
    async getLink(request, hash) {
      // Counted before the link is resolved: every unknown hash may be a request to the shop's own app.
      await deps.guards.beforeLink(request);
      const info = await resolve(request, hash);
      const { gateways, documentTypes } = await offeredGateways(linkCurrency(info), true);
      const link = toCheckoutLink(hash, info, gateways, documentTypes, deps.now());
      return { status: 200, data: checked(CheckoutLinkSchema, link, 'The link from resolveLink') };
    },

    async createOrder(request, hash) {
      const key = request.headers.get('idempotency-key')?.trim();
      if (!key) throw CheckoutHttpError.of('IDEMPOTENCY_KEY_REQUIRED');
      if (key.length > maxIdempotencyKeyLength) {
        throw CheckoutHttpError.invalid([{ field: 'Idempotency-Key', message: `must be at most ${maxIdempotencyKeyLength} characters` }]);
      }
      const parsed = parseWith(orderBodySchema(), await readJsonBody(request.body));
      if (!parsed.ok) throw CheckoutHttpError.invalid(parsed.problems);
      const body = parsed.value;
      const info = await resolve(request, hash);
      const orderKey = await orderKeyFor((await deps.secrets()).orderKey, hash, key);
      // Claimed before the service is called; see once/exactly-once.ts for what a repeat, a failure and an unknown outcome do.
      return createOnce(deps.store, deps.timings, orderKey, await bodyDigest(body), () => createNew(request, hash, info, body, orderKey));
    },

    async createdReply(details) {
      // Called for a held claim whose key is this order's `id_external` (webhook-intake.ts checks it).
      return { status: 201, data: await withToken(viewOf(details), details.id_external ?? '') };
    },

    async getOrder(request, rawId) {
      const own = await tokenOrder(request, rawId);
      await deps.guards.beforeLookup(request);
      const wait = readStatusWait(request.searchParams);
      if (Array.isArray(wait)) throw CheckoutHttpError.invalid(wait);
      if (!wait) return currentOrder(own);
      const read = async () => orderView(await readOwn(own));
      const { order, waited } = await deps.waits.wait(own.id, read, wait, request.signal, deps.guards.address(request), own.ref);
      return { status: 200, data: order, headers: waited ? { [statusWaitHeader]: String(wait.seconds) } : {} };
    },

    async submitOtp(request, rawId) {
      const own = await tokenOrder(request, rawId);
      const parsed = parseWith(OtpBodySchema, await readJsonBody(request.body));
      if (!parsed.ok) throw CheckoutHttpError.invalid(parsed.problems);
      await deps.guards.beforeCode(request, own.id);
      await readOwn(own); // the code goes to the token's order only
      await merchant.submitOtp(own.id, parsed.value.daviplata_otp);
      return currentOrder(own);
    },

    async statusDelivered(idOrder, status) {
      await deps.orderStatus?.delivered(idOrder, status, merchant);
    },

    async cancelOrder(request, rawId) {
      const own = await tokenOrder(request, rawId);
      await readJsonBody(request.body, { optional: true }); // no body is needed, but a hostile one is refused, not ignored
      await deps.guards.beforeCancel(request);
      await readOwn(own); // only the token's order is cancelled
      await merchant.cancel(own.id);
      return currentOrder(own);
    },
  };
}
