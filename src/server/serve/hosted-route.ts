/**
 * The hosted page `/checkout/{hash}` on `pay-checkout serve`, drawn on the server as the sandbox draws it: the link's
 * answer and first screen in the page (renderHostedPage, with Lit SSR where `@lit-labs/ssr` is installed), the entry
 * script carried in the page, and the modules the first screen needs named in a 103 Early Hints and a `Link` header.
 * The link answer is the buyer API's own (the handler's link operation, called for the page's request, with its
 * limits), so the page shows exactly what the element would have asked for. A link it cannot draw (none, expired, the shop's app failing) goes as
 * built: the element asks for the link itself and shows what is wrong.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { allowOrigin, cspMeta, hostedBuildBase } from '../hosted-page/deploy.js';
import { canRenderHostedPage, hostedEntryPath, hostedPageHeaders, hostedPageLinks, renderHostedPage } from '../hosted-page/index.js';
import type { Answer, Incoming } from '../http/incoming.js';
import { encodingFor } from './assets.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export interface HostedRouteOptions {
  /** The package's `dist/`. */
  dist: string;
  /** The service's origin: the gateway icons in the link answer come from it, so the page's CSP allows its images. */
  serviceOrigin: string;
  /**
   * The origin buyers reach this server at (`PAY_CHECKOUT_PUBLIC_URL`): the page's `og:url` and, over https, HSTS.
   * Never taken from the request's Host, which a client or a misconfigured proxy chooses.
   */
  publicUrl?: string;
  /** Origins allowed to frame the page (`PAY_CHECKOUT_FRAME_ANCESTORS`); none by default. */
  frameAncestors?: readonly string[];
  /** The buyer API's answer for a link: its status, and the link when 200. */
  linkAnswer(hash: string, incoming: Incoming): Promise<{ status: number; data?: unknown }>;
}

export function hostedRoute(options: HostedRouteOptions) {
  const folder = path.join(options.dist, 'hosted');
  const built = readFileSync(path.join(folder, 'index.html'), 'utf8');
  const index = built.replace(cspMeta, (_m, open: string, policy: string, close: string) => `${open}${allowOrigin(policy, options.serviceOrigin, ['img-src'])}${close}`);
  const src = hostedEntryPath(index);
  const entryScript = src?.startsWith(hostedBuildBase) ? readFileSync(path.join(folder, src.slice(hostedBuildBase.length)), 'utf8') : undefined;
  const rendering = canRenderHostedPage();
  const frameAncestors = options.frameAncestors ?? [];
  const https = options.publicUrl !== undefined && new URL(options.publicUrl).protocol === 'https:';

  // Pages drawn for a link answer, with their compressed forms: the same answer (the link as the buyer API gives it,
  // its status and expiry included) draws the same page, so a busy link is drawn and compressed once, not per visit.
  const pages = new Map<string, DrawnPage>();
  let drawnPages = 0;

  const route = async (incoming: Incoming, hash: string): Promise<Answer> => {
    const locale = incoming.searchParams.get('locale') === 'en' ? 'en' : 'es';
    const drawn = (await rendering) && entryScript !== undefined;
    // Before the link is asked for: the browser fetches the first screen's modules while the shop's app answers.
    incoming.earlyHints?.(hostedPageLinks(index, locale, { entryInline: drawn }));
    const link = await options.linkAnswer(hash, incoming);
    const key = link.status === 200 ? `${locale}\n${hash}\n${JSON.stringify(link.data)}` : undefined;
    let page = key === undefined ? undefined : pages.get(key);
    if (!page) {
      page = await draw(link, hash, locale, drawn);
      drawnPages += 1;
      if (key !== undefined) {
        pages.set(key, page);
        if (pages.size > maxPages) pages.delete(pages.keys().next().value as string);
      }
    }
    const encoding = encodingFor(incoming.headers.get('accept-encoding'));
    if (!encoding) return { status: page.status, headers: page.headers, text: page.html };
    let bytes = page.encoded.get(encoding);
    if (!bytes) {
      const { html } = page;
      // Quickly: a page of a link nobody visits twice is compressed once and dropped.
      bytes = encoding === 'br' ? brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }) : gzipped(html, { level: 6 });
      page.encoded.set(encoding, bytes);
    }
    return { status: page.status, headers: { ...page.headers, 'content-encoding': encoding }, text: null, bytes: await bytes };
  };

  const draw = async (link: { status: number; data?: unknown }, hash: string, locale: 'es' | 'en', drawn: boolean): Promise<DrawnPage> => {
    const url = options.publicUrl === undefined ? undefined : new URL(`/checkout/${encodeURIComponent(hash)}`, options.publicUrl);
    // The title and preview need no Lit SSR; the first screen does (renderHostedPage draws what it can).
    const { html: page, headers: pageHeaders } =
      link.status === 200
        ? await renderHostedPage(index, { hash, link: link.data, locale, withHeaders: true, frameAncestors, ...(url ? { url } : {}), ...(drawn && entryScript !== undefined ? { entryScript } : {}) })
        : { html: index, headers: hostedPageHeaders(index, { frameAncestors, https }) };
    const links = hostedPageLinks(page, locale, { entryInline: hostedEntryPath(page) === undefined });
    const headers: Record<string, string> = {
      // The payment page's own: CSP with frame-ancestors, X-Frame-Options, nosniff, Referrer-Policy, Permissions-Policy.
      ...Object.fromEntries(Object.entries(pageHeaders).map(([name, value]) => [name.toLowerCase(), value])),
      'content-type': 'text/html; charset=utf-8',
      // The link's status may change at any time (paid, expired): no browser or proxy keeps the page.
      'cache-control': 'no-store',
      vary: 'Accept-Encoding',
      ...(links.length > 0 ? { link: links.join(', ') } : {}),
    };
    // No such link, or too many lookups from this address: the page says so in its status too.
    const status = link.status === 404 || link.status === 429 ? link.status : 200;
    return { status, headers, html: page, encoded: new Map() };
  };

  // How many pages were drawn rather than reused (for tests and a curious operator).
  return Object.defineProperty(route, 'drawnPages', { get: () => drawnPages }) as typeof route & { readonly drawnPages: number };
}

/** Link answers whose pages are kept at most; the oldest goes first. */
const maxPages = 500;

interface DrawnPage {
  status: number;
  headers: Record<string, string>;
  html: string;
  encoded: Map<'br' | 'gzip', Promise<Uint8Array>>;
}
