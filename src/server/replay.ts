/**
 * Whether the merchant API replayed an earlier order. The sandbox (and any service that deduplicates `order_key`)
 * answers a repeated `POST /orders` with the first order and `Idempotent-Replayed: true`; MerchantClient returns
 * bodies only, so the header is read through the `fetch` it is given. One client per watched call, so concurrent
 * requests never see each other's answers.
 */
import { MerchantClient, type MerchantClientOptions } from '../client/index.js';

export const replayedHeader = 'Idempotent-Replayed';

export interface ReplayWatch {
  merchant: MerchantClient;
  /** True once a response through `merchant` carried `Idempotent-Replayed: true`. */
  replayed(): boolean;
}

export function replayWatcher(options: MerchantClientOptions): () => ReplayWatch {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return () => {
    let replayed = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await baseFetch(input, init);
      if (response.headers.get(replayedHeader)?.trim().toLowerCase() === 'true') replayed = true;
      return response;
    };
    return { merchant: new MerchantClient({ ...options, fetch }), replayed: () => replayed };
  };
}
