/**
 * The hosted page (dist/hosted/index.html) rendered on a server for one link: the link answer rides in the page as
 * a `<script type="application/json">` inside `<pay-checkout>` (data, so no CSP blocks it), and the first screen is
 * already drawn as declarative shadow DOM by Lit SSR, so the amount and the methods show before any script runs;
 * the element then checks that answer against the contract and takes over without asking for the link again.
 * Lit SSR (`@lit-labs/ssr`, an optional peer) is loaded on first use; without it the page goes out with its title and
 * link preview only.
 * Given the built entry's text (`entryScript`), the page carries it too, at the end of its body and allowed by its
 * hash: the first screen answers the buyer without waiting a round trip for its script.
 * `hostedPageLinks` names what the first screen's script needs, for a `Link` header and 103 Early Hints.
 * With `withHeaders`, the answer also carries the headers the page must be sent with (headers.ts).
 */
import { pageLink } from '../../client/checkout-link.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { formatMoney, intlLocales } from '../../i18n/format-money.js';
import { previewMessages } from '../../i18n/preview.js';
import { hostedPageHeaders } from './headers.js';

export { hostedPageHeaders, type HostedPageHeaderOptions } from './headers.js';
export { configureHostedPage, hostedBuildBase, writeHostedPage, type HostedPageOptions } from './deploy.js';

export interface RenderHostedPageOptions {
  /** The link's hash, as in `/checkout/{hash}`. */
  hash: string;
  /** `GET /checkout/links/{hash}`'s answer (`data` or the whole `{ "data": … }`), as the server fetched it. */
  link: unknown;
  /** `es` (default) or `en`: the first screen's language. */
  locale?: 'es' | 'en';
  /**
   * The text of the page's entry script, the file `hostedEntryPath(html)` names (dist/hosted/assets/main-*.js): put in
   * the page instead of fetched. Omitted, the page names the script as built.
   */
  entryScript?: string;
  /**
   * The page's public URL as buyers open it (`https://shop.example/checkout/HASH`), from your server's own public
   * origin, never from the request's Host header alone: the preview's `og:url`, and `https:` adds HSTS to `headers`.
   */
  url?: string | URL;
  /** Origins allowed to frame the page (`frame-ancestors`); default none. See `hostedPageHeaders`. */
  frameAncestors?: readonly string[];
  /** Answer `{ html, headers }`: the page and the headers to send it with. Default: the page alone, as a string. */
  withHeaders?: boolean;
  now?: number;
}

/** `renderHostedPage(html, { …, withHeaders: true })`: the page and the response headers it must be sent with. */
export interface RenderedHostedPage {
  html: string;
  /** The CSP with `frame-ancestors`, X-Frame-Options, nosniff, Referrer-Policy, Permissions-Policy; HSTS over https. */
  headers: Record<string, string>;
}

const mainElement = /<main id="checkout">[\s\S]*?<\/main>/;
const cspMeta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;
/**
 * A module's first statement that lets the browser paint before the rest runs (`inlineEntry`): at once if the page has
 * painted already (an engine without paint timing waits), else after the next frame.
 */
const afterFirstPaint =
  'performance.getEntriesByName("first-contentful-paint").length||await new Promise((go)=>{requestAnimationFrame(()=>setTimeout(go));setTimeout(go,100)});';
/** The built page's entry: the one module script with a `src`, in its `<head>`. */
/**
 * A classic script put before the entry: from the first paint, what the buyer last tapped is kept under the symbol the
 * element reads when it takes over (src/element/controllers/server-screen.ts), which taps that button again on its own
 * screen; a tap while the entry is on its way is no longer lost.
 */
const earlyTapScript = 'addEventListener("click",(e)=>{window[Symbol.for("pay-checkout.tap")]=e.composedPath()[0]},true)';
const entryScriptElement = /\s*<script type="module" src="([^"]+)"><\/script>/;

type Ssr = {
  render: typeof import('@lit-labs/ssr').render;
  collect: typeof import('@lit-labs/ssr/lib/render-result.js').collectResult;
  html: typeof import('lit').html;
  unsafeHTML: typeof import('lit/directives/unsafe-html.js').unsafeHTML;
  enFirst: typeof import('../../i18n/en-first.js').enFirst;
};
let ssr: Promise<Ssr | null> | undefined;

/** Lit SSR and the element's definitions, once; null where `@lit-labs/ssr` is not installed. */
function loadSsr(): Promise<Ssr | null> {
  ssr ??= (async () => {
    try {
      const [{ render }, { collectResult }, { html }, { unsafeHTML }, { enFirst }] = await Promise.all([
        import('@lit-labs/ssr'),
        import('@lit-labs/ssr/lib/render-result.js'),
        import('lit'),
        import('lit/directives/unsafe-html.js'),
        import('../../i18n/en-first.js'),
      ]);
      await import('../../define.js');
      return { render, collect: collectResult, html, unsafeHTML, enFirst };
    } catch {
      return null;
    }
  })();
  return ssr;
}

/** Whether this server can draw the first screen (Lit SSR is installed). */
export async function canRenderHostedPage(): Promise<boolean> {
  return (await loadSsr()) !== null;
}

/**
 * `html` (the built hosted page, already configured) with the link's first screen, answer and preview in it, in
 * `locale`. A missing, foreign, expired or malformed answer: `html` unchanged, and the element fetches; no Lit SSR:
 * the title and preview only. With `withHeaders`, `{ html, headers }`.
 */
export function renderHostedPage(html: string, options: RenderHostedPageOptions & { withHeaders: true }): Promise<RenderedHostedPage>;
export function renderHostedPage(html: string, options: RenderHostedPageOptions & { withHeaders?: false }): Promise<string>;
export function renderHostedPage(html: string, options: RenderHostedPageOptions): Promise<string | RenderedHostedPage>;
export async function renderHostedPage(html: string, options: RenderHostedPageOptions): Promise<string | RenderedHostedPage> {
  const url = pageUrl(options.url);
  const page = await drawPage(html, options, url);
  if (!options.withHeaders) return page;
  return { html: page, headers: hostedPageHeaders(page, { frameAncestors: options.frameAncestors, https: url?.protocol === 'https:' }) };
}

async function drawPage(html: string, options: RenderHostedPageOptions, url: URL | undefined): Promise<string> {
  const link = pageLink(options.link, options.hash, options.now ?? Date.now());
  if (!link || !mainElement.test(html)) return html;
  const locale = options.locale ?? 'es';
  const named = withPreview(withLocale(html, locale), link, locale, url);
  const lit = await loadSsr();
  if (!lit) return named;
  const english = locale === 'en';
  // `<` escaped: the answer's strings can never close the script element.
  const data = `<script type="application/json">${JSON.stringify({ data: link }).replace(/</g, '\\u003c')}</script>`;
  // Each language's first screens' strings, as the element has them bundled.
  const element = await lit.collect(
    english
      ? lit.render(lit.html`<pay-checkout link=${options.hash} locale="en" .linkData=${link} .messages=${lit.enFirst}>${lit.unsafeHTML(data)}</pay-checkout>`)
      : lit.render(lit.html`<pay-checkout link=${options.hash} locale="es" .linkData=${link}>${lit.unsafeHTML(data)}</pay-checkout>`),
  );
  const styles = new Set([...element.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''));
  const styleHashes = await Promise.all([...styles].map(async (css) => `'sha256-${await sha256Base64(css)}'`));
  const inline = options.entryScript === undefined ? undefined : inlineEntry(named, options.entryScript, locale);
  const scriptHashes = inline ? await Promise.all([inline.script, earlyTapScript].map(async (script) => `'sha256-${await sha256Base64(script)}'`)) : [];
  return (inline?.html ?? named)
    .replace(mainElement, () => `<main id="checkout">${element}</main>`)
    .replace(cspMeta, (_m, open: string, policy: string, close: string) => `${open}${allowHashes(allowHashes(policy, 'style-src', styleHashes), 'script-src', scriptHashes)}${close}`);
}

/** The page's public URL, checked: absolute http(s), or a clear error. */
function pageUrl(value: string | URL | undefined): URL | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(`renderHostedPage: url must be the page's absolute http(s) URL, such as https://shop.example/checkout/HASH; not ${JSON.stringify(String(value))}.`);
  }
  return url;
}

/** A link's preview tags (any earlier ones go), the title and the heading: whose link it is and what it pays for. */
function withPreview(html: string, link: CheckoutLink, locale: 'es' | 'en', url: URL | undefined): string {
  const words = previewMessages[locale];
  const amount = link.amount === undefined || link.amount === null ? undefined : formatMoney(link.amount, link.currency, locale);
  const methods = new Intl.ListFormat(intlLocales[locale], { type: 'conjunction' }).format([...new Set(link.gateways.map((g) => g.name))]);
  const description =
    link.status === 'paid' ? words.paid(link.description) : link.status === 'expired' ? words.expired(link.description) : words.description(link.description, amount, methods);
  const title = words.title(link.store_name);
  const image = httpsUrl(link.image_url);
  const tags: [string, string, string][] = [
    ['name', 'description', description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', link.store_name],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:locale', locale === 'en' ? 'en_US' : 'es_CO'],
    // The page's own address, as the preview's link: the hash, and the language it was asked in; no other query.
    ...(url ? [['property', 'og:url', `${url.origin}${url.pathname}${locale === 'en' ? '?locale=en' : ''}`] as [string, string, string]] : []),
    ...(image ? [['property', 'og:image', image] as [string, string, string]] : []),
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
  ];
  const meta = tags.map(([kind, name, content]) => `<meta ${kind}="${name}" content="${escapeText(content)}" />`).join('\n    ');
  return html
    .replace(previewMeta, '')
    .replace(/<title>[^<]*<\/title>/, () => `${meta}\n    <title>${escapeText(link.store_name)} · ${locale === 'en' ? 'Payment' : 'Pago'}</title>`)
    .replace(/(<h1 class="sr-only" id="page-title">)[^<]*(<\/h1>)/, (_m, open: string, close: string) => `${open}${escapeText(title)}${close}`);
}

/** The page's preview tags as built (neutral), with what precedes them on their line. */
const previewMeta = /[ \t]*<meta (?:name="(?:description|twitter:[\w:]+)"|property="og:[\w:]+") content="[^"]*"\s*\/?>\n?/g;

/** `value` if it is an absolute `https:` URL (an image a preview bot fetches over the open internet), else undefined. */
function httpsUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).protocol === 'https:' ? new URL(value).href : undefined;
  } catch {
    return undefined;
  }
}

/** The path the built page fetches its entry script from (under its base path), or undefined if it names none. */
export function hostedEntryPath(html: string): string | undefined {
  return entryScriptElement.exec(html.split('</head>')[0] ?? '')?.[1];
}

/**
 * `html` with its entry script moved from a `src` into the page, last in the body (the first screen's HTML comes
 * first). The entry's imports are relative to its own URL (the build checks every `import()` is written `./…`), so
 * they are made absolute; undefined where the text could end the script element.
 */
function inlineEntry(html: string, entryScript: string, locale: 'es' | 'en'): { html: string; script: string } | undefined {
  const src = hostedEntryPath(html);
  if (!src || !html.includes('</body>')) return undefined;
  const folder = src.slice(0, src.lastIndexOf('/') + 1);
  const [hint = '', body = ''] = /^(\/\/# allFunctionsCalledOnLoad\n)?([\s\S]*)$/.exec(entryScript)?.slice(1) ?? [];
  // The browser runs a module script once the HTML is parsed, often before its first paint: unless the page has painted,
  // the entry waits for that frame (a tenth of a second at most, as a hidden tab paints none), so the drawn screen shows first.
  const script = `${hint}${afterFirstPaint}${body.replace(/\bimport\((["'`])\.\//g, (_m, quote: string) => `import(${quote}${folder}`)}`;
  if (/<\/script|<!--/i.test(script)) return undefined;
  const next = nextScreensOf(body, folder, locale).map((href) => `\n  <link rel="modulepreload" href="${href}" />`).join('');
  return {
    script,
    html: html
      .replace(entryScriptElement, '')
      .replace('<body>', () => `<body>${next}`)
      // First a small classic script, run as soon as it is parsed: a tap on the drawn screen while the entry is still
      // on its way is kept, and the element replays it when it takes over (server-screen.ts).
      .replace('</body>', () => `<script>${earlyTapScript}</script>\n  <script type="module">${script}</script>\n  </body>`),
  };
}

/**
 * The chunks the screens after the first need (the details step, the later steps, the page's language's whole catalog), as the entry
 * imports them: preloaded from the top of the body (out of the head, so no Early Hints name them), found with the
 * page's first bytes; on a phone their first byte comes a round trip later, when the page itself is in (22 KB gzip:
 * 110 ms at 1.6 Mbps, under the 150 ms round trip), so they arrive while the entry runs and a buyer who taps at once
 * finds the next screen nearly here. Fetched and compiled, not run until asked.
 */
function nextScreensOf(entry: string, folder: string, locale: 'es' | 'en'): string[] {
  const chunks = [...entry.matchAll(/\bimport\(["'`]\.\/((?:details-steps|later-steps|es|en)-[\w-]+\.js)["'`]\)/g)].map((m) => m[1] ?? '');
  // Not the later steps: on a slow line their 28 KB would share the bandwidth the details step needs (they are asked
  // for a moment after it, step-chunks.ts).
  const wanted = chunks.filter((name) => name.startsWith('details-steps-') || name.startsWith(`${locale}-`));
  // The details step's small chunk first: a method tapped at once needs it, and the catalog, before the later steps.
  return wanted.sort((a, b) => Number(b.startsWith('details-steps-')) - Number(a.startsWith('details-steps-'))).map((name) => `${folder}${name}`);
}

/** The page in `locale`'s language (both languages' first screens are in the entry: no catalog to preload). */
function withLocale(html: string, locale: 'es' | 'en'): string {
  return html.replace(/<html lang="[^"]*"/, `<html lang="${locale}"`);
}

/**
 * What a `Link` header or a 103 Early Hints response names for this page: the entry script and every module the first
 * interactive screen needs, as the page's `<head>` does, so a browser can fetch them before the HTML; not the entry
 * where the page will carry it (`entryInline`, renderHostedPage's `entryScript`). Both languages need the same modules
 * (`locale` is kept for callers that pass it).
 */
export function hostedPageLinks(html: string, _locale: 'es' | 'en' = 'es', { entryInline = false }: { entryInline?: boolean } = {}): string[] {
  const head = html.split('</head>')[0] ?? '';
  const named = entryInline ? /<link rel="modulepreload" href="([^"]+)"/g : /<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g;
  const modules = [...head.matchAll(named)].map((m) => m[1] ?? '');
  return modules.filter(Boolean).map((href) => `<${href}>; rel=modulepreload`);
}

/**
 * `policy` allowing, in `directive`, exactly the elements with these hashes and nothing more (no 'unsafe-inline'): the
 * declarative shadow roots' `<style>` elements, the inline entry script.
 */
function allowHashes(policy: string, directive: 'style-src' | 'script-src', hashes: readonly string[]): string {
  if (hashes.length === 0) return policy;
  const directives = policy.split(';').map((d) => d.trim()).filter(Boolean).map((d) => d.split(/\s+/));
  let allowed = directives.find(([name]) => name === directive);
  if (!allowed) directives.push((allowed = [directive, ...(directives.find(([name]) => name === 'default-src')?.slice(1) ?? [])]));
  allowed.push(...hashes.filter((hash) => !allowed.includes(hash)));
  return directives.map((d) => d.join(' ')).join('; ');
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
