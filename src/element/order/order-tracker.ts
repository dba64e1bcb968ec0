import type { ReactiveControllerHost } from 'lit';
import { CheckoutClient } from '../../client/checkout-client.js';
import type { ClientOptions } from '../../client/send.js';
import type { CheckoutOrder } from '../../contract/checkout.js';
import { isSafeRedirectUrl } from '../../contract/redirect-url.js';
import { toFlowError } from '../../flow/errors.js';
import { expiresAtOf, hasOrder, isWaiting, orderOf } from '../../flow/selectors.js';
import type { FlowEvent, FlowRequest, FlowState, ResultState } from '../../flow/types.js';
import type { Messages } from '../../i18n/messages.js';
import { Countdown } from './countdown.js';
import { StatusChecks, type StatusCheck } from './status-checks.js';
import { maxStatusWaitSeconds } from '../../contract/status-wait.js';
import { defaultStatusTimings } from '../internal/status-timings.js';
import type { StatusTimings } from '../internal/status-timings.js';
import { payCancelledEvent } from '../events/pay-cancelled.js';
import { payFailedEvent } from '../events/pay-failed.js';
import type { PayFailedDetail } from '../events/pay-failed.js';
import { payOrderCreatedEvent } from '../events/pay-order-created.js';
import { payPaidEvent } from '../events/pay-paid.js';
import { markOrderCreated, markPaid } from '../internal/paid-timing.js';
import { holdHeight } from '../internal/hold-height.js';
import { payStatusChangeEvent } from '../events/pay-status-change.js';
import { readSavedOrder } from './session.js';
import { clearSavedOrder, saveOrder } from './keep-order.js';
import type { SavedOrder } from './session.js';
import { forgetReceipt, keepReceipt, keptReceipt } from './receipt-store.js';

/**
 * The tracker's one way into the flow and the page, which `<pay-checkout>` builds and hands it: the flow's state and
 * events, the live region (once the whole catalog is here) and the element's test hooks.
 */
export interface OrderPort {
  /** The flow state on screen. */
  flow(): FlowState;
  /** Hands an event to the flow. */
  send(event: FlowEvent): void;
  /** Says words of the whole catalog in the live region; nothing until that catalog is here. */
  say(text: (m: Messages) => string): void;
  /** The element's test hooks: its class's static `statusTimings` and `navigate`, read when used. */
  readonly hooks: { readonly statusTimings: StatusTimings | undefined; navigate(url: string): void };
}

/** The element the tracker's events go to and its controllers live on: the link hash and the page's bot-check token. */
export type OrderHost = ReactiveControllerHost & HTMLElement & { readonly link: string; readonly botCheck: string | undefined };

/**
 * @internal Everything `<pay-checkout>` does once there is an order: create it, submit the code, cancel,
 * check its status (one controller, single flight), count down to `expires_at`, keep it in sessionStorage,
 * and report it in events. Arrives with the later steps, so the first screen's script holds none of it.
 */
export class OrderTracker {
  /** Where the events go and the controllers live: the `<pay-checkout>` element. */
  private readonly _element: OrderHost;
  private readonly _port: OrderPort;
  private _client: CheckoutClient;
  /** Bumped on each restart, so answers for an older link are dropped. */
  private _run = 0;
  /** Server clock minus this device's, measured when an order is created; countdowns subtract it. */
  private _skewMs = 0;
  /** Per order: the last status reported in `pay-status-change`, and outcomes already reported. */
  private _lastStatus = new Map<number, CheckoutOrder['status']>();
  private _reported = new Set<number>();

  private readonly _status: StatusChecks;
  private readonly _countdown: Countdown;

  constructor(element: OrderHost, port: OrderPort, client: ClientOptions) {
    this._element = element;
    this._port = port;
    this._client = new CheckoutClient(client);
    // The two controllers of the order, made here with the later steps (the element makes the others).
    this._status = new StatusChecks(element, {
      check: (signal, mode) => this._checkStatus(signal, mode.wait),
      timings: () => this.timings,
    });
    this._countdown = new Countdown(element, {
      // The end is not said here: the expired screen's heading says it, once.
      onMilestone: (seconds) => seconds > 0 && port.say((m) => m.countdown.milestone(seconds)),
      onStart: (seconds) => port.say((m) => m.countdown.start(seconds)),
      onEnd: () => port.send({ type: 'time_up' }),
    });
  }

  /** Milliseconds left on the step's countdown; null when it has none. */
  get remainingMs(): number | null {
    return this._countdown.remainingMs;
  }

  /** A new link or API base: nothing of the old run goes on. */
  restart(client: ClientOptions): void {
    this._run += 1;
    this._client = new CheckoutClient(client);
    this.stop();
  }

  stop(): void {
    this._status.stop();
    this._countdown.set(null);
  }

  /**
   * The status checks' timings: the element's test hook (`PayCheckout.statusTimings`, through the port), else the
   * defaults. The one way they reach order/: the status checks and a resume's retries both read them here.
   */
  get timings(): StatusTimings {
    return this._port.hooks.statusTimings ?? defaultStatusTimings;
  }

  /** The order saved for a reload or a return from the card page, as the service sees it now. */
  async savedOrder(saved: SavedOrder, signal: AbortSignal): Promise<CheckoutOrder> {
    this._skewMs = saved.skew_ms ?? 0;
    return this._client.getOrder(saved.id_order, saved.order_token, { signal });
  }

  /** The receipt this device keeps for the link, if fresh (no token in it). */
  keptReceipt(): CheckoutOrder | null {
    return keptReceipt(this._element.link);
  }

  /** Carries out an order request of the flow; its answer goes back to the flow unless the run is over. */
  async perform(request: Exclude<FlowRequest, { kind: 'load_link' }>, signal: AbortSignal): Promise<void> {
    const run = this._run;
    const hash = this._element.link;
    const answer = (event: FlowEvent) => {
      if (run === this._run && !signal.aborted) this._port.send(event);
    };
    const failed = (thrown: unknown) => {
      if (!signal.aborted) answer({ type: 'order_failed', error: toFlowError(thrown) });
    };
    const received = (order: CheckoutOrder) => answer({ type: 'status_received', order });
    switch (request.kind) {
      case 'create_order':
        return this._client.createOrder(hash, request.body, request.idempotencyKey, { signal, botCheck: this._element.botCheck }).then((order) => answer({ type: 'order_created', order }), failed);
      case 'submit_otp':
        return this._client.submitOtp(request.id_order, request.order_token, request.code, { signal }).then(received, failed);
      case 'cancel_order':
        return this._client.cancelOrder(request.id_order, request.order_token, { signal }).then(received, failed);
      case 'check_status':
        // Through the one status controller, so a poll already in flight answers it.
        return this._status.checkNow(true);
    }
  }

  /** After each step of the flow: events about the order, the saved order, the countdown and the status checks. */
  after(next: FlowState, event: FlowEvent): void {
    holdHeight(this._element, event);
    this._report(next, event);
    // The resuming screen's words, said too: the buyer waits on it for a while.
    if (next.step === 'resuming' && event.type === 'resume_retrying') this._port.say((m) => m.resuming[next.card ? 'card' : 'order']);
    const hash = this._element.link;
    if (event.type === 'order_created') {
      this._skewMs = skewOf(event.order.created_at);
      saveOrder({ hash, id_order: event.order.id_order, order_token: event.order.order_token, skew_ms: this._skewMs, expires_at: expiresAtOf(next) });
      // A new payment of the link: its receipt, when paid, replaces the old one.
      forgetReceipt(hash);
    } else if (isResult(next)) {
      // The order is over: its token goes. A paid one leaves its receipt (no token) for a reload or a discarded tab.
      clearSavedOrder(hash);
      if (next.step === 'paid' && !next.restored) keepReceipt(hash, next.order);
    } else if (event.type === 'status_received' && !hasOrder(next)) {
      // Cancelled to change method or number: a reload must not bring the cancelled order back.
      clearSavedOrder(hash);
    } else if (event.type === 'new_payment') {
      forgetReceipt(hash);
    }
    this._countdown.set(expiresAtOf(next), this._skewMs);
    if (isWaiting(next)) this._status.start();
    else this._status.stop();
  }

  /** The card step's link was followed: note it, so coming back checks the order instead of sending again. */
  handOff(url: string): void {
    // The contract refused such a URL already; this is the last check before the page leaves (javascript:, data:).
    if (!isSafeRedirectUrl(url)) return this._port.send({ type: 'handoff_refused' });
    const saved = readSavedOrder(this._element.link);
    if (saved) saveOrder({ ...saved, handed_off: true });
    this._port.hooks.navigate(url);
  }

  /** One status check of the order on screen; its answer goes to the flow. */
  private async _checkStatus(signal: AbortSignal, wait: boolean): Promise<StatusCheck> {
    const state = this._port.flow();
    if (!hasOrder(state)) return { ok: true };
    const run = this._run;
    const id = state.order.id_order;
    const current = () => run === this._run && !signal.aborted && orderOf(this._port.flow())?.id_order === id;
    try {
      // Waiting: the server answers when the status differs from the one on screen (or after 25 s).
      const { order, waited } = wait
        ? await this._client.waitForOrder(id, state.orderToken, state.order.status, maxStatusWaitSeconds, { signal })
        : { order: await this._client.getOrder(id, state.orderToken, { signal }), waited: false };
      if (current()) this._port.send({ type: 'status_received', order });
      return { ok: true, waited };
    } catch (thrown) {
      if (current()) this._port.send({ type: 'status_failed', error: toFlowError(thrown) });
      return { ok: false };
    }
  }

  private _report(next: FlowState, event: FlowEvent): void {
    const host = this._element;
    // A receipt shown again from this device was reported when it was paid.
    if (next.step === 'paid' && next.restored) return;
    if (event.type === 'order_created') {
      host.dispatchEvent(payOrderCreatedEvent({ id_order: event.order.id_order, gateway: event.order.gateway }));
      markOrderCreated(event.order.gateway.kind);
    }
    const order = orderOf(next);
    if (order) {
      const previous = this._lastStatus.get(order.id_order) ?? null;
      if (previous !== order.status) {
        this._lastStatus.set(order.id_order, order.status);
        host.dispatchEvent(payStatusChangeEvent({ id_order: order.id_order, status: order.status, previous }));
      }
    }
    if (isResult(next) && !this._reported.has(next.order.id_order)) {
      this._reported.add(next.order.id_order);
      if (next.step === 'paid') markPaid(next.order.gateway.kind);
      host.dispatchEvent(outcomeEvent(next));
    }
  }
}

const resultSteps: readonly FlowState['step'][] = ['paid', 'declined', 'cancelled', 'expired'];
const isResult = (s: FlowState): s is ResultState => resultSteps.includes(s.step);

/** Server time minus device time, from a timestamp the server just made; 0 when unreadable. */
function skewOf(serverNow: string): number {
  const server = Date.parse(serverNow);
  return Number.isNaN(server) ? 0 : server - Date.now();
}

function outcomeEvent(state: ResultState): Event {
  const { order } = state;
  const id_order = order.id_order;
  switch (state.step) {
    case 'paid':
      return payPaidEvent({ id_order, amount: order.amount, currency: order.currency, gateway: order.gateway });
    case 'declined':
      return payFailedEvent({ id_order, reason: 'declined' });
    case 'expired':
      return payFailedEvent({ id_order, reason: 'expired' });
    case 'cancelled': {
      if (order.cancel_reason === 'otp_attempts') return payFailedEvent({ id_order, reason: 'otp_attempts' satisfies PayFailedDetail['reason'] });
      if (order.status === 'refunded') return payCancelledEvent({ id_order, reason: 'refunded' });
      return payCancelledEvent({ id_order, reason: order.cancel_reason === 'merchant' ? 'merchant' : 'buyer' });
    }
  }
}
