/**
 * `pay-checkout serve`: the checkout as one process beside a shop of any stack, configured by its settings alone
 * (settings.ts). Built from the handler's parts: `createCheckoutHandler()` answers the buyer API, the webhook intake and
 * health under `/v1`; beside it, on the same origin, the element's script and the hosted page from the installed
 * package's `dist/`; all of it on `serve()`, with its timeouts, connection caps and graceful drain.
 */
import { resolveBaseUrl } from '../../client/send.js';
import { errorBody } from '../../contract/errors.js';
import type { ClaimStore } from '../once/claims.js';
import { corsPolicy } from '../http/cors.js';
import { asCheckoutHandler, assembleCheckout, type CheckoutAssembly } from '../handler.js';
import type { CheckoutHandlerOptions } from '../options.js';
import type { Answer, AnswerIncoming, Incoming } from '../http/incoming.js';
import { safeSink, type EventSink } from '../events.js';
import { serve, type RunningNodeServer } from '../node/server.js';
import { appLinks, fileLinks } from './app-links.js';
import { encoded, encodingFor, findDist, keepAssets, keptAssetsDir, loadAssets, precompress, type Asset } from './assets.js';
import { hostedRoute } from './hosted-route.js';
import { hstsValue } from '../hosted-page/headers.js';
import { relayOf } from './outcome-relay.js';
import type { ServeCommandSettings } from './settings.js';
import { trialDesk } from './trial-desk.js';
import { forwardedMark, untrustedProxy } from './untrusted-proxy.js';
import { startPartnerCheckout, type PartnerCheckoutOptions } from './partner/index.js';
import type { PartnerServeSettings } from './partner/settings.js';

/**
 * What `startServeCommand` takes beside its settings. Not `ServeOptions`: those are the public `serve()` Node adapter's
 * (node/server.ts), which this command listens with.
 */
export interface StartServeCommandOptions {
  /** Every event, as one object each; default one JSON line each on stdout. */
  onEvent?: EventSink;
  /** The package's built files; default the `dist/` this file was bundled into. */
  dist?: string;
  /**
   * Where the hashed files of this version are kept for the next, and the earlier versions' are found (assets.ts);
   * default `node_modules/.cache/pay-checkout/assets` beside an installed package, none elsewhere. `false`: none.
   */
  keptAssets?: string | false;
  /** For the service and the shop's app (tests inject faults with it). */
  fetch?: typeof globalThis.fetch;
  /** The links app's timeout and cache times (app-links.ts); tests shorten them. */
  linkTimings?: { timeoutMs?: number; freshMs?: number; notFoundMs?: number };
  /** The handler's abuse limits, changed (limits.md); default theirs. Tests make them small. */
  limits?: Exclude<CheckoutHandlerOptions['limits'], false>;
  /** Partner mode's notice timings and link cache (partner/index.ts); tests shorten them. */
  partner?: Pick<PartnerCheckoutOptions, 'noticeTimings' | 'linkFreshMs' | 'shopInProgress' | 'storeWait'>;
}

/** The `pay-checkout serve` command's server, listening. */
export interface RunningServeCommand extends RunningNodeServer {
  /** Whether `/pay-checkout.js` and the hosted page are served (a package built without them serves the API only). */
  assets: boolean;
}

/** One JSON line per event, with its time: what log collectors read. */
export const jsonLines: EventSink = (event) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...event });
  if (event.level === 'info') process.stdout.write(`${line}\n`);
  else process.stderr.write(`${line}\n`);
};

/** The claim store the settings name, its module loaded only when used (each pulls its driver, an optional peer). */
async function storeOf(store: ServeCommandSettings['store'], emit: EventSink): Promise<ClaimStore | undefined> {
  if (store.kind === 'redis') return (await import('../redis/index.js')).createRedisStore({ url: store.url, onEvent: emit });
  if (store.kind === 'postgres') return (await import('../postgres/index.js')).createPostgresStore({ connectionString: store.url, onEvent: emit });
  return undefined;
}

/** What answers in front of serve's files: the handler's routes for one shop, or partner mode's for many. */
interface Front {
  match(path: string): { kind: string } | undefined;
  answer: AnswerIncoming;
  respond: CheckoutAssembly['respond'];
  link: CheckoutAssembly['link'];
  drain: CheckoutAssembly['drain'];
  /** Answers of its own besides the routes it matches (the trial desk's), else undefined. */
  other(incoming: Incoming): Answer | undefined;
  emit: EventSink;
  start(): void;
  close(): Promise<void>;
}

/** Starts what the `pay-checkout serve` command runs, from its parsed settings (settings.ts, or partner mode's), and listens. */
export async function startServeCommand(settings: ServeCommandSettings | PartnerServeSettings, options: StartServeCommandOptions = {}): Promise<RunningServeCommand> {
  const checkout = 'partner' in settings ? await partnerFront(settings, options) : await shopFront(settings, options);
  const { emit } = checkout;
  const api = checkout.answer;

  const dist = findDist(options.dist);
  if (!dist) emit({ level: 'warn', name: 'assets_missing', message: "no built dist/ beside the server (pay-checkout.js, hosted/index.html): the buyer API is served, the element's script and the hosted page are not" });
  // Beside the script it serves, the buyer API is this server's: the element reads it unless the page sets api-base.
  const files = dist ? loadAssets(dist, { apiBaseLine: 'globalThis[Symbol.for("pay-checkout.api-base")]??=new URL("./v1",import.meta.url).href;' }) : new Map<string, Asset>();
  // An earlier version's chunks, for the pages still running it after an upgrade.
  const keptDir = options.keptAssets === false ? undefined : (options.keptAssets ?? (dist ? keptAssetsDir(dist) : undefined));
  if (dist && keptDir) {
    const kept = keepAssets(files, keptDir);
    if (kept.failed) emit({ level: 'warn', name: 'assets_keep_failed', message: `earlier versions' chunks are not kept (${kept.failed}): a page loaded before the next upgrade loads itself again when it finds its chunks gone` });
    else if (kept.earlier > 0) emit({ level: 'info', name: 'assets_kept', message: `${kept.earlier} files of earlier versions still served from ${keptDir}, each for a week after its version last ran` });
  }
  const serviceOrigin = new URL(resolveBaseUrl(settings.service)).origin;
  const hosted = dist
    ? hostedRoute({
        dist,
        serviceOrigin,
        ...(settings.publicUrl !== undefined ? { publicUrl: settings.publicUrl } : {}),
        frameAncestors: settings.frameAncestors,
        // The buyer API's own answer, asked by a call for the page's request: its address counts against the same limits.
        linkAnswer: (hash, incoming) => checkout.link(incoming, hash),
      })
    : undefined;

  // The script and its chunks answer cross-origin to the same origins as the buyer API; in partner mode, the shops are many.
  const cors = corsPolicy('partner' in settings ? '*' : settings.allowedOrigins);

  const fileAnswer = async (incoming: Incoming, file: Asset): Promise<Answer> => {
    const headers = cors.addTo({ 'content-type': file.type, 'cache-control': file.cacheControl, etag: file.etag, 'x-content-type-options': 'nosniff' }, incoming);
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    if (incoming.headers.get('if-none-match') === file.etag) return { status: 304, headers, text: null };
    const encoding = file.compressible ? encodingFor(incoming.headers.get('accept-encoding')) : undefined;
    if (!encoding) return { status: 200, headers, text: null, bytes: file.body };
    return { status: 200, headers: { ...headers, 'content-encoding': encoding }, text: null, bytes: await encoded(file, encoding) };
  };

  const notFound = (incoming: Incoming) => checkout.respond(incoming, 404, errorBody('NOT_FOUND', { description: `${incoming.method} ${incoming.path} is not served here.` }));

  const throughUntrustedProxy = untrustedProxy(settings.trustProxy, emit);

  const route = async (incoming: Incoming): Promise<Answer> => {
    const { path } = incoming;
    const untrusted = throughUntrustedProxy(incoming);
    // The handler's routes first, as its router says (the buyer API, the webhook intake, health).
    const match = checkout.match(path);
    if (match) {
      const answered = await api(incoming);
      // For `--check`, asking through the public URL (untrusted-proxy.ts).
      return match.kind === 'health' && untrusted ? { ...answered, headers: { ...answered.headers, [forwardedMark]: 'untrusted' } } : answered;
    }
    const other = checkout.other(incoming);
    if (other) return other;
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      return files.has(path) || path.startsWith('/checkout/') ? checkout.respond(incoming, 405, errorBody('METHOD_NOT_ALLOWED'), { Allow: 'GET, HEAD' }) : notFound(incoming);
    }
    const file = files.get(path);
    if (file) return fileAnswer(incoming, file);
    const hash = hosted && /^\/checkout\/([^/]+)\/?$/.exec(path)?.[1];
    if (hosted && hash) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(hash);
      } catch {
        return notFound(incoming);
      }
      return hosted(incoming, decoded);
    }
    return notFound(incoming);
  };

  // Over https every answer says so, the API's and the script's too: a browser that has seen it never asks over http again.
  const https = settings.publicUrl !== undefined && new URL(settings.publicUrl).protocol === 'https:';
  const answer = async (incoming: Incoming): Promise<Answer> => {
    const answered = await route(incoming);
    if (!https || Object.keys(answered.headers).some((name) => name.toLowerCase() === 'strict-transport-security')) return answered;
    return { ...answered, headers: { ...answered.headers, 'strict-transport-security': hstsValue } };
  };

  const running = await serve(asCheckoutHandler(answer, checkout.drain), {
    port: settings.port,
    ...(settings.host !== undefined ? { host: settings.host } : {}),
    onEvent: emit,
    // Behind a proxy every connection comes from it: the proxy holds slow clients, and the cap per address would cut it off.
    ...(settings.trustProxy > 0 ? { maxConnectionsPerAddress: Infinity } : {}),
  });
  checkout.start();
  // Compressed once, in the background, so no buyer waits for a file's first compression.
  void precompress(files).catch((error: unknown) => emit({ level: 'warn', name: 'precompress_failed', message: `compressing the package's files failed: ${String(error)}` }));
  const close = running.close;
  return {
    ...running,
    assets: dist !== undefined,
    close: async (closeOptions) => {
      await close(closeOptions);
      await checkout.close();
    },
  };
}

/** Partner mode: many shops, in the shared store its settings require. */
async function partnerFront(settings: PartnerServeSettings, options: StartServeCommandOptions): Promise<Front> {
  const emit = safeSink(options.onEvent ?? jsonLines);
  const store = (await storeOf(settings.store, emit)) as ClaimStore;
  try {
    const partner = await startPartnerCheckout(settings, store, { emit, ...(options.fetch ? { fetch: options.fetch } : {}), ...options.partner });
    return {
      ...partner,
      other: () => undefined,
      emit,
      close: async () => {
        await partner.close();
        await store.close?.();
      },
    };
  } catch (error) {
    await store.close?.();
    throw error;
  }
}

/** One shop: the handler with its merchant key, its links from the app or a file, its outcomes relayed, the trial desk. */
async function shopFront(settings: ServeCommandSettings, options: StartServeCommandOptions): Promise<Front> {
  // What `serve --check --pay` may ask this server, signed with the operator's secrets (trial-desk.ts).
  const trial = trialDesk({ secrets: [...settings.appSecrets, ...(settings.webhookSecret ?? [])], basePath: '/v1', serviceBaseUrl: resolveBaseUrl(settings.service) });
  const emit = safeSink(trial.watch(options.onEvent ?? jsonLines));
  const resolveLink = trial.links(
    settings.links.kind === 'url'
      ? appLinks({ url: settings.links.url, secrets: settings.links.secrets, emit, ...(options.fetch ? { fetch: options.fetch } : {}), ...options.linkTimings })
      : fileLinks({ path: settings.links.path, emit }),
  );
  const store = await storeOf(settings.store, emit);
  // Instances on one store tell each other what the trial asks about; a store that cannot subscribe leaves each alone.
  const sharing = store ? trial.share(store).catch(() => undefined) : undefined;
  if (!store) {
    emit({ level: 'warn', name: 'memory_store', message: 'no PAY_CHECKOUT_REDIS_URL or PAY_CHECKOUT_DATABASE_URL: order claims live in this process and do not outlive it; run one instance only, and set one of them for production' });
  }
  // Started once the server listens; warns once itself when its outbox is the memory one.
  const relay = relayOf(settings, emit, options.fetch);
  // The handler's parts: its router, its answers (on Node without a web Request or Response), its drain.
  const checkout = assembleCheckout({
    merchantKey: settings.merchantKey,
    ...settings.service,
    resolveLink,
    ...(store ? { store } : {}),
    ...(settings.secret ? { secret: settings.secret } : {}),
    ...(settings.webhookSecret ? { webhookSecret: settings.webhookSecret, onWebhook: trial.onWebhook } : {}),
    allowedOrigins: settings.allowedOrigins,
    trustProxy: settings.trustProxy,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // A short first read (a trial, a test) is looked for as often as it comes due.
    sweep: settings.sweep === false ? false : { ...settings.sweep, ...(settings.sweep.firstReadMs !== undefined ? { pollMs: Math.min(1_000, settings.sweep.firstReadMs) } : {}) },
    ...(relay
      ? {
          onOrderStatus: async (change) => {
            // The app will answer this link as paid once it has the notice: this instance asks it again, rather
            // than offer a paid cart for the rest of the cache's 30 s.
            if (change.status === 'confirmed') resolveLink.forget(change.link);
            await relay.record(change);
          },
        }
      : {}),
    onEvent: emit,
  });
  return {
    match: (path) => checkout.router.match(path),
    answer: checkout.answer,
    respond: checkout.respond,
    link: checkout.link,
    drain: checkout.drain,
    other: (incoming) => trial.answer(incoming),
    emit,
    start: () => relay?.start(),
    close: async () => {
      await relay?.close();
      const unshare = await Promise.race([sharing, new Promise<undefined>((resolve) => (setTimeout(resolve, 500) as { unref?: () => void }).unref?.())]);
      await unshare?.().catch(() => {});
      await store?.close?.();
    },
  };
}
