/**
 * The hosted page's own styles (hosted/page-styles.ts) as a `<style>` in its `<head>`, allowed by its hash in the page's
 * CSP meta (never 'unsafe-inline'): the first paint is laid out as it stays. Adopted by the script instead, they came
 * only when it ran, and the drawn page jumped then (the body moved up 21 px and grew to the viewport: a layout shift).
 * Used by the hosted build (vite.hosted.config.ts) and by `npm start` (vite-hosted.ts).
 */
import { createHash } from 'node:crypto';
import { pageCss } from '../hosted/page-styles.js';

const cspMeta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content="[^"]*style-src 'self')([^"]*")/;

/** `'sha256-…'` of the page's `<style>` text, as a CSP source. */
export const pageStyleHash = `'sha256-${createHash('sha256').update(pageCss).digest('base64')}'`;

/** hosted/index.html with the page's styles before its first script, and their hash in `style-src`. */
export function withPageStyle(html: string): string {
  if (!cspMeta.test(html) || !html.includes('<script type="module"')) throw new Error("hosted/index.html: no CSP meta with style-src 'self', or no module script");
  return html
    .replace(cspMeta, (_m, open: string, rest: string) => `${open} ${pageStyleHash}${rest}`)
    .replace(/( *)<script type="module"/, (line, indent: string) => `${indent}<style>${pageCss}</style>\n${line}`);
}
