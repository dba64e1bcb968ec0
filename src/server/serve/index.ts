/**
 * `pay-checkout serve`: the checkout as one process beside a shop of any stack, configured by its settings alone
 * (settings.ts). Built from the handler's parts: `createCheckoutHandler()` answers the buyer API, the webhook intake and
 * health under `/v1`; beside it, on the same origin, the element's script and the hosted page from the installed
 * package's `dist/`; all of it on `serve()`, with its timeouts, connection caps and graceful drain.
 */
import { resolveBaseUrl } from '../../client/send.js';
import { errorBody } from '../../contract/errors.js';
import type { ClaimStore } from '../claims.js';
import { createCheckoutHandler } from '../handler.js';
import { fromRequest, nativeEntryOf, withNativeEntry, type Answer, type Incoming } from '../incoming.js';
import { safeSink, type EventSink } from '../events.js';
import { serve, type RunningNodeServer } from '../node.js';
import { toResponse } from '../text-response.js';
import type { DrainableCheckoutHandler } from '../options.js';
import { appLinks, fileLinks } from './app-links.js';
import { encoded, encodingFor, findDist, loadAssets, precompress, type Asset } from './assets.js';
import { hostedRoute } from './hosted-route.js';
import { relayOf } from './notices.js';
import type { ServeSettings } from './settings.js';

export interface StartServeOptions {
  /** Every event, as one object each; default one JSON line each on stdout. */
  onEvent?: EventSink;
  /** The package's built files; default the `dist/` this file was bundled into. */
  dist?: string;
  /** For the service and the shop's app (tests inject faults with it). */
  fetch?: typeof globalThis.fetch;
  /** The links app's timeout and cache times (app-links.ts); tests shorten them. */
  linkTimings?: { timeoutMs?: number; freshMs?: number; notFoundMs?: number };
}

export interface RunningServe extends RunningNodeServer {
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
async function storeOf(settings: ServeSettings, emit: EventSink): Promise<ClaimStore | undefined> {
  const { store } = settings;
  if (store.kind === 'redis') return (await import('../redis/index.js')).createRedisStore({ url: store.url, onEvent: emit });
  if (store.kind === 'postgres') return (await import('../postgres/index.js')).createPostgresStore({ connectionString: store.url, onEvent: emit });
  return undefined;
}

export async function startServe(settings: ServeSettings, options: StartServeOptions = {}): Promise<RunningServe> {
  const emit = safeSink(options.onEvent ?? jsonLines);
  const resolveLink =
    settings.links.kind === 'url'
      ? appLinks({ url: settings.links.url, secrets: settings.links.secrets, emit, ...(options.fetch ? { fetch: options.fetch } : {}), ...options.linkTimings })
      : fileLinks({ path: settings.links.path, emit });
  const store = await storeOf(settings, emit);
  if (!store) {
    emit({ level: 'warn', name: 'memory_store', message: 'no PAY_CHECKOUT_REDIS_URL or PAY_CHECKOUT_DATABASE_URL: order claims live in this process and do not outlive it; run one instance only, and set one of them for production' });
  }
  // Started once the server listens; warns once itself when its outbox is the memory one.
  const relay = relayOf(settings, emit, options.fetch);
  const handler = createCheckoutHandler({
    merchantKey: settings.merchantKey,
    ...settings.service,
    resolveLink,
    ...(store ? { store } : {}),
    ...(settings.secret ? { secret: settings.secret } : {}),
    ...(settings.webhookSecret ? { webhookSecret: settings.webhookSecret } : {}),
    allowedOrigins: settings.allowedOrigins,
    trustProxy: settings.trustProxy,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(relay ? { onOrderStatus: async (change) => void (await relay.record(change)) } : {}),
    onEvent: emit,
  });
  // The handler's own entry, without a web Request or Response per request (node-native.ts).
  const api = nativeEntryOf(handler) ?? ((): never => { throw new Error('createCheckoutHandler() returned no native entry.'); })();

  const dist = findDist(options.dist);
  if (!dist) emit({ level: 'warn', name: 'assets_missing', message: "no built dist/ beside the server (pay-checkout.js, hosted/index.html): the buyer API is served, the element's script and the hosted page are not" });
  // Beside the script it serves, the buyer API is this server's: the element reads it unless the page sets api-base.
  const files = dist ? loadAssets(dist, { apiBaseLine: 'globalThis[Symbol.for("pay-checkout.api-base")]??=new URL("./v1",import.meta.url).href;' }) : new Map<string, Asset>();
  const serviceOrigin = new URL(resolveBaseUrl(settings.service)).origin;
  const hosted = dist
    ? hostedRoute({
        dist,
        serviceOrigin,
        linkAnswer: async (hash, incoming) => {
          const url = `http://serve.internal/v1/checkout/links/${encodeURIComponent(hash)}`;
          const headers = new Headers({ accept: 'application/json' });
          const forwarded = incoming.headers.get('x-forwarded-for');
          if (forwarded) headers.set('x-forwarded-for', forwarded);
          const answer = await api(fromRequest(new Request(url, { headers })));
          let json: unknown = null;
          try {
            json = answer.text === null ? null : JSON.parse(answer.text);
          } catch {
            json = null;
          }
          return { status: answer.status, json };
        },
      })
    : undefined;

  const allowed = settings.allowedOrigins;
  const corsOf = (incoming: Incoming): Record<string, string> => {
    const origin = incoming.headers.get('origin');
    if (allowed === '*') return { 'access-control-allow-origin': '*' };
    return origin && allowed.includes(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin, Accept-Encoding' } : { vary: 'Origin, Accept-Encoding' };
  };

  const fileAnswer = async (incoming: Incoming, file: Asset): Promise<Answer> => {
    const headers: Record<string, string> = {
      'content-type': file.type,
      'cache-control': file.cacheControl,
      etag: file.etag,
      'x-content-type-options': 'nosniff',
      vary: 'Accept-Encoding',
      ...corsOf(incoming),
    };
    if (incoming.headers.get('if-none-match') === file.etag) return { status: 304, headers, text: null };
    const encoding = file.compressible ? encodingFor(incoming.headers.get('accept-encoding')) : undefined;
    if (!encoding) return { status: 200, headers, text: null, bytes: file.body };
    return { status: 200, headers: { ...headers, 'content-encoding': encoding }, text: null, bytes: await encoded(file, encoding) };
  };

  const notFound = (incoming: Incoming): Answer => ({
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    text: JSON.stringify(errorBody('NOT_FOUND', { description: `${incoming.method} ${incoming.path} is not served here.` })),
  });

  const answer = async (incoming: Incoming): Promise<Answer> => {
    const { path } = incoming;
    if (path.startsWith('/v1/')) return api(incoming);
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      return files.has(path) || path.startsWith('/checkout/') ? { ...notFound(incoming), status: 405, headers: { ...notFound(incoming).headers, allow: 'GET, HEAD' }, text: JSON.stringify(errorBody('METHOD_NOT_ALLOWED')) } : notFound(incoming);
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

  const web = async (request: Request) => toResponse(await answer(fromRequest(request)));
  const composite = Object.assign(withNativeEntry(web, answer), { drain: handler.drain }) satisfies DrainableCheckoutHandler;
  const running = await serve(composite, {
    port: settings.port,
    ...(settings.host !== undefined ? { host: settings.host } : {}),
    onEvent: emit,
    // Behind a proxy every connection comes from it: the proxy holds slow clients, and the cap per address would cut it off.
    ...(settings.trustProxy > 0 ? { maxConnectionsPerAddress: Infinity } : {}),
  });
  relay?.start();
  // Compressed once, in the background, so no buyer waits for a file's first compression.
  void precompress(files).catch((error: unknown) => emit({ level: 'warn', name: 'precompress_failed', message: `compressing the package's files failed: ${String(error)}` }));
  const close = running.close;
  return {
    ...running,
    assets: dist !== undefined,
    close: async (closeOptions) => {
      await close(closeOptions);
      await relay?.close();
      await store?.close?.();
    },
  };
}
