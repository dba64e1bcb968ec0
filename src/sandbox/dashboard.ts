/** Dashboard statistics over the store's orders, by Colombian calendar day (COT, UTC-5). */
import type { DashboardStats } from '../contract/index.js';
import type { SandboxContext } from './context.js';

/** The sandbox's flat fee for the fees-vs-net chart; the live rate is not published. */
export const sandboxFeeRate = 0.03;
const cotOffsetMs = -5 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

const cotDay = (ms: number) => new Date(ms + cotOffsetMs).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) - cotOffsetMs;

export function dashboardStats(ctx: SandboxContext, idStore: number, query: { currency: string; date_from: string; date_to: string }): DashboardStats {
  const from = dayStart(query.date_from);
  const to = dayStart(query.date_to) + dayMs; // date_to is inclusive
  const span = Math.max(dayMs, to - from);
  const orders = [...ctx.state.orders.values()].filter((o) => o.id_store === idStore && o.currency === query.currency);
  const inRange = (start: number, end: number) => orders.filter((o) => o.created_at >= start && o.created_at < end);
  const paid = (list: typeof orders) => list.filter((o) => o.status === 'confirmed');
  const current = inRange(from, to);
  const previous = inRange(from - span, from);
  const revenue = (list: typeof orders) => paid(list).reduce((sum, o) => sum + o.amount, 0);
  const totalRevenue = revenue(current);
  const pct = (now: number, before: number) => (before === 0 ? null : Math.round(((now - before) / before) * 10_000) / 100);

  const days: string[] = [];
  for (let t = from; t < to && days.length < 400; t += dayMs) days.push(cotDay(t));
  const byDay = new Map(days.map((d) => [d, 0]));
  for (const o of paid(current)) byDay.set(cotDay(o.created_at), (byDay.get(cotDay(o.created_at)) ?? 0) + o.amount);

  const split = new Map<string, number>();
  for (const o of paid(current)) {
    const name = ctx.state.gateways.find((g) => g.id_payment_gateway === o.id_payment_gateway)?.gateway ?? 'unknown';
    split.set(name, (split.get(name) ?? 0) + o.amount);
  }
  return {
    currency: query.currency,
    date_from: query.date_from,
    date_to: query.date_to,
    total_revenue: totalRevenue,
    total_orders: paid(current).length,
    conversion_rate: current.length === 0 ? 0 : Math.round((paid(current).length / current.length) * 10_000) / 100,
    delta_revenue_pct: pct(totalRevenue, revenue(previous)),
    delta_orders_pct: pct(paid(current).length, paid(previous).length),
    daily_revenue: [...byDay].map(([date, value]) => ({ date, value })),
    gateway_split: [...split].map(([gateway, tpv]) => ({ gateway, tpv, pct: totalRevenue === 0 ? 0 : tpv / totalRevenue })),
    fees_vs_net: [...byDay].map(([date, value]) => ({ date, fees: Math.round(value * sandboxFeeRate), net_to_merchant: value - Math.round(value * sandboxFeeRate) })),
  };
}
