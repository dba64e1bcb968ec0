/**
 * The sandbox in the reader's browser: this Service Worker answers the site's `/v1` and `/sandbox` paths with the
 * sandbox's own web-standard handler (src/sandbox/app.ts), so the live checkouts pay with no server. Its state is
 * kept in IndexedDB after every change and restored when the worker starts again.
 */
/// <reference lib="webworker" />
import { createSandbox } from '../../src/sandbox/app.js';
import { demoLinks } from '../../src/sandbox/fixtures.js';
import { loadSaved, save } from './persist.js';
import { liveLinks } from './links.js';

declare const self: ServiceWorkerGlobalScope;

// The site's base path (`` at a host's root, `/docs` under `npm start`): the worker sits at the site's root.
const basePath = new URL('./', self.location.href).pathname.replace(/\/$/, '');
// The sandbox's guard (guard.ts) lets a developer's own host and origin reach its control API and pages; here that
// is the site's, on any host it is deployed to: the phone's and the page's requests come from it.
const sandbox = createSandbox({
  publicUrl: `${self.location.origin}${basePath}`,
  defaultReceiver: false,
  guard: { allowedHosts: [self.location.hostname], allowedOrigins: [self.location.origin] },
});
const startedAt = sandbox.clock.now() - Date.now();

/** One link per live example (each pays once), copied from the standard demo link. */
function ensureLiveLinks() {
  const template = sandbox.state.links.get(demoLinks.fixed);
  if (!template) return;
  for (const { hash, description } of liveLinks) {
    if (sandbox.state.links.has(hash)) continue;
    sandbox.state.links.set(hash, { ...template, hash, description, payment_link_id: sandbox.state.nextLinkId++, paid_at: null });
  }
}

const ready = (async () => {
  const saved = await loadSaved().catch(() => undefined);
  if (saved) {
    Object.assign(sandbox.state, saved.state);
    if (saved.clockAheadMs > 0) sandbox.clock.advance(saved.clockAheadMs);
  }
  ensureLiveLinks();
})();

const persist = () => save({ state: sandbox.state, clockAheadMs: sandbox.clock.now() - Date.now() - startedAt });

/** `/docs/sandbox/card/x` → `/sandbox/card/x`; null for paths the sandbox does not answer. */
function sandboxPath(url: URL): string | null {
  if (url.origin !== self.location.origin) return null;
  const path = basePath && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
  // The site's own pages under sandbox/ (sandbox/live.html) are files: no sandbox route ends in `.html`.
  return /^\/(v1|sandbox)(\/|$)/.test(path) && !path.endsWith('.html') ? path + url.search : null;
}

async function answer(request: Request, path: string): Promise<Response> {
  await ready;
  const bodyless = request.method === 'GET' || request.method === 'HEAD';
  // A navigation's Request cannot be copied as is (its mode is `navigate`): rebuild it on the sandbox's path.
  const body = bodyless ? undefined : await request.arrayBuffer();
  const inner = new Request(`${self.location.origin}${path}`, { method: request.method, headers: request.headers, body });
  // Firefox has no `Request.body`; the sandbox reads bodies as streams (src/server/http/body.ts), so hand it one.
  if (body && inner.body === undefined) Object.defineProperty(inner, 'body', { value: new Response(body).body });
  const response = await sandbox.fetch(inner).catch(() => Response.error());
  if (!bodyless) {
    ensureLiveLinks();
    await persist().catch(() => undefined);
  }
  // The card page's form and links name `/sandbox/…` from the origin's root; keep them on the site's base path.
  if (basePath && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
    const html = (await response.text()).replace(/(action|href|src)="\/sandbox\//g, `$1="${basePath}/sandbox/`);
    return new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  return response;
}

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const path = sandboxPath(new URL(event.request.url));
  if (path) event.respondWith(answer(event.request, path));
});
