import * as z from 'zod/mini';
import { CurrencyCode } from './common.js';

const Day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD'),
  // A real calendar day: 2026-02-31 round-trips to another date.
  z.refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, { message: 'must be a real calendar date' }),
);

/** Query of `GET /merchant/{storeId}/dashboard/stats`; all required. */
export const DashboardStatsQuerySchema = z.object({ currency: CurrencyCode, date_from: Day, date_to: Day });

/** `result` of the dashboard statistics (this endpoint wraps in `result`, not `data`). */
export const DashboardStatsSchema = z.looseObject({
  currency: z.string(),
  date_from: z.string(),
  date_to: z.string(),
  total_revenue: z.number(),
  total_orders: z.int(),
  conversion_rate: z.number(),
  delta_revenue_pct: z.nullable(z.number()),
  delta_orders_pct: z.nullable(z.number()),
  daily_revenue: z.array(z.object({ date: z.string(), value: z.number() })),
  gateway_split: z.array(z.object({ gateway: z.string(), tpv: z.number(), pct: z.number() })),
  fees_vs_net: z.array(z.object({ date: z.string(), net_to_merchant: z.number(), fees: z.number() })),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;
