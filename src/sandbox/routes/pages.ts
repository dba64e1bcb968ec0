/** HTML pages: the sandbox card page, the onboarding page, the hosted checkout (or its placeholder), icons. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { SandboxContext } from '../context.js';
import { configureHostedPage, hostedBuildBase, isHostedPage } from '../../server/hosted-page/deploy.js';
import { hostedEntryPath, hostedPageLinks, renderHostedPage, type RenderedHostedPage } from '../../server/hosted-page/index.js';
import { hostedPageHeaders } from '../../server/hosted-page/headers.js';
import { checkoutLinkView } from '../views.js';
import { ApiError, readForm } from '../http.js';
import { completeOnboarding } from '../onboarding.js';
import { cancelOrder, confirmOrder, isOpen } from '../orders.js';
import { gatewayIconPngs } from '../pages/icon-pngs.js';
import { gatewayIcons } from '../pages/icons.js';
import { formatCop, html, page, pageCsp, pagesCss, pagesCssPath, type SafeHtml } from '../pages/html.js';
import { storeById } from '../state.js';
import { faultPending } from '../faults.js';
import { testCards } from '../fixtures.js';
import { originOf } from './origin.js';

/**
 * Where the built hosted page may be: beside the bundled sandbox (dist/sandbox.js → dist/hosted/, or one
 * level up from a chunk folder), or dist/hosted/ from the sources. Looked up per request: a build may appear later.
 */
const hostedCandidates = ['./hosted/', '../hosted/', '../../../dist/hosted/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
export const findHostedDir = (configured: string | undefined, candidates = hostedCandidates) =>
  // path.resolve drops a trailing slash, so `file.startsWith(dir + path.sep)` below holds for files inside.
  (configured ? [configured] : candidates).map((dir) => path.resolve(dir)).find((dir) => existsSync(path.join(dir, 'index.html')));

function htmlPage(c: Context, title: string, body: SafeHtml, status: 200 | 400 | 404 = 200, formTargets: string[] = []): Response {
  c.header('Content-Security-Policy', pageCsp(formTargets));
  c.header('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: the forms' own POSTs then carry their Origin (no-referrer sends `Origin: null`,
  // which the guard refuses), and nothing leaks to the merchant's page on the way back.
  c.header('Referrer-Policy', 'same-origin');
  return c.html(page(title, body.value), status);
}

const originOfUrl = (url: string | null) => {
  try {
    return url ? [new URL(url).origin] : [];
  } catch {
    return [];
  }
};

export function pageRoutes(ctx: SandboxContext): Hono {
  const app = new Hono();

  app.get(pagesCssPath, (c) => c.body(pagesCss, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }));

  app.get('/sandbox/icons/:name', (c) => {
    const name = c.req.param('name');
    const headers = { 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': "default-src 'none'" };
    const png = gatewayIconPngs[name];
    // atob, not Buffer: the same routes serve the docs' live checkouts from a Service Worker.
    if (png) return c.body(Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0)), 200, { ...headers, 'Content-Type': 'image/png' });
    const svg = gatewayIcons[name];
    if (!svg) throw new ApiError('NOT_FOUND');
    return c.body(svg, 200, { ...headers, 'Content-Type': 'image/svg+xml' });
  });

  const cardOrder = (c: Context) => {
    const id = ctx.state.cardSessions.get(c.req.param('session') ?? '');
    return id === undefined ? undefined : ctx.state.orders.get(id);
  };
  const returnUrlOf = (order: NonNullable<ReturnType<typeof cardOrder>>, paid: boolean) => {
    const s = order.gateway_state;
    const fromBuyer = s.kind === 'card' ? s.return_url : null;
    return fromBuyer ?? (paid ? order.redirect_link : (order.redirect_link_failure ?? order.redirect_link_cancel)) ?? null;
  };

  const cardForm = (c: Context, error: string | null, status: 200 | 400 = 200) => {
    const order = cardOrder(c);
    if (!order) return htmlPage(c, 'Pago no encontrado', html`<h1>Pago no encontrado</h1><p>Este enlace de pago con tarjeta no existe.</p>`, 404);
    const store = storeById(ctx.state, order.id_store);
    const back = returnUrlOf(order, order.status === 'confirmed');
    if (!isOpen(order)) {
      const done = order.status === 'confirmed' ? 'Este pago ya fue aprobado.' : `Este pago está ${order.status}.`;
      return htmlPage(c, 'Pago con tarjeta', html`<h1>Pago con tarjeta</h1><p>${done}</p>${back ? html`<p><a href="${back}">Volver al comercio</a></p>` : ''}`);
    }
    const body = html`<h1>Pago con tarjeta (sandbox)</h1>
<dl><dt>Comercio</dt><dd>${store?.store_name ?? ''}</dd><dt>Concepto</dt><dd>${order.description}</dd><dt>Total</dt><dd>${formatCop(order.amount, order.currency)}</dd></dl>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${`/sandbox/card/${c.req.param('session') ?? ''}`}">
<label for="card">Número de tarjeta</label>
<input id="card" name="card_number" inputmode="numeric" autocomplete="cc-number" required placeholder="4242 4242 4242 4242">
<button type="submit">Pagar ${formatCop(order.amount, order.currency)}</button>
</form>
<p class="muted">Tarjetas de prueba: <code>4242 4242 4242 4242</code> paga, <code>4000 0000 0000 0002</code> es rechazada.</p>`;
    return htmlPage(c, 'Pago con tarjeta', body, status, originOfUrl(returnUrlOf(order, true)).concat(originOfUrl(returnUrlOf(order, false))));
  };

  app.get('/sandbox/card/:session', (c) => cardForm(c, null));

  app.post('/sandbox/card/:session', async (c) => {
    const order = cardOrder(c);
    if (!order || !isOpen(order)) return cardForm(c, null);
    const form = await readForm(c);
    const number = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
    if (number === testCards.pays) confirmOrder(ctx, order);
    else if (number === testCards.declines) cancelOrder(ctx, order, 'declined');
    else return cardForm(c, 'Usa una tarjeta de prueba: 4242 4242 4242 4242 o 4000 0000 0000 0002.', 400);
    const back = returnUrlOf(order, order.status === 'confirmed');
    if (back) return c.redirect(back, 303);
    return cardForm(c, null);
  });

  app.get('/onboarding', (c) => {
    const platform = c.req.query('platform') ?? '';
    const partner = ctx.state.partners.find((p) => p.name === platform && p.active);
    if (!partner) return htmlPage(c, 'Onboarding', html`<h1>Enlace no válido</h1><p>No hay un socio llamado <code>${platform}</code> en el sandbox.</p>`, 404);
    return htmlPage(c, 'Onboarding', html`<h1>Conecta tu tienda con ${partner.name}</h1>
<form method="post" action="/onboarding?platform=${encodeURIComponent(platform)}">
<label for="store_name">Nombre de la tienda</label><input id="store_name" name="store_name" required maxlength="100">
<label for="external_store_id">Identificador de la tienda en ${partner.name}</label><input id="external_store_id" name="external_store_id" maxlength="100">
<button type="submit">Completar onboarding</button></form>`);
  });

  app.post('/onboarding', async (c) => {
    const form = await readForm(c);
    const storeName = (form.get('store_name') ?? '').trim();
    const platform = c.req.query('platform') ?? '';
    if (!storeName || storeName.length > 100) return htmlPage(c, 'Onboarding', html`<h1>Falta el nombre</h1><p class="error">Escribe el nombre de la tienda (hasta 100 caracteres).</p><p><a href="/onboarding?platform=${encodeURIComponent(platform)}">Volver</a></p>`, 400);
    const externalId = (form.get('external_store_id') ?? '').trim().slice(0, 100) || undefined;
    try {
      const { store } = completeOnboarding(ctx, { platform, store_name: storeName, external_store_id: externalId });
      return htmlPage(c, 'Onboarding', html`<h1>¡Listo!</h1><p>${store.store_name} quedó conectada con ${platform}. El socio recibió <code>store_onboarded</code> con la llave del comercio.</p>
<dl><dt>id_store</dt><dd>${store.id_store}</dd><dt>merchant_key</dt><dd><code>${store.merchant_key}</code></dd></dl>`);
    } catch (error) {
      if (error instanceof ApiError) return htmlPage(c, 'Onboarding', html`<h1>Enlace no válido</h1><p>No hay un socio llamado <code>${platform}</code> en el sandbox.</p>`, 404);
      throw error;
    }
  });

  // The script-tag build (dist/pay-checkout.js and its lazy chunks, beside the hosted page), so the README's
  // snippet works from a page on any origin: module scripts from another origin need CORS. Compressed where the browser takes
  // it, as a CDN sends them: uncompressed, the first script took 270 ms instead of 90 on a phone's
  // 1.6 Mbps, and the later steps 435 ms instead of 135 (npm run bench -- --only vitals).
  app.get('/:file{pay-checkout(?:\\.[\\w-]+)?\\.js}', (c) => {
    const hostedDir = findHostedDir(ctx.hostedDir);
    const file = hostedDir && path.join(path.dirname(hostedDir), c.req.param('file'));
    if (!file || !existsSync(file)) throw new ApiError('NOT_FOUND');
    const headers = { 'Content-Type': 'text/javascript; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' };
    return compressed(c, readFileSync(file), headers, `${file}:${statSync(file).mtimeMs}`);
  });

  // The hosted page, from the build when it exists; a placeholder until then.
  app.get('/checkout/*', async (c) => {
    const page = hostedPageOf(ctx, c.req.url);
    if (page === undefined) throw new ApiError('NOT_FOUND'); // a malformed %-escape names no file and no link
    const { rel, hostedDir, file } = page;
    if (hostedDir) {
      if (file) return compressed(c, readFileSync(file), { 'Content-Type': contentTypeOf(file) }, `${file}:${statSync(file).mtimeMs}`);
      // The page talks to this sandbox at the origin buyers reach it by (the icons come from there too): its CSP says so.
      const built = readFileSync(path.join(hostedDir, 'index.html'), 'utf8');
      const index = isHostedPage(built) ? configureHostedPage(built, { apiBase: `${originOf(ctx, c)}/v1` }) : built;
      const { html: page, headers } = await serverRendered(ctx, c, index, rel, hostedDir);
      // The same modules as the 103 Early Hints, for a proxy or CDN that turns a final answer's Link into its own hints.
      const links = hostedPageLinks(page, localeOf(c.req.url));
      return compressed(c, Buffer.from(page), {
        ...headers,
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        ...(links.length > 0 ? { Link: links.join(', ') } : {}),
      });
    }
    const hash = rel.split('/')[0] ?? '';
    const link = ctx.state.links.get(hash);
    return htmlPage(c, 'Checkout', html`<h1>Checkout (placeholder)</h1><p>The hosted page is not built yet (<code>npm run build</code>).</p>
${link ? html`<p>Link <code>${hash}</code>: ${link.description}${link.amount !== undefined ? html`, ${formatCop(link.amount, link.currency)}` : ' (dynamic)'}.</p>` : html`<p>No link <code>${hash}</code>.</p>`}
<p class="muted">API: <code>${originOf(ctx, c)}/v1/checkout/links/${hash}</code></p>`, link ? 200 : 404);
  });

  app.get('/', (c) => {
    const origin = originOf(ctx, c);
    return htmlPage(c, 'pay-checkout sandbox', html`<h1>pay-checkout sandbox</h1><dl>
<dt>base_url</dt><dd><code>${origin}/v1</code></dd><dt>checkout_url</dt><dd><code>${origin}/checkout</code></dd>
<dt>control</dt><dd><a href="/sandbox/fixtures">/sandbox/fixtures</a>, <a href="/sandbox/orders">/sandbox/orders</a>, <a href="/sandbox/deliveries">/sandbox/deliveries</a></dd></dl>`, 200);
  });

  return app;
}

const gzipped = new Map<string, Buffer>();

/**
 * gzip where the browser takes it, as any host of the page would: on a phone's 1.6 Mbps the hosted page's script is a
 * third of the wait uncompressed. Files are compressed once per version (`key`), pages per answer.
 */
function compressed(c: Context, body: Buffer, headers: Record<string, string>, key?: string): Response {
  const vary = { ...headers, Vary: 'Accept-Encoding' };
  if (!/\bgzip\b/.test(c.req.header('accept-encoding') ?? '') || body.length < 1_024) return c.body(new Uint8Array(body), 200, vary);
  let zipped = key ? gzipped.get(key) : undefined;
  if (!zipped) {
    zipped = gzipSync(body);
    if (key) gzipped.set(key, zipped);
  }
  return c.body(new Uint8Array(zipped), 200, { ...vary, 'Content-Encoding': 'gzip' });
}

/** What `/checkout/…` names: a built file, or (no file) the page; undefined for a malformed %-escape. */
function hostedPageOf(ctx: SandboxContext, url: string): { rel: string; hostedDir: string | undefined; file: string | undefined } | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(url).pathname.slice('/checkout/'.length));
  } catch {
    return undefined;
  }
  const hostedDir = findHostedDir(ctx.hostedDir);
  const file = hostedDir && path.resolve(hostedDir, rel);
  const isFile = rel && file && file.startsWith(hostedDir + path.sep) && existsSync(file) && statSync(file).isFile();
  return { rel, hostedDir, file: isFile ? file : undefined };
}

const localeOf = (url: string) => (new URL(url).searchParams.get('locale') === 'en' ? 'en' : 'es');

/**
 * The modules a hosted page's first screen needs, for a 103 Early Hints response sent before the page is rendered
 * (node-listener.ts); none for anything but the built page.
 */
export function hostedPageHints(ctx: SandboxContext, request: Request): string[] {
  const url = new URL(request.url);
  if (request.method !== 'GET' || !url.pathname.startsWith('/checkout/')) return [];
  const page = hostedPageOf(ctx, request.url);
  if (!page?.hostedDir || page.file) return [];
  const built = readFileSync(path.join(page.hostedDir, 'index.html'), 'utf8');
  const entryInline = linkToRender(ctx, page.rel) !== undefined && entryScriptOf(page.hostedDir, built) !== undefined;
  return isHostedPage(built) ? hostedPageLinks(built, localeOf(request.url), { entryInline }) : [];
}

/** The link `/checkout/{rel}` shows, if the sandbox renders its page: known, of an active store, no fault set on its answer. */
function linkToRender(ctx: SandboxContext, rel: string) {
  const hash = rel.split('/').filter(Boolean).at(-1);
  const link = hash ? ctx.state.links.get(hash) : undefined;
  const store = link && storeById(ctx.state, link.id_store);
  if (!hash || !link || !store?.active) return undefined;
  // A fault set on the link's answer is for the element to meet: the page goes as built and asks for the link itself.
  if (faultPending(ctx.state, 'GET', `/v1/checkout/links/${hash}`)) return undefined;
  return { hash, link };
}

/** The last entry read, with the file's path and time: a rebuild replaces it. */
let entryRead: { key: string; script: string } | undefined;

/** The built entry's text, which the server-rendered page carries (read once per version of the file). */
function entryScriptOf(hostedDir: string, index: string): string | undefined {
  const src = hostedEntryPath(index);
  if (!src?.startsWith(hostedBuildBase)) return undefined;
  const file = path.resolve(hostedDir, src.slice(hostedBuildBase.length));
  if (!file.startsWith(hostedDir + path.sep) || !existsSync(file)) return undefined;
  const key = `${file}:${statSync(file).mtimeMs}`;
  if (entryRead?.key !== key) entryRead = { key, script: readFileSync(file, 'utf8') };
  return entryRead.script;
}

/**
 * The page with the link's first screen, answer and preview in it (server/hosted-page/index.ts), and the headers a payment
 * page is sent with; as built for a link it cannot show, with the same headers. Its public URL (the preview's og:url,
 * https for HSTS) is the sandbox's public URL where one is set, else this request's origin, and the path asked.
 */
async function serverRendered(ctx: SandboxContext, c: Context, index: string, rel: string, hostedDir: string): Promise<RenderedHostedPage> {
  const shown = linkToRender(ctx, rel);
  const url = new URL(`${originOf(ctx, c)}${new URL(c.req.url).pathname}`);
  if (!shown) return { html: index, headers: hostedPageHeaders(index, { https: url.protocol === 'https:' }) };
  return renderHostedPage(index, {
    hash: shown.hash,
    link: checkoutLinkView(ctx, shown.link, originOf(ctx, c)),
    locale: localeOf(c.req.url),
    entryScript: entryScriptOf(hostedDir, index),
    url,
    withHeaders: true,
    now: ctx.clock.now(),
  });
}

function contentTypeOf(file: string): string {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.map': 'application/json', '.woff2': 'font/woff2' };
  return types[path.extname(file)] ?? 'application/octet-stream';
}
