/**
 * `hostedPagePlugin()`: in `npm start`, `/checkout/{hash}` is the hosted page (hosted/index.html), the way
 * `npm run sandbox` and any static host serve dist/hosted/ with one rewrite rule.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Plugin, ViteDevServer } from 'vite';
import { configureHostedPage } from '../src/server/hosted-page/deploy.js';
import { hostedPageHeaders } from '../src/server/hosted-page/headers.js';
import { withPageStyle } from './hosted-page-style.js';

const hostedDir = fileURLToPath(new URL('../hosted/', import.meta.url));
const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));
const renderer = fileURLToPath(new URL('../src/server/hosted-page/index.ts', import.meta.url));

/** `/checkout/HASH` (one segment, no file extension): a page; `/checkout/x.js` and deeper paths are not. */
export function isHostedPagePath(url: string | undefined, prefix = '/checkout/'): boolean {
  if (!url) return false;
  const pathname = url.split(/[?#]/)[0] ?? '';
  if (!pathname.startsWith(prefix)) return false;
  // One segment, with or without a trailing slash (`/checkout/HASH/` renders the checkout too).
  const rest = pathname.slice(prefix.length).replace(/\/$/, '');
  return rest.length > 0 && !rest.includes('/') && !rest.includes('.');
}

/** The page's relative `./file` references, made absolute for a page served at /checkout/HASH from outside root. */
export function rewriteHostedHtml(html: string, fsPrefix: string): string {
  return html.replace(/(src|href)="\.\/([^"]+)"/g, (_match, attribute: string, file: string) => `${attribute}="${fsPrefix}${file}"`);
}

/**
 * `apiBase`: the buyer API the page talks to; default this server's own `/v1` at the address paySandbox() gives
 * buyers, written into the page's api-base meta and CSP as the sandbox does for the built page.
 */
export function hostedPagePlugin(options: { prefix?: string; apiBase?: string } = {}): Plugin {
  const prefix = options.prefix ?? '/checkout/';
  const serve = async (server: ViteDevServer, req: IncomingMessage, res: ServerResponse) => {
    const local = server.resolvedUrls?.local[0];
    const apiBase = options.apiBase ?? (local ? `${new URL(local).origin}/v1` : undefined);
    const source = configureHostedPage(withPageStyle(await readFile(`${hostedDir}index.html`, 'utf8')), { apiBase });
    // Files outside root are served under /@fs/; the workspace root (this repo) is within server.fs.allow.
    const page = await server.transformIndexHtml(req.url ?? prefix, rewriteHostedHtml(source, `/@fs${hostedDir}`));
    const html = await serverRendered(server, page, req.url ?? prefix, apiBase);
    // The headers the page goes with everywhere (its CSP with frame-ancestors, X-Frame-Options, …), here too.
    for (const [name, value] of Object.entries(hostedPageHeaders(html))) res.setHeader(name, value);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(html);
  };
  return {
    name: 'pay-checkout-hosted-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        if (!isHostedPagePath(req.url, prefix)) return next();
        serve(server, req, res).catch(next);
      });
    },
  };
}

/**
 * The first screen and the link answer in the page, as `npm run sandbox` serves it: the link asked of this server's
 * own sandbox, drawn by Lit SSR through Vite's SSR loader (TypeScript sources, lit's Node build). As built on failure.
 */
async function serverRendered(server: ViteDevServer, page: string, url: string, apiBase: string | undefined): Promise<string> {
  const hash = decodeURIComponent(url.split(/[?#]/)[0]?.split('/').filter(Boolean).at(-1) ?? '');
  if (!apiBase || !hash) return page;
  try {
    const answer = await fetch(`${apiBase}/checkout/links/${encodeURIComponent(hash)}`);
    if (!answer.ok) return page;
    const { renderHostedPage } = (await server.ssrLoadModule(`/@fs${renderer}`)) as typeof import('../src/server/hosted-page/index.js');
    const locale = new URL(url, 'http://localhost').searchParams.get('locale') === 'en' ? 'en' : 'es';
    return await renderHostedPage(page, { hash, link: await answer.json(), locale });
  } catch (error) {
    server.config.logger.warn(`[pay-checkout] hosted page not server-rendered: ${error instanceof Error ? error.message : String(error)}`);
    return page;
  }
}

/** `/examples/NAME.html` in `npm start`: the plugin-author examples (examples/), which live outside the demo root. */
export function examplePagesPlugin(): Plugin {
  return {
    name: 'pay-checkout-example-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = /^\/examples\/([\w-]+)\.html(?:[?#]|$)/.exec(req.url ?? '')?.[1];
        if (!name || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        readFile(`${examplesDir}${name}.html`, 'utf8')
          .then((source) => server.transformIndexHtml(req.url ?? '/', rewriteHostedHtml(source, `/@fs${examplesDir}`)))
          .then((html) => {
            res.setHeader('Content-Type', 'text/html; charset=utf-8');
            res.end(html);
          })
          .catch(() => next());
      });
    },
  };
}
