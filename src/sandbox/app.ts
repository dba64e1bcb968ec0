/**
 * The sandbox as one web-standard handler: the API at /v1, the control API at /sandbox, the onboarding
 * and card pages, the hosted checkout. Runs in Node (server.ts) and inside Vite (vite-plugin.ts).
 */
import { Hono } from 'hono';
import { errorBody, maxBodyBytes, sandboxHeader } from '../contract/index.js';
import { createClock, type SandboxClock } from './clock.js';
import { defaultLinkPaidWaitMs, defaultPushAutoDeclineMs, type SandboxContext, type SandboxTimings } from './context.js';
import { ConnectionDropped, faultMiddleware, isDroppedConnection } from './faults.js';
import { ApiError, errorJson, readJsonFirst } from './http.js';
import { sweepExpired } from './orders.js';
import { answerWaitsNow } from './status-wait.js';
import { checkoutRoutes } from './routes/checkout.js';
import { controlRoutes } from './routes/control.js';
import { merchantRoutes } from './routes/merchant.js';
import { openApiRoutes } from './routes/openapi.js';
import { hostedPageHints, pageRoutes } from './routes/pages.js';
import { partnerRoutes } from './routes/partner.js';
import { receiverRoutes } from './routes/receiver.js';
import { createState, resetState, type SandboxState } from './state.js';
import { SandboxGuard, type SandboxGuardOptions } from './guard.js';
import { guardMiddleware } from './guard-middleware.js';
import { createDeliverer, type Deliverer } from './webhooks/delivery.js';
import type { SandboxDialect } from './dialect.js';
import { liveAnswers } from './live-dialect.js';

export interface SandboxOptions {
  /** Injectable clock; default real time (advanced by POST /sandbox/clock). */
  clock?: SandboxClock;
  timings?: SandboxTimings;
  /** Origin buyers reach the sandbox at (payment_url, checkout_url, card page, onboarding). */
  publicUrl?: string;
  /** Replaces the webhook sender entirely (tests); otherwise one is built from `timings` and `fetch`. */
  deliverer?: Deliverer;
  /** The fetch the webhook sender uses. */
  fetch?: typeof fetch;
  /** Folder of the built hosted page served at /checkout/{hash}; default: beside the sandbox bundle, or dist/hosted/. */
  hostedDir?: string;
  /** Where unexpected errors are reported; default console.error. */
  onUnexpectedError?: (error: unknown) => void;
  /**
   * Forward every webhook to the built-in receiver (`/sandbox/receiver`) once the sandbox listens, and again after
   * each reset; default true. Tests that count deliveries turn it off.
   */
  defaultReceiver?: boolean;
  /**
   * Whether `POST /v1/orders` replays a repeated `order_key` (default true). False (CLI `--no-order-key-dedupe`):
   * every create makes a new order, as a service that does not deduplicate would, to test a caller's own guarantee.
   */
  orderKeyDedupe?: boolean;
  /** Which hosts, origins and forward targets the control API and pages take besides loopback ones (guard.ts). */
  guard?: SandboxGuardOptions;
  /**
   * `contract` (default): the contract's shapes. `live` (CLI `--dialect live`): the merchant API and webhooks in the
   * shapes the live service is documented or observed to use (live-dialect.ts); the buyer API is the same in both.
   */
  dialect?: SandboxDialect;
}

/** The route table (for tests that compare it with the contract); typed here so the public types need no hono. */
export interface SandboxRoutes {
  readonly routes: readonly { method: string; path: string }[];
}

export interface Sandbox {
  app: SandboxRoutes;
  /** The whole sandbox as a fetch handler; a `drop` fault rejects with ConnectionDropped, as `fetch` would. */
  fetch: (request: Request) => Promise<Response>;
  /** `Link` values for a 103 Early Hints answer to `request` (the hosted page's first-screen modules), else none. */
  earlyHints: (request: Request) => string[];
  state: SandboxState;
  clock: SandboxClock;
  deliverer: Deliverer;
  context: SandboxContext;
  /** The host, origin and forward checks; `serve()` adds a host the sandbox is reached at. */
  guard: SandboxGuard;
  /** Restores the fixtures and empties the delivery log. */
  reset(): void;
  setPublicUrl(url: string | undefined): void;
  /**
   * The origin this sandbox's socket answers at, as its own process reaches it (loopback): the built-in receiver's
   * URL. Called by startSandbox and the Vite plugin; a later call (a restart on another port) moves the receiver.
   */
  listeningAt(origin: string): void;
  /** Shutting down: waiting status requests are answered now, new ones at once (the CLI's SIGTERM). */
  answerWaitsNow(): void;
  close(): Promise<void>;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? createClock();
  const timings = options.timings ?? {};
  const deliverer =
    options.deliverer ??
    createDeliverer({
      timeoutMs: timings.webhookTimeoutMs,
      retryDelayMs: timings.webhookRetryDelayMs,
      maxAttempts: timings.webhookMaxAttempts,
      fetch: options.fetch,
      now: () => clock.now(),
      dialect: options.dialect ?? 'contract',
    });
  const context: SandboxContext = {
    state: createState(clock.now()),
    clock,
    deliverer,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    pushAutoDeclineMs: timings.pushAutoDeclineMs ?? defaultPushAutoDeclineMs,
    linkPaidWaitMs: timings.linkPaidWaitMs ?? defaultLinkPaidWaitMs,
    receiverUrl: undefined,
    hostedDir: options.hostedDir,
    orderKeyDedupe: options.orderKeyDedupe ?? true,
    guard: new SandboxGuard(options.guard),
    iso: (ms?: number) => new Date(ms ?? clock.now()).toISOString(),
    dialect: options.dialect ?? 'contract',
  };
  const forwardToReceiver = () => {
    const url = context.receiverUrl;
    if (url && !context.state.forwardTargets.includes(url)) context.state.forwardTargets.unshift(url);
  };
  const reset = () => {
    resetState(context.state, clock.now());
    deliverer.reset();
    if (options.defaultReceiver !== false) forwardToReceiver();
  };
  const reportUnexpected = options.onUnexpectedError ?? ((error: unknown) => console.error('[sandbox] unexpected error:', error));

  if (context.publicUrl) context.guard.serve(context.publicUrl);

  const app = new Hono();
  // Every answer, a refusal included, says it comes from a sandbox: no client has to guess it from the URL.
  app.use('*', async (c, next) => {
    await next();
    try {
      c.res.headers.set(sandboxHeader, context.dialect);
    } catch {
      c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers: new Headers([...c.res.headers, [sandboxHeader, context.dialect]]) });
    }
  });
  // Before anything else: a refused host or origin reaches no route and no fault.
  app.use('*', guardMiddleware(context.guard));
  // Then, so an error or a drop fault stops a request before anything else sees it.
  app.use('*', faultMiddleware(context.state));
  app.use('*', async (c, next) => {
    // Refuse oversized bodies before reading them; readJson also counts the bytes actually sent.
    if (Number(c.req.header('content-length') ?? '0') > maxBodyBytes) throw new ApiError('PAYLOAD_TOO_LARGE');
    sweepExpired(context);
    // The webhook receiver keeps the raw text it was sent (the signed bytes); every other JSON body is read here.
    if (!c.req.path.startsWith('/sandbox/receiver')) await readJsonFirst(c);
    await next();
  });

  const v1 = new Hono();
  if (context.dialect === 'live') v1.use('*', liveAnswers());
  v1.route('/', checkoutRoutes(context));
  v1.route('/', merchantRoutes(context));
  v1.route('/', partnerRoutes(context));
  app.route('/v1', v1);
  app.route('/', pageRoutes(context));
  app.route('/', openApiRoutes(context));
  app.route('/sandbox/receiver', receiverRoutes(context));
  app.route('/sandbox', controlRoutes(context, { reset }));

  app.notFound((c) => c.json(errorBody('NOT_FOUND', { description: `${c.req.method} ${new URL(c.req.url).pathname} is not an endpoint of the sandbox.` }), 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorJson(c, error);
    reportUnexpected(error);
    return c.json(errorBody('INTERNAL_SERVER_ERROR'), 500);
  });

  return {
    app,
    fetch: async (request) => {
      const response = await app.fetch(request);
      if (isDroppedConnection(response)) throw new ConnectionDropped();
      return response;
    },
    // Only to a host the sandbox serves: a refused one gets its refusal and nothing before it.
    earlyHints: (request) => (context.guard.hostAllowed(request.headers.get('host') ?? new URL(request.url).host) ? hostedPageHints(context, request) : []),
    state: context.state,
    clock,
    deliverer,
    context,
    guard: context.guard,
    reset,
    setPublicUrl(url) {
      context.publicUrl = url?.replace(/\/+$/, '');
      if (url) context.guard.serve(url);
    },
    listeningAt(origin) {
      const previous = context.receiverUrl;
      context.receiverUrl = `${origin.replace(/\/+$/, '')}/sandbox/receiver`;
      if (options.defaultReceiver === false) return;
      const targets = context.state.forwardTargets;
      // First start: forward by default. Later: keep the developer's choice, at the new address if it was kept.
      if (previous === undefined) forwardToReceiver();
      else if (targets.includes(previous)) targets.splice(targets.indexOf(previous), 1, context.receiverUrl);
    },
    answerWaitsNow: () => answerWaitsNow(context),
    async close() {
      deliverer.reset();
      await deliverer.idle();
    },
  };
}
