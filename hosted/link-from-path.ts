/**
 * The link hash of a hosted-page URL: the last non-empty segment of the path, so `{checkout_url}/HASH` works
 * under any prefix with one "everything → index.html" rewrite. Undefined when the path names no link.
 */
export function linkFromPath(pathname: string): string | undefined {
  const last = pathname.split('/').filter(Boolean).at(-1);
  if (!last || last === 'index.html') return undefined;
  try {
    const hash = decodeURIComponent(last);
    // Hashes are URL-safe tokens; anything else is a mistyped or tampered URL, shown as "not found" by the API.
    return hash.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The buyer API base: the page's `<meta name="pay-api-base">`, else this origin's `/v1`. */
export function apiBaseFrom(metaContent: string | null | undefined, origin: string): string {
  const configured = metaContent?.trim();
  return configured ? new URL(configured, `${origin}/`).href.replace(/\/$/, '') : `${origin}/v1`;
}

/** `?locale=en` picks the English catalog; anything else keeps the page's Spanish. */
export function localeFrom(search: string): 'es' | 'en' {
  return new URLSearchParams(search).get('locale') === 'en' ? 'en' : 'es';
}
