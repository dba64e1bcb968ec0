/**
 * What the sandbox, a developer tool on a developer's machine, refuses from a browser: its control API and pages
 * under a `Host` it does not serve (DNS rebinding), writes from a foreign origin or of a non-JSON body (cross-site
 * requests), a webhook forward to any other loopback service, a card page return to a foreign origin. The buyer API
 * (`/v1`) answers any origin and any host. The rules are here, configured in one place (a Service Worker, a proxy);
 * guard-middleware.ts applies them to each request.
 */
import { isLoopbackHost } from '../contract/redirect-url.js';

export interface SandboxGuardOptions {
  /**
   * Host names (no port) the control API and pages answer besides loopback names, the bound address and the public
   * URL's host: a LAN name, a tunnel. `'any'` turns the Host check off.
   */
  allowedHosts?: readonly string[] | 'any';
  /**
   * Origins of the developer's own pages besides loopback ones and the sandbox's own: they may call the control API,
   * and the card page returns to them. `'any'` turns the Origin checks off.
   */
  allowedOrigins?: readonly string[] | 'any';
  /**
   * Webhook forward targets `POST /sandbox/forward` accepts besides the sandbox's own origin (exact origin and path).
   * Unset: the first target registered is the only one until the sandbox restarts. `'loopback'`: any loopback URL.
   */
  allowedForwards?: readonly string[] | 'loopback';
}

const hostnameOf = (host: string): string | null => {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
};
const originOfUrl = (url: string): string | null => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};
const isWildcard = (host: string) => host === '0.0.0.0' || host === '[::]' || host === '::';
const isIpLiteral = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');

export class SandboxGuard {
  readonly #options: SandboxGuardOptions;
  /** Host names this sandbox is served at: the bound address, the public URL's host, Vite's URLs. */
  readonly #served = new Set<string>();
  #anyIp = false;
  /** The first forward target registered, when none is configured. */
  #firstForward: string | undefined;

  constructor(options: SandboxGuardOptions = {}) {
    this.#options = options;
  }

  /** The sandbox is reached at this URL or bound to this address (a wildcard bind: any IP address literal). */
  serve(urlOrHost: string): void {
    const host = hostnameOf(urlOrHost.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? '');
    if (!host) return;
    if (isWildcard(host)) this.#anyIp = true;
    else this.#served.add(host);
  }

  /** A `Host` header the control API and pages answer: a loopback name, a served host, a configured one. */
  hostAllowed(hostHeader: string | undefined): boolean {
    const allowed = this.#options.allowedHosts;
    if (allowed === 'any') return true;
    const host = hostHeader ? hostnameOf(hostHeader) : null;
    if (!host) return false;
    // An IP address cannot be rebound to another machine by DNS; a wildcard bind serves them all.
    return isLoopbackHost(host) || this.#served.has(host) || (this.#anyIp && isIpLiteral(host)) || (allowed?.includes(host) ?? false);
  }

  /** An origin of the developer's own: loopback, this sandbox's, or configured (`ownOrigin`: the request's own). */
  originAllowed(origin: string, ownOrigin?: string): boolean {
    const allowed = this.#options.allowedOrigins;
    if (allowed === 'any') return true;
    const normal = originOfUrl(origin);
    if (!normal) return false;
    if (normal === ownOrigin || allowed?.some((o) => originOfUrl(o) === normal)) return true;
    const host = new URL(normal).hostname;
    return isLoopbackHost(host) || this.#served.has(host.toLowerCase());
  }

  /** Why `url` may not be a forward target, or null; the first one registered fixes it when none is configured. */
  forwardRefusal(url: string, ownOrigins: readonly (string | undefined)[]): string | null {
    const target = new URL(url);
    if (!isLoopbackHost(target.hostname)) return 'must be a loopback address (127.0.0.1, ::1 or localhost)';
    // The sandbox's own routes (its receiver, a path that answers 404) are not another service.
    if (ownOrigins.some((own) => own !== undefined && originOfUrl(own) === target.origin)) return null;
    const allowed = this.#options.allowedForwards;
    if (allowed === 'loopback') return null;
    const named = (list: readonly string[]) => list.some((u) => sameTarget(u, target));
    if (allowed) return named(allowed) ? null : `is not a forward target this sandbox was started with (${allowed.join(', ')}); add it with --allow-forward`;
    this.#firstForward ??= `${target.origin}${target.pathname}`;
    return sameTarget(this.#firstForward, target) ? null : `must be ${this.#firstForward}, the receiver named first; restart the sandbox with --allow-forward to name others`;
  }

  /** Whether every origin is let in (`allowedOrigins: 'any'`): a cross-site request too. */
  get anyOrigin(): boolean {
    return this.#options.allowedOrigins === 'any';
  }
}

function sameTarget(named: string, target: URL): boolean {
  try {
    const url = new URL(named);
    return url.origin === target.origin && url.pathname === target.pathname;
  } catch {
    return false;
  }
}
