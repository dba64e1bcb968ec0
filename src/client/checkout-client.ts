import {
  CheckoutOrderBodySchema,
  CheckoutOrderCreatedSchema,
  CheckoutOrderSchema,
  idempotencyKeyHeader,
  orderTokenHeader,
} from '../contract/checkout.js';
import { botCheckHeader, type CheckoutOrder, type CheckoutOrderCreated, type CheckoutOrderInput } from '../contract/checkout.js';
import { OtpBodySchema } from '../contract/orders.js';
import { maxStatusWaitSeconds, statusWaitHeader } from '../contract/status-wait.js';
import { CheckoutLinkClient } from './link-client.js';
import { checkRequest, pathId, pathText, requireText } from './http.js';
import type { CallOptions } from './http.js';

/**
 * The buyer API (docs/site/contributing/architecture.md): what the element speaks. It carries no secrets;
 * an order is reachable only with the `order_token` its creation returned.
 * `getLink` and `baseUrl` come from `CheckoutLinkClient`.
 */
export class CheckoutClient extends CheckoutLinkClient {

  /** Creates the order; the same `idempotencyKey` with the same body returns the same order. */
  async createOrder(
    hash: string,
    body: CheckoutOrderInput,
    idempotencyKey: string,
    options: CallOptions & { botCheck?: string | undefined } = {},
  ): Promise<CheckoutOrderCreated> {
    const path = `/checkout/links/${pathText(hash, 'hash')}/orders`;
    return this.http.request({
      method: 'POST',
      path,
      headers: { [idempotencyKeyHeader]: requireText(idempotencyKey, idempotencyKeyHeader), ...(options.botCheck ? { [botCheckHeader]: options.botCheck } : {}) },
      body: checkRequest(CheckoutOrderBodySchema, body),
      schema: CheckoutOrderCreatedSchema,
      wrapper: 'data',
      signal: options.signal,
    });
  }

  /** Status and `next_action` of an order. */
  async getOrder(idOrder: number, orderToken: string, options: CallOptions = {}): Promise<CheckoutOrder> {
    return this.#orderCall('GET', idOrder, '', orderToken, undefined, options);
  }

  /**
   * Status of an order, waiting up to `seconds` (at most 25) for it to differ from `since`, the status last seen.
   * `waited` says whether the server offers waiting (`Order-Status-Wait` on the answer): a server that does not
   * answers at once, and the caller should poll instead.
   */
  async waitForOrder(
    idOrder: number,
    orderToken: string,
    since: CheckoutOrder['status'],
    seconds: number,
    options: CallOptions = {},
  ): Promise<{ order: CheckoutOrder; waited: boolean }> {
    let waited = false;
    const order = await this.http.request({
      method: 'GET',
      path: `/checkout/orders/${pathId(idOrder, 'id_order')}`,
      query: { wait: String(Math.min(Math.max(0, Math.round(seconds)), maxStatusWaitSeconds)), since },
      headers: { [orderTokenHeader]: requireText(orderToken, orderTokenHeader) },
      schema: CheckoutOrderSchema,
      wrapper: 'data',
      signal: options.signal,
      // The client's own timeout, on top of the longest wait a server grants.
      timeoutMs: this.http.timeoutMs > 0 ? this.http.timeoutMs + maxStatusWaitSeconds * 1000 : 0,
      onHeaders: (headers) => void (waited = headers.has(statusWaitHeader)),
    });
    return { order, waited };
  }

  /** Submits the 6-digit SMS code of the digital wallet. */
  async submitOtp(idOrder: number, orderToken: string, code: string, options: CallOptions = {}): Promise<CheckoutOrder> {
    const body = checkRequest(OtpBodySchema, { daviplata_otp: code });
    return this.#orderCall('POST', idOrder, '/otp', orderToken, body, options);
  }

  /** Cancels a `pending` or `processing` order; any other status is 4011. */
  async cancelOrder(idOrder: number, orderToken: string, options: CallOptions = {}): Promise<CheckoutOrder> {
    return this.#orderCall('POST', idOrder, '/cancel', orderToken, undefined, options);
  }

  async #orderCall(
    method: 'GET' | 'POST',
    idOrder: number,
    suffix: string,
    orderToken: string,
    body: unknown,
    options: CallOptions,
  ): Promise<CheckoutOrder> {
    const path = `/checkout/orders/${pathId(idOrder, 'id_order')}${suffix}`;
    return this.http.request({
      method,
      path,
      headers: { [orderTokenHeader]: requireText(orderToken, orderTokenHeader) },
      body,
      schema: CheckoutOrderSchema,
      wrapper: 'data',
      signal: options.signal,
    });
  }
}
