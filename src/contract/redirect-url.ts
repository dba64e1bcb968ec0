/**
 * Where the card hand-off (`next_action.url`, type `redirect`) may send the buyer: an absolute `https:` URL, or
 * `http:` on a loopback host (the sandbox on a developer's machine). Anything else (`javascript:`, `data:`, `http:` to
 * a real host, a relative path) would run in, or leave in the clear from, the merchant's page: never navigated to.
 */
export function isSafeRedirectUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return url.hostname !== '';
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** `localhost`, a `*.localhost` name, 127.0.0.0/8 or `[::1]`: names that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
