import * as z from 'zod/mini';

/** ISO 8601 date-time in UTC, as the service sends timestamps. */
export const Timestamp = z.iso.datetime({ offset: true });
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
