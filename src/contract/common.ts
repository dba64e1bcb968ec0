import * as z from 'zod/mini';

/**
 * ISO 8601 date-time with `Z` or an offset, as the service sends timestamps (`2025-06-01T12:00:00.000Z`).
 * A regex check rather than `z.iso.datetime()`: the same ranges per field, and it keeps zod's date-time
 * builder (half a kilobyte gzip) out of the browser script, which validates every order with it.
 */
export const Timestamp = z.string().check(
  z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/, 'must be a valid datetime'),
);
/** `^[A-Z]{3}$` */
export const CurrencyCode = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO currency code'));
/** Service identifiers are positive integers. */
export const PositiveId = z.int().check(z.minimum(1));
/** An amount: positive; COP has no decimals (checked where the currency is known). */
export const Amount = z.number().check(z.gt(0));

/** `{ "data": T }`: the live service's success wrapper. */
export function dataOf<S extends z.ZodMiniType>(schema: S) {
  return z.object({ data: schema });
}

/** `{ "result": T }`: the wrapper of dashboard statistics and of the refund answer. */
export function resultOf<S extends z.ZodMiniType>(schema: S) {
  return z.object({ result: schema });
}

/** Path parameter `orderId`: an integer, minimum 1. Accepts the raw path text. */
export const OrderIdParam = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,15}$/, 'must be an integer of at least 1')),
  z.transform((s) => Number(s)),
);
