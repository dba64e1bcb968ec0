import * as z from 'zod/mini';

/**
 * ISO 8601 date-time with seconds and `Z` or an offset, as the service sends timestamps (`2025-06-01T12:00:00.000Z`).
 * The very pattern `z.iso.datetime({ offset: true })` builds (real calendar dates, RFC 3339 times), written out:
 * zod's pattern builder and date-time class would add half a kilobyte gzip to the browser script.
 */
export const Timestamp = z.string().check(
  z.regex(
    /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/,
    'must be a valid datetime',
  ),
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
