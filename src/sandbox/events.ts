/**
 * Which webhooks the sandbox sends, and to whom: subscribed events to the partner's URL, every
 * event also to each local forward target. Fire and forget: a slow receiver never slows a buyer.
 * An event may follow an earlier one per receiver (link_paid after order_payment): see SendOptions.after.
 */
import type { WebhookEventName } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import type { SandboxIntegration, SandboxPartner, SandboxStore } from './model.js';
import { partnerOfStore } from './state.js';
import type { DeliveryRecord, DeliveryTarget } from './webhooks/delivery.js';

type OrderEvent = 'order_payment' | 'link_paid' | 'order_cancelled' | 'order_refunded';

/** Deliveries just started, by receiver URL, so a later event to the same receiver can follow them. */
export type SentDeliveries = ReadonlyMap<string, Promise<DeliveryRecord>>;

function dispatch(ctx: SandboxContext, targets: DeliveryTarget[], event: WebhookEventName, payload: object, after?: SentDeliveries): SentDeliveries {
  const sent = new Map<string, Promise<DeliveryRecord>>();
  for (const target of targets) {
    const earlier = after?.get(target.url);
    // send() never rejects, so nothing here can go unhandled.
    sent.set(target.url, ctx.deliverer.send(target, event, payload, earlier ? { after: { delivery: earlier, maxWaitMs: ctx.linkPaidWaitMs } } : {}));
  }
  return sent;
}

const forwardTargets = (ctx: SandboxContext, secret: string | null): DeliveryTarget[] =>
  ctx.state.forwardTargets.map((url) => ({ url, secret, label: 'forward' }));

const partnerTarget = (partner: SandboxPartner, url: string | null, signing: boolean): DeliveryTarget[] =>
  url ? [{ url, secret: signing ? partner.signing_secret : null, label: 'partner' }] : [];

/**
 * Order events: to the connected partner when the operator enabled the event; always to forward targets.
 * With `after`, each receiver gets this event once its delivery of the earlier one has finished (or stalled).
 */
export function emitOrderEvent(ctx: SandboxContext, store: SandboxStore, event: OrderEvent, payload: object, after?: SentDeliveries): SentDeliveries {
  const connection = partnerOfStore(ctx.state, store.id_store);
  // The unfinalized events exist only where the operator enabled them; then they travel like the others.
  const unfinalized = event === 'order_cancelled' || event === 'order_refunded';
  if (unfinalized && !connection?.partner.operator_events.includes(event)) return new Map();
  if (!connection) return dispatch(ctx, forwardTargets(ctx, store.signing_secret), event, payload, after);
  const { partner, integration } = connection;
  const subscribed = partner.operator_events.includes(event);
  const toPartner = subscribed ? partnerTarget(partner, integration.webhook.url, integration.webhook.signing_enabled) : [];
  return dispatch(ctx, [...toPartner, ...forwardTargets(ctx, partner.signing_secret)], event, payload, after);
}

/** Store lifecycle events: to the partner when the integration subscribes (PATCH /partners/webhook); always to forward targets. */
export function emitStoreEvent(
  ctx: SandboxContext,
  partner: SandboxPartner,
  integration: SandboxIntegration,
  event: 'store_onboarded' | 'integration_uninstalled' | 'store_updated' | 'store_deleted' | 'integration_installed',
  payload: object,
): void {
  const subscribed = integration.webhook.events.includes(event);
  const toPartner = subscribed ? partnerTarget(partner, integration.webhook.url, integration.webhook.signing_enabled) : [];
  dispatch(ctx, [...toPartner, ...forwardTargets(ctx, partner.signing_secret)], event, payload);
}

/** `test.ping`: one awaited attempt to the partner URL (or the first forward target), the others in the background. */
export async function sendTestPing(ctx: SandboxContext, partner: SandboxPartner): Promise<DeliveryRecord | null> {
  const payload = { event: 'test.ping', timestamp: ctx.iso(), partner: partner.name, message: 'Webhook test from the pay-checkout sandbox' };
  const forwards = forwardTargets(ctx, partner.signing_secret);
  const main = partnerTarget(partner, partner.webhook.url, partner.webhook.signing_enabled)[0] ?? forwards.shift();
  dispatch(ctx, forwards, 'test.ping', payload);
  if (!main) return null;
  return ctx.deliverer.send(main, 'test.ping', payload, { maxAttempts: 1 });
}
