/**
 * Whether the merchant API replayed an earlier order. The sandbox (and any service that deduplicates `order_key`)
 * answers a repeated `POST /orders` with the first order and `Idempotent-Replayed: true`; the handler reads it from
 * the answer's headers through `createOrder`'s `onHeaders`, per call, so concurrent requests never see each other's.
 */
export const replayedHeader = 'Idempotent-Replayed';

export const isReplayed = (headers: Headers) => headers.get(replayedHeader)?.trim().toLowerCase() === 'true';
