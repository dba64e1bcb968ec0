/**
 * Requests that came through a proxy `serve` does not trust: they carry `X-Forwarded-For` while
 * `PAY_CHECKOUT_TRUST_PROXY` is 0. Every buyer then counts as the proxy's one address, for the limits and for the 32
 * connections one address may hold. The running server says so once (`proxy_not_trusted`), and marks its health
 * answers to such requests, so `serve --check` asking through the public URL can say so too.
 */
import type { EventSink } from '../events.js';
import type { Incoming } from '../http/incoming.js';

/** On a health answer to a request that came through an untrusted proxy: `untrusted`. */
export const forwardedMark = 'pay-checkout-forwarded';

/** What to do about it, said once by the running server and by `--check`. */
export const trustProxyAdvice =
  'requests arrive through a proxy (with X-Forwarded-For) and PAY_CHECKOUT_TRUST_PROXY is 0: every buyer counts as the proxy\'s address, for the limits and for the 32 connections one address may hold; set PAY_CHECKOUT_TRUST_PROXY to the number of proxies in front';

/** Whether `incoming` came through a proxy not trusted; the first one is told as an event. */
export function untrustedProxy(trustProxy: number, emit: EventSink): (incoming: Incoming) => boolean {
  let told = false;
  return (incoming) => {
    if (trustProxy > 0 || incoming.headers.get('x-forwarded-for') === null) return false;
    if (!told) {
      told = true;
      emit({ level: 'warn', name: 'proxy_not_trusted', message: trustProxyAdvice });
    }
    return true;
  };
}
