/**
 * `npx pay-checkout stores …`, read with serve's own partner settings: the operator's view of the shops (no secret
 * printed), binding a shop whose onboarding did not carry its id, disconnecting one, and re-wrapping every data
 * key under the first of `PAY_CHECKOUT_KEYS`. `deliveries --store ID` and `deliveries redeliver --store ID --failed`
 * read the shops' notices.
 */
import { runDeliveries } from '../relay/index.js';
import { noticesOutbox, openRegistry } from './index.js';
import type { PartnerServeSettings } from './settings.js';
import { shopNotices } from './shop-notices.js';

export const storesUsage = `usage: pay-checkout stores [--json]
       pay-checkout stores bind STORE_ID ID_STORE     connect a shop by hand with a store_onboarded that named no shop
       pay-checkout stores disconnect STORE_ID        wipe its merchant key; its links stop taking payments
       pay-checkout stores rotate-keys                re-wrap every shop's data key under the first PAY_CHECKOUT_KEYS key`;

type Print = (line: string) => void;

export async function runStores(settings: PartnerServeSettings, args: readonly string[], print: Print): Promise<number> {
  const registry = await openRegistry(settings);
  const notices = shopNotices({ outbox: noticesOutbox(settings.store), registry, policy: { allowLocal: settings.partner.allowLocalShops }, emit: () => {} });
  try {
    const [verb, first, second, ...rest] = args;
    if (verb === 'rotate-keys' && first === undefined) {
      const { rewrapped, total } = await registry.rotate();
      await registry.selfTest();
      print(`${rewrapped} of ${total} shop data key(s) re-wrapped under the first key; the others were already.`);
      return 0;
    }
    if (verb === 'bind' && first && second && rest.length === 0 && /^[1-9]\d{0,15}$/.test(second)) {
      const record = await registry.get(first);
      if (!record) return (print(`No shop ${first}.`), 1);
      const onboarding = await registry.takeUnbound(Number(second));
      if (!onboarding) return (print(`No store_onboarded for id_store ${second} is waiting to be bound (they are kept 7 days).`), 1);
      const connected = await registry.connect(first, onboarding.merchantKey, Number(second));
      if (connected && record.status !== 'connected') await notices.recordStore(first, 'store.connected', { id_store: connected.id_store }, record.status_since);
      print(`${first} connected to id_store ${second}.`);
      return 0;
    }
    if (verb === 'disconnect' && first && second === undefined) {
      const changed = await registry.disconnect(first, 'operator');
      if (!changed) return (print(`No shop ${first}.`), 1);
      if (changed.before.status !== 'disconnected') await notices.recordStore(first, 'store.disconnected', { reason: 'operator' }, changed.before.status_since);
      print(`${first} disconnected.`);
      return 0;
    }
    if (verb === undefined || (verb === '--json' && first === undefined)) {
      const [shops, orders, pending] = await Promise.all([registry.list(), registry.ordersSince(Date.now() - 24 * 60 * 60 * 1000), notices.pendingByShop()]);
      const rows = shops
        .sort((a, b) => a.created_at - b.created_at)
        .map((s) => ({ store_id: s.store_id, name: s.name, status: s.status, since: new Date(s.status_since).toISOString(), id_store: s.id_store, orders_24h: orders.get(s.store_id) ?? 0, notices_pending: pending.get(s.store_id) ?? 0 }));
      if (verb === '--json') print(JSON.stringify(rows));
      else if (rows.length === 0) print('No shops.');
      else for (const r of rows) print([r.store_id, JSON.stringify(r.name), r.status, `since ${r.since}`, `id_store ${r.id_store ?? '-'}`, `${r.orders_24h} order(s) in 24 h`, `${r.notices_pending} notice(s) pending`].join('  '));
      return 0;
    }
    print(storesUsage);
    return 2;
  } finally {
    await notices.close();
    await registry.close();
  }
}

/** `deliveries [--store ID] [--json] [--given-up | --pending]`, `deliveries redeliver ID`, `deliveries redeliver --store ID --failed`. */
export async function runPartnerDeliveries(settings: PartnerServeSettings, args: readonly string[], print: Print): Promise<number> {
  const registry = await openRegistry(settings);
  const notices = shopNotices({ outbox: noticesOutbox(settings.store), registry, policy: { allowLocal: settings.partner.allowLocalShops }, emit: () => {} });
  try {
    const rest = [...args];
    const at = rest.indexOf('--store');
    let store: string | undefined;
    if (at >= 0) {
      store = rest[at + 1];
      if (!store || store.startsWith('-')) return (print('usage: pay-checkout deliveries [--store STORE_ID] … | deliveries redeliver --store STORE_ID --failed'), 2);
      rest.splice(at, 2);
    }
    if (rest[0] === 'redeliver' && store) {
      if (rest.length !== 2 || rest[1] !== '--failed') return (print('usage: pay-checkout deliveries redeliver --store STORE_ID --failed'), 2);
      const count = await notices.redeliverFailed(store);
      print(`${count} given-up notice(s) of ${store} due again now; the running serve sends them.`);
      return 0;
    }
    return await runDeliveries({ relay: { list: (filter) => notices.list({ ...(store ? { store } : {}), ...(filter?.states ? { states: filter.states } : {}) }), redeliver: (id) => notices.redeliver(id) }, args: rest, print });
  } finally {
    await notices.close();
    await registry.close();
  }
}
