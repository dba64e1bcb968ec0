import { DashboardStatsQuerySchema, DashboardStatsSchema } from '../contract/dashboard.js';
import type { DashboardStats } from '../contract/dashboard.js';
import { DocumentTypeListSchema, PaymentGatewayListSchema } from '../contract/gateways.js';
import type { DocumentType, PaymentGateway } from '../contract/gateways.js';
import { merchantKeyHeader, partnerKeyHeader, partnerSecretHeader } from '../contract/headers.js';
import { CreateLinkBodySchema, CreatedLinkSchema } from '../contract/links.js';
import type { CreateLinkInput } from '../contract/links.js';
import {
  CancelledOrderSchema,
  CreateOrderBodySchema,
  CreatedOrderSchema,
  OrderDetailsSchema,
  OtpBodySchema,
  OtpResultSchema,
  RefundBodySchema,
  RefundResponseSchema,
} from '../contract/orders.js';
import type { CreateOrderInput, CreatedOrder, OrderDetails } from '../contract/orders.js';
import type * as z from 'zod/mini';
import { compiledOnUse } from '../contract/compiled.js';
import { HttpCore, checkRequest, pathId, pathText, requireText } from './http.js';
import { timedSend } from './timed-send.js';
import type { CallOptions, ClientOptions } from './http.js';
import { checkKeyTarget } from './keys.js';
import { dialectNoter, type NoteDialect, type OnDialect } from './dialect.js';
import { ServiceError } from './errors.js';
import { tolerantReader, type TolerantCreatedLink } from './tolerant-read.js';

export interface PartnerCredentials {
  apiKey: string;
  apiSecret: string;
}

export interface MerchantClientOptions extends ClientOptions {
  /** The store's secret key. Server-side only: never ship it to a browser. */
  merchantKey: string;
  /** A partner acting for the store adds its key pair as attribution; the store is still the merchant key's. */
  partner?: PartnerCredentials;
  /**
   * Told once per client for each way the service answers differently from the contract (a `result` wrapper, a
   * link's `link` field, the other cancel route...), so the log says which shape this account speaks.
   */
  onDialect?: OnDialect;
}

export interface CreateOrderOptions extends CallOptions {
  /** Sees the answer's headers, e.g. `Idempotent-Replayed` from a service that deduplicates `order_key`. */
  onHeaders?: (headers: Headers) => void;
}

export type CancelledOrder = z.infer<typeof CancelledOrderSchema>;
export type OtpResult = z.infer<typeof OtpResultSchema>;
/**
 * The refund body. `id_external` may be the order's own (`string | null`): null means the order has none to match,
 * so nothing is sent for it.
 */
export type RefundInput = { [K in keyof z.input<typeof RefundBodySchema>]?: z.input<typeof RefundBodySchema>[K] | null };
export type DashboardStatsQuery = z.input<typeof DashboardStatsQuerySchema>;

/** A create's two checks and the order read's, compiled (../contract/compiled.ts): each runs on every create or read. */
const createOrderBodySchema = compiledOnUse(CreateOrderBodySchema);
const createdOrderSchema = compiledOnUse(CreatedOrderSchema);
const orderDetailsSchema = compiledOnUse(OrderDetailsSchema);

/** The merchant API, authorized by `merchant-key` (and the partner pair when a partner acts for the store). */
export class MerchantClient {
  readonly #http: HttpCore;
  readonly #note: NoteDialect;
  /** The cancel route that last worked: the documented one until the service shows it takes only the other. */
  #cancelRoute: CancelRoute = 'post';

  constructor(options: MerchantClientOptions) {
    const headers: Record<string, string> = { [merchantKeyHeader]: requireText(options.merchantKey, 'merchantKey') };
    if (options.partner) {
      headers[partnerKeyHeader] = requireText(options.partner.apiKey, 'partner.apiKey');
      headers[partnerSecretHeader] = requireText(options.partner.apiSecret, 'partner.apiSecret');
    }
    this.#note = dialectNoter(options.onDialect);
    this.#http = new HttpCore(options, headers, timedSend, tolerantReader(this.#note));
    // Before anything is sent: a test key never reaches production, a live key never a sandbox.
    checkKeyTarget(options.merchantKey, 'merchantKey', this.#http.baseUrl);
    if (options.partner) {
      checkKeyTarget(options.partner.apiKey, 'partner.apiKey', this.#http.baseUrl);
      checkKeyTarget(options.partner.apiSecret, 'partner.apiSecret', this.#http.baseUrl);
    }
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** Creates and starts processing an order at once; `order_key` comes back as `id_external`. */
  async createOrder(body: CreateOrderInput, options: CreateOrderOptions = {}): Promise<CreatedOrder> {
    const payload = checkRequest(createOrderBodySchema(), body);
    const { signal, onHeaders } = options;
    return this.#http.request({ method: 'POST', path: '/orders', body: payload, schema: createdOrderSchema(), wrapper: 'data', shape: 'order_status', signal, ...(onHeaders ? { onHeaders } : {}) });
  }

  /** The order as the service sees it now: confirm a webhook's status with this before acting on it. */
  async getOrder(orderId: number, options: CallOptions = {}): Promise<OrderDetails> {
    const path = `/orders/${pathId(orderId, 'orderId')}`;
    return this.#http.request({ method: 'GET', path, schema: orderDetailsSchema(), wrapper: 'data', shape: 'order', signal: options.signal });
  }

  /** Full refund of a confirmed order within 96 hours of purchase; resolves to the service's message. */
  async refund(orderId: number, body: RefundInput = {}, options: CallOptions = {}): Promise<string> {
    const path = `/orders/refund/${pathId(orderId, 'orderId')}`;
    const payload = checkRequest(RefundBodySchema, withoutNulls(body));
    return this.#http.request({ method: 'POST', path, body: payload, schema: RefundResponseSchema.def.shape.result, wrapper: 'result-or-data', signal: options.signal });
  }

  /**
   * Cancels a `pending` or `processing` order; confirmed orders are refunded instead. The API reference's
   * `POST /orders/cancel/{id}` first; a 404 or 405 without the service's error body tries the guide's
   * `PUT /orders/{id}/cancel`, and the route that worked is used from then on.
   */
  async cancel(orderId: number, options: CallOptions = {}): Promise<CancelledOrder> {
    const id = pathId(orderId, 'orderId');
    const first = this.#cancelRoute;
    try {
      return await this.#cancelOn(first, id, options);
    } catch (error) {
      const wrongRoute = error instanceof ServiceError && !error.serviceBody && (error.status === 404 || error.status === 405);
      if (!wrongRoute) throw error;
      const other: CancelRoute = first === 'post' ? 'put' : 'post';
      let cancelled: CancelledOrder;
      try {
        cancelled = await this.#cancelOn(other, id, options);
      } catch (second) {
        // Neither route exists: the documented route's failure is the one to report.
        throw second instanceof ServiceError && !second.serviceBody && (second.status === 404 || second.status === 405) ? error : second;
      }
      this.#cancelRoute = other;
      if (other === 'put') this.#note('cancel_put_route', `PUT /orders/${id}/cancel`);
      return cancelled;
    }
  }

  #cancelOn(route: CancelRoute, id: string, options: CallOptions): Promise<CancelledOrder> {
    const call = route === 'post' ? ({ method: 'POST', path: `/orders/cancel/${id}` } as const) : ({ method: 'PUT', path: `/orders/${id}/cancel` } as const);
    return this.#http.request({ ...call, schema: CancelledOrderSchema, wrapper: 'data', shape: 'order_status', signal: options.signal });
  }

  /** Submits the digital wallet's 6-digit SMS code. */
  async submitOtp(orderId: number, code: string, options: CallOptions = {}): Promise<OtpResult> {
    const path = `/orders/daviplata/${pathId(orderId, 'orderId')}`;
    const payload = checkRequest(OtpBodySchema, { daviplata_otp: code });
    return this.#http.request({ method: 'POST', path, body: payload, schema: OtpResultSchema, wrapper: 'data', shape: 'order_status', signal: options.signal });
  }

  /**
   * Creates a payment link; leave out `amount` for a dynamic link. The URL and hash are always there; the live
   * service may leave out `payment_link_id` and `expires_at` (it answers `{ link, hash, wallet_id }`).
   */
  async createLink(body: CreateLinkInput, options: CallOptions = {}): Promise<TolerantCreatedLink> {
    const payload = checkRequest(CreateLinkBodySchema, body);
    return this.#http.request({ method: 'POST', path: '/links', body: payload, schema: CreatedLinkSchema, wrapper: 'data', shape: 'link', signal: options.signal });
  }

  /** The gateways this store may offer; show only these. */
  async paymentGateways(options: CallOptions = {}): Promise<PaymentGateway[]> {
    const path = '/orders/paymentGateways';
    return this.#http.request({ method: 'GET', path, schema: PaymentGatewayListSchema, wrapper: 'data', shape: 'gateways', signal: options.signal });
  }

  /** The valid `id_type`s of a country (only `CO` today). */
  async documentTypes(countryCode = 'CO', options: CallOptions = {}): Promise<DocumentType[]> {
    const path = `/national-document-types/${pathText(countryCode, 'countryCode')}`;
    return this.#http.request({ method: 'GET', path, schema: DocumentTypeListSchema, wrapper: 'data', signal: options.signal });
  }

  /** Revenue, orders and gateway split for a date range (inclusive, YYYY-MM-DD). */
  async dashboardStats(storeId: number, query: DashboardStatsQuery, options: CallOptions = {}): Promise<DashboardStats> {
    const path = `/merchant/${pathId(storeId, 'storeId')}/dashboard/stats`;
    const q = checkRequest(DashboardStatsQuerySchema, query);
    return this.#http.request({ method: 'GET', path, query: q, schema: DashboardStatsSchema, wrapper: 'result', signal: options.signal });
  }
}

type CancelRoute = 'post' | 'put';

/** Drops null fields: the service's optional fields take a value or nothing. */
function withoutNulls<T extends object>(body: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as { [K in keyof T]: Exclude<T[K], null> };
}
