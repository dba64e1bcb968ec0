import { CheckoutLinkSchema } from '../contract/checkout-link.js';
import type { CheckoutLink } from '../contract/checkout-link.js';
import { HttpCore, pathText } from './http.js';
import type { CallOptions, ClientOptions } from './http.js';

/**
 * The buyer API's first call (design.md §3), all the element's first script needs to reach the first screen.
 * `CheckoutClient` extends it with the order calls; the element loads those with its later steps.
 */
export class CheckoutLinkClient {
  protected readonly http: HttpCore;

  constructor(options: ClientOptions = {}) {
    this.http = new HttpCore(options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** Everything the first screen needs: store, amount (absent on dynamic links), gateways, document types. */
  async getLink(hash: string, options: CallOptions = {}): Promise<CheckoutLink> {
    return this.http.request({
      method: 'GET',
      path: `/checkout/links/${pathText(hash, 'hash')}`,
      schema: CheckoutLinkSchema,
      wrapper: 'data',
      signal: options.signal,
    });
  }
}
