import type { Environment, OnDialect } from '../client/index.js';
import type { CheckoutGateway } from '../contract/index.js';
import type { ClaimStore } from './once/claims.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import type { EventSink } from './events.js';
import type { OpenTelemetryApi } from './telemetry/telemetry.js';
import type { BotCheck } from './buyer/guards.js';
import type { LimitsOption } from './limits/limits.js';
import type { WaiterCaps } from './buyer/status-wait.js';
import type { ResolveLink } from './buyer/links.js';
import type { ClaimTimings } from './once/exactly-once.js';
import type { OnOrderStatus } from './buyer/order-status.js';
import type { SweepTimings } from './sweep/sweep.js';

export interface CheckoutHandlerOptions {
  /** The store's secret key: it stays on this server and never appears in a response. */
  merchantKey: string;
  /** The service's `{base_url}` (ends in `/v1`), e.g. the sandbox's; wins over `environment`. */
  baseUrl?: string;
  /** `production` (default) or `development`, when `baseUrl` is not given. */
  environment?: Environment;
  /** The merchant's payment links by hash; null answers 404 LINK_NOT_FOUND. */
  resolveLink: ResolveLink;
  /**
   * Signs order tokens, at least 16 characters. A list during a rotation: tokens are signed with the first and
   * accepted under any. Default: derived from the merchant key. Order keys never depend on it.
   */
  secret?: string | readonly string[];
  /** Injected `fetch` for the merchant API calls. */
  fetch?: typeof globalThis.fetch;
  /** Where the buyer API lives in the request path: `{basePath}/checkout/...`; default `/v1`. */
  basePath?: string;
  /** Origins allowed to call cross-origin, or `*`; default none (same-origin only). */
  allowedOrigins?: '*' | readonly string[];
  /** The gateways to offer, instead of asking `GET /orders/paymentGateways`. */
  gateways?: CheckoutGateway[];
  /**
   * Where Idempotency-Key claims live. Default: `memoryClaimStore()`, right for one instance; on several
   * instances pass one shared store, `createRedisStore({ url })` from `pay-checkout/server/redis`.
   */
  store?: ClaimStore;
  /** Claim lease, how long replies are kept, and how long a repeat waits (see once/exactly-once.ts for the defaults and why). */
  claimTimings?: Partial<ClaimTimings>;
  /**
   * The webhook signing secret of the account. With it, `POST {basePath}/webhooks` accepts signed `order_payment`
   * deliveries: they settle creates whose outcome was unknown and wake waiting status requests.
   */
  webhookSecret?: string | readonly string[];
  /**
   * Sees every delivery the intake verified, under either header family (`X-Service-*`, `X-Wava-*`); one whose event
   * or shape is unknown arrives as `{ event: 'unknown', name, payload }` (acknowledged 200, never refused).
   */
  onWebhook?: (delivery: WebhookDelivery) => void;
  /**
   * Told each outcome of an order made through a link (`confirmed`, `cancelled`, `refunded`) with the link's hash:
   * from the verified webhooks with `webhookSecret`, and from the buyers' own status checks, once per order and
   * status on an instance. A rejection fails the webhook (the service delivers it again). `pay-checkout serve` relays
   * these to the shop (`createRelay`), whose outbox keeps one per order and status across instances.
   */
  onOrderStatus?: OnOrderStatus;
  /**
   * With `onOrderStatus`, every order created is followed until it is final: read back from the service
   * (`GET /orders/{id}`) soon after its creation, then further apart, then once after its expiry, by one instance at a
   * time (a lease in `store`), at most `maxReads` times over its life and `readsPerSecond` per instance; an outcome no
   * webhook or buyer reported is reported then, once (servers/handler.md, "The sweep"). Change any timing here, or
   * `false` to turn it off. Defaults: `defaultSweepTimings`.
   */
  sweep?: Partial<SweepTimings> | false;
  /**
   * While a status request waits (`?wait=25&since=STATUS`), how often the handler asks `GET /orders/{id}`; default
   * 2,000 ms. A webhook through `webhookSecret` wakes it sooner, on every instance sharing `store`.
   */
  statusPollMs?: number;
  /**
   * Caps on waiting status requests: per order (default 100), per client address (100) and per instance (10,000).
   * Past one, a request is answered at once with the current status and the element polls instead.
   */
  statusWaiters?: Partial<WaiterCaps>;
  /** Per merchant API call; default the client's 15 s. */
  timeoutMs?: number;
  /** Country of the document types; default `CO`. */
  countryCode?: string;
  /** Injectable clock (link expiry). */
  now?: () => number;
  /**
   * Abuse limits, on by default (docs/site/servers/limits.md): change any with `{ ordersPerPhone: { max, windowMs } }`,
   * or turn them off with `false`. Counters live in `limits.store`, else the claim store's `limitStore`, else memory.
   */
  limits?: LimitsOption;
  /** Proxies in front of this server that append to `X-Forwarded-For`; the client is the entry that many hops in. Default 0. */
  trustProxy?: number;
  /** The buyer's address where the runtime knows it (serverless, edge); wins over the socket's and `trustProxy`. */
  clientAddress?: (request: Request) => string | null | undefined;
  /** Called before a new order is created with the page's bot-check token (`X-Bot-Check`); false refuses with 403. */
  botCheck?: BotCheck;
  /**
   * Told once for each way the service answers differently from the contract (a `result` wrapper, the other cancel
   * route...), so the log says which shape this account speaks. Default: one `service_dialect` event each through
   * `onEvent`, once per handler; a callback given here is told once per variant however many handlers share it.
   */
  onDialect?: OnDialect;
  /** Unexpected failures (answered 500 7001); default console.error. Never given the merchant key. */
  onError?: (error: unknown) => void;
  /**
   * Every event of the handler and of its store (`store_error`, `limit_reached`, `webhook_refused`, …) as a plain
   * JSON object with `level`, `name` and `message`; default: one console line each. Nothing secret or personal in one.
   */
  onEvent?: EventSink;
  /**
   * Traces and metrics through `@opentelemetry/api` (servers/operating.md): default, imported by name where it is
   * installed (a no-op until an SDK is registered); the module itself for a bundle that cannot import it; false for none.
   */
  openTelemetry?: OpenTelemetryApi | false;
  /** `GET {basePath}/health/ready` answers 503 when the claim store does not answer within this; default 1,000 ms. */
  readyTimeoutMs?: number;
}

export type CheckoutHandler = (request: Request) => Promise<Response>;

export interface DrainOptions {
  /** How long requests under way (creates at the service) may take to finish; default 10,000 ms. */
  graceMs?: number;
  /**
   * How long requests are still taken as usual after `/health/ready` turned 503, before the grace starts: a load
   * balancer probing readiness stops sending first, so no request meets a closed socket. Default 0.
   */
  acceptForMs?: number;
}

export interface DrainResult {
  /** Requests still unanswered when the grace ran out (0: every one finished). */
  unfinished: number;
}

/** What `createCheckoutHandler()` returns: the handler, and `drain()` for a graceful shutdown (servers/operating.md). */
export type DrainableCheckoutHandler = CheckoutHandler & {
  /**
   * Shutting down: `/health/ready` answers 503, every waiting status request is answered now with the current
   * status, and the promise settles once the requests under way have finished, or after `graceMs`.
   */
  drain(options?: DrainOptions): Promise<DrainResult>;
};
