/**
 * The built hosted page (dist/hosted/) made ready for where it is served: the path its files live under and the
 * service origin it talks to. The page is static HTML, so its CSP meta can only name that origin if it is written
 * in: `configureHostedPage` does it where the `pay-api-base` meta is set, and the sandbox applies it to each answer.
 * `writeHostedPage` is the deploy step for a static host, with the page's headers in a `_headers` file. Exported by
 * `pay-checkout/server/hosted-page`, which a production server may import (the sandbox's subpath re-exports them).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hostedPageHeaders, type HostedPageHeaderOptions } from './headers.js';

/** Where the build puts the page's files (vite.hosted.config.ts `base`): the sandbox's `checkout_url` path. */
export const hostedBuildBase = '/checkout/';

export interface HostedPageOptions {
  /**
   * The buyer API's base URL (`https://api.example.com/v1`), written into `<meta name="pay-api-base">`. Its origin
   * is added to the CSP's `connect-src` and `img-src` (the gateway icons come from the service). Default: this
   * origin's `/v1`, which the CSP's `'self'` already covers.
   */
  apiBase?: string;
  /** The URL path the page's files are served under, e.g. `/pay/`; default `/checkout/`. */
  basePath?: string;
}

export const cspMeta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;
const apiBaseMeta = /(<meta\s+name="pay-api-base"\s+content=")([^"]*)(")/;

/** The page's index.html has both metas this module sets. */
export const isHostedPage = (html: string) => cspMeta.test(html) && apiBaseMeta.test(html);

/** Returns index.html with the API base, the CSP and the asset path set; throws if the HTML is not the built page. */
export function configureHostedPage(html: string, options: HostedPageOptions = {}): string {
  if (!isHostedPage(html)) {
    throw new Error('configureHostedPage: this is not the built hosted page (no CSP or pay-api-base meta); pass dist/hosted/index.html.');
  }
  let out = html;
  if (options.apiBase !== undefined && options.apiBase.trim() !== '') {
    const api = serviceUrl(options.apiBase);
    out = out.replace(apiBaseMeta, (_m, open: string, _old: string, close: string) => `${open}${escapeAttribute(api.href.replace(/\/+$/, ''))}${close}`);
    out = out.replace(cspMeta, (_m, open: string, policy: string, close: string) => `${open}${allowOrigin(policy, api.origin)}${close}`);
  }
  const basePath = normalizeBasePath(options.basePath ?? hostedBuildBase);
  if (basePath !== hostedBuildBase) {
    out = out.replace(/(\s(?:src|href)=")\/checkout\//g, (_m, attribute: string) => `${attribute}${basePath}`);
  }
  return out;
}

/**
 * Copies the built page to `outDir` with a configured index.html, and writes its headers beside it as `_headers`
 * (Netlify's and Cloudflare Pages' format, for every path under `basePath`): the deploy step for a static host.
 * `frameAncestors` lists the origins that may frame the page (default none). The headers include HSTS: a static
 * host serves buyers over https.
 */
export function writeHostedPage(options: HostedPageOptions & Pick<HostedPageHeaderOptions, 'frameAncestors'> & { from: string; outDir: string }): void {
  cpSync(options.from, options.outDir, { recursive: true });
  const index = path.join(options.outDir, 'index.html');
  const html = configureHostedPage(readFileSync(index, 'utf8'), options);
  writeFileSync(index, html);
  writeFileSync(path.join(options.outDir, '_headers'), headersFile(normalizeBasePath(options.basePath ?? hostedBuildBase), hostedPageHeaders(html, { frameAncestors: options.frameAncestors, https: true })));
}

/** `headers` for every path under `basePath`, in the `_headers` format (a path, then indented `Name: value` lines). */
function headersFile(basePath: string, headers: Record<string, string>): string {
  return `${basePath}*\n${Object.entries(headers).map(([name, value]) => `  ${name}: ${value}\n`).join('')}`;
}

/** `connect-src` and `img-src` (or the directives named) gain exactly `origin` beside what they allowed (`default-src` when absent). */
export function allowOrigin(policy: string, origin: string, names: readonly string[] = ['connect-src', 'img-src']): string {
  const directives = policy.split(';').map((d) => d.trim()).filter(Boolean).map((d) => d.split(/\s+/));
  const fallback = directives.find(([name]) => name === 'default-src')?.slice(1) ?? [];
  for (const name of names) {
    let directive = directives.find(([n]) => n === name);
    if (!directive) directives.push((directive = [name, ...fallback]));
    if (!directive.includes(origin)) directive.push(origin);
  }
  return directives.map((d) => d.join(' ')).join('; ');
}

function serviceUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`configureHostedPage: apiBase must be an absolute URL such as https://api.example.com/v1, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`configureHostedPage: apiBase must be http(s), not ${url.protocol}`);
  return url;
}

function normalizeBasePath(value: string): string {
  const trimmed = value.trim();
  if (!/^\/[\w\-./~%]*$/.test(trimmed)) throw new Error(`configureHostedPage: basePath must be a URL path such as /checkout/, not ${JSON.stringify(value)}.`);
  return trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
