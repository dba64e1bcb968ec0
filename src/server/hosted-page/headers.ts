/**
 * The response headers a payment page should carry, for the hosted page wherever it is served: the sandbox, a
 * merchant's server through `renderHostedPage`, `pay-checkout serve`, and a static host (`writeHostedPage`'s
 * `_headers`). The page's own CSP is a `<meta>`, which cannot say who may frame it (`frame-ancestors` is ignored
 * there), so the header carries the same policy plus `frame-ancestors`: a site that frames the checkout under a fake
 * overlay could have the buyer approve a push payment for it.
 */

export interface HostedPageHeaderOptions {
  /**
   * Origins allowed to frame the page (`frame-ancestors`), for a merchant who shows the hosted page in an iframe of
   * their own site: `['https://shop.example']`, or `["'self'"]`. Default none: no site may frame it.
   */
  frameAncestors?: readonly string[];
  /** The page is served over https: `Strict-Transport-Security` is added. */
  https?: boolean;
}

/** One year: the usual HSTS age; no `includeSubDomains`, which would bind every host of the merchant's domain. */
export const hstsValue = 'max-age=31536000';

/**
 * What a checkout never uses, turned off for the page and any frame in it. Not `clipboard-write`: the Bre-B screen's
 * copy button writes the key. Only names every engine knows: an unknown one is a console error in Chromium.
 */
const hostedPagePermissions = ['accelerometer', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'hid', 'magnetometer', 'microphone', 'midi', 'payment', 'serial', 'usb'];

const cspMeta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/;

/**
 * The headers for `html` (the hosted page as it is sent): its CSP meta's policy as a header with `frame-ancestors`,
 * `X-Frame-Options` to match for engines without `frame-ancestors`, `nosniff`, a referrer policy that keeps the link's
 * hash on this origin, the Permissions-Policy and, over https, HSTS. Throws on an origin `frameAncestors` cannot take.
 */
export function hostedPageHeaders(html: string, options: HostedPageHeaderOptions = {}): Record<string, string> {
  const ancestors = frameAncestorsOf(options.frameAncestors);
  const policy = (cspMeta.exec(html)?.[1] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  const directives = policy.split(';').map((d) => d.trim()).filter((d) => d && !/^frame-ancestors\b/.test(d));
  const frameOptions = ancestors === "'none'" ? 'DENY' : ancestors === "'self'" ? 'SAMEORIGIN' : undefined;
  return {
    'Content-Security-Policy': [...directives, `frame-ancestors ${ancestors}`].join('; '),
    // X-Frame-Options names no origin of another site (ALLOW-FROM is gone from every engine): with such origins it is
    // left out, and frame-ancestors, which every current engine honours first, decides alone.
    ...(frameOptions ? { 'X-Frame-Options': frameOptions } : {}),
    'X-Content-Type-Options': 'nosniff',
    // same-origin, not no-referrer: the page's own POSTs to this origin's /v1 then carry their Origin (no-referrer
    // sends `Origin: null`, which an origin check refuses); nothing of the URL, whose path is the link's hash, goes
    // to another origin (the card page, the gateways' icon host).
    'Referrer-Policy': 'same-origin',
    'Permissions-Policy': hostedPagePermissions.map((feature) => `${feature}=()`).join(', '),
    ...(options.https ? { 'Strict-Transport-Security': hstsValue } : {}),
  };
}

/** `frame-ancestors`' sources: `'none'` by default; each origin checked, so no value can add a directive. */
function frameAncestorsOf(origins: readonly string[] | undefined): string {
  if (!origins || origins.length === 0) return "'none'";
  return origins
    .map((origin) => {
      if (origin === "'self'" || origin === 'self') return "'self'";
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin.replace(/\/+$/, '')) {
        throw new Error(`frameAncestors: each entry must be an origin such as https://shop.example, or 'self'; not ${JSON.stringify(origin)}.`);
      }
      return url.origin;
    })
    .join(' ');
}
