import type { CheckoutLink } from '../contract/checkout-link.js';
import { HttpCore } from './http.js';
import type { CallOptions, ClientOptions } from './http.js';
import { linkSpec } from './checkout-link.js';
import { linkPath } from './send.js';

/**
 * The buyer API's first call. `CheckoutClient` extends it with the order calls. The element
 * splits it in two: `send()` in its first script, `readLinkAnswer()` in the chunk that brings the schemas.
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
    return this.http.request({ method: 'GET', path: linkPath(hash), signal: options.signal, ...linkSpec });
  }
}
