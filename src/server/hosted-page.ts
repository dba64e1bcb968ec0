/**
 * The hosted page (dist/hosted/index.html) rendered on a server for one link: the link answer rides in the page as
 * a `<script type="application/json">` inside `<pay-checkout>` (data, so no CSP blocks it), and the first screen is
 * already drawn as declarative shadow DOM by Lit SSR, so the amount and the methods show before any script runs;
 * the element then checks that answer against the contract and takes over without asking for the link again.
 * Lit SSR (`@lit-labs/ssr`, an optional peer) is loaded on first use; without it the page goes out as it is.
 * `hostedPageLinks` names what the first screen's script needs, for a `Link` header and 103 Early Hints.
 */
import { pageLink } from '../client/checkout-link.js';

export interface RenderHostedPageOptions {
  /** The link's hash, as in `/checkout/{hash}`. */
  hash: string;
  /** `GET /checkout/links/{hash}`'s answer (`data` or the whole `{ "data": … }`), as the server fetched it. */
  link: unknown;
  /** `es` (default) or `en`: the first screen's language; an English page also preloads the English catalog's chunk. */
  locale?: 'es' | 'en';
  now?: number;
}

const mainElement = /<main id="checkout">[\s\S]*?<\/main>/;
const cspMeta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;
/** The build's inert preloads for one language's page (vite.hosted.config.ts). */
const preloadTemplate = /<template data-pay-preload="(\w+)">([\s\S]*?)<\/template>\s*/g;

type Ssr = {
  render: typeof import('@lit-labs/ssr').render;
  collect: typeof import('@lit-labs/ssr/lib/render-result.js').collectResult;
  html: typeof import('lit').html;
  unsafeHTML: typeof import('lit/directives/unsafe-html.js').unsafeHTML;
  en: typeof import('../i18n/en.js').en;
};
let ssr: Promise<Ssr | null> | undefined;

/** Lit SSR and the element's definitions, once; null where `@lit-labs/ssr` is not installed. */
function loadSsr(): Promise<Ssr | null> {
  ssr ??= (async () => {
    try {
      const [{ render }, { collectResult }, { html }, { unsafeHTML }, { en }] = await Promise.all([
        import('@lit-labs/ssr'),
        import('@lit-labs/ssr/lib/render-result.js'),
        import('lit'),
        import('lit/directives/unsafe-html.js'),
        import('../i18n/en.js'),
      ]);
      await import('../define.js');
      return { render, collect: collectResult, html, unsafeHTML, en };
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
 * `html` (the built hosted page, already configured) with the link's first screen and answer in it, in `locale`. A
 * missing, foreign, expired or malformed answer, or no Lit SSR: `html` unchanged, and the element fetches.
 */
export async function renderHostedPage(html: string, options: RenderHostedPageOptions): Promise<string> {
  const link = pageLink(options.link, options.hash, options.now ?? Date.now());
  if (!link || !mainElement.test(html)) return html;
  const lit = await loadSsr();
  if (!lit) return html;
  const english = options.locale === 'en';
  // `<` escaped: the answer's strings can never close the script element.
  const data = `<script type="application/json">${JSON.stringify({ data: link }).replace(/</g, '\\u003c')}</script>`;
  // English: the whole catalog, which the browser gets as a chunk the page preloads; Spanish: the bundled first screens'.
  const element = await lit.collect(
    english
      ? lit.render(lit.html`<pay-checkout link=${options.hash} locale="en" .linkData=${link} .messages=${lit.en}>${lit.unsafeHTML(data)}</pay-checkout>`)
      : lit.render(lit.html`<pay-checkout link=${options.hash} locale="es" .linkData=${link}>${lit.unsafeHTML(data)}</pay-checkout>`),
  );
  const styles = new Set([...element.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''));
  const hashes = await Promise.all([...styles].map(async (css) => `'sha256-${await sha256Base64(css)}'`));
  const store = escapeText(link.store_name);
  return withLocale(html, options.locale ?? 'es')
    .replace(mainElement, () => `<main id="checkout">${element}</main>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${store} · ${english ? 'Payment' : 'Pago'}</title>`)
    .replace(/(<h1 class="sr-only" id="page-title">)[^<]*(<\/h1>)/, (_m, open: string, close: string) => `${open}${english ? 'Payment to' : 'Pago a'} ${store}${close}`)
    .replace(cspMeta, (_m, open: string, policy: string, close: string) => `${open}${allowStyles(policy, hashes)}${close}`);
}

/** The page's language, and the English catalog's chunk preloaded (the build leaves it inert in a template) or dropped. */
function withLocale(html: string, locale: 'es' | 'en'): string {
  return html
    .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
    .replace(preloadTemplate, (_m, lang: string, links: string) => (lang === locale ? links : ''));
}

/**
 * What a `Link` header or a 103 Early Hints response names for this page in `locale`: the entry script and every
 * module the first interactive screen needs, as the page's `<head>` does, so a browser can fetch them before the HTML.
 */
export function hostedPageLinks(html: string, locale: 'es' | 'en' = 'es'): string[] {
  const head = withLocale(html, locale).split('</head>')[0] ?? '';
  const modules = [...head.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  return modules.filter(Boolean).map((href) => `<${href}>; rel=modulepreload`);
}

/** The declarative shadow roots' `<style>` elements, allowed by hash and nothing more (no 'unsafe-inline'). */
function allowStyles(policy: string, hashes: readonly string[]): string {
  if (hashes.length === 0) return policy;
  const directives = policy.split(';').map((d) => d.trim()).filter(Boolean).map((d) => d.split(/\s+/));
  let style = directives.find(([name]) => name === 'style-src');
  if (!style) directives.push((style = ['style-src', ...(directives.find(([name]) => name === 'default-src')?.slice(1) ?? [])]));
  style.push(...hashes.filter((hash) => !style.includes(hash)));
  return directives.map((d) => d.join(' ')).join('; ');
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
