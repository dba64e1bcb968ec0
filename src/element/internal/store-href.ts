/** An http(s) address to go back to the store, or null: never a `javascript:` URL from a page or a service. */
export function storeHref(raw: string | null | undefined, base: string): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
