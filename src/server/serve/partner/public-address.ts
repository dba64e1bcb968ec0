/**
 * A shop's notify URL is not a way into the partner's network: anyone may register one. It must be https on a public
 * address: no loopback, private, carrier-grade NAT, link-local (the cloud metadata address among them), multicast or
 * reserved one, IPv4 or IPv6 (mapped and NAT64 forms checked as the IPv4 inside). Checked at registration, and again
 * at each delivery inside the connection's own DNS lookup, so the address checked is the address connected to (a DNS
 * answer that changes in between cannot slip through). A redirect is never followed. `allowLocal` (only for
 * development and tests) allows http and any address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
// IPv4-compatible (::/96), IPv4-translated (::ffff:0:0/96), local NAT64 (64:ff9b:1::/48), 6to4 (2002::/16) and Teredo
// (2001::/32) carry an IPv4 address a relay or tunnel may reach: none is a shop's endpoint. A list of its own, since a
// BlockList checks an IPv4 address against its IPv6 rules too.
const blockedV6 = new BlockList();
for (const [net, prefix] of [['::', 96], ['::ffff:0:0', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64]] as const) blockedV6.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether the address is one a stranger's URL may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blocked.check(address, 'ipv4');
  const inner = embeddedIpv4(address);
  if (inner) return isPublicAddress(inner);
  return !blockedV6.check(address, 'ipv6') && !/^::ffff:0:/i.test(address);
}

export interface AddressPolicy {
  allowLocal: boolean;
  /** DNS, for tests; default node:dns lookup (what the connection itself uses). */
  lookup?: typeof dnsLookup;
}

/** Why the URL may not be a notify URL, in a few words; undefined when it may. */
export async function notifyUrlRefusal(value: string, policy: AddressPolicy): Promise<string | undefined> {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return 'must be an absolute https URL';
  if (url.protocol !== 'https:' && !policy.allowLocal) return 'must use https';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  if (policy.allowLocal) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await new Promise<LookupAddress[]>((resolve, reject) => (policy.lookup ?? dnsLookup)(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
  } catch {
    return 'has a host name that does not resolve';
  }
  if (addresses.length === 0) return 'has a host name that does not resolve';
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  return inner ? 'must be on a public address (not loopback, private, link-local or metadata)' : undefined;
}

/** A lookup that fails the connection when the host resolves to an address a stranger's URL may not reach. */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    (policy.lookup ?? dnsLookup)(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const refused = list.find((a) => !isPublicAddress(a.address));
      if (refused || list.length === 0) {
        const failure = Object.assign(new Error(`notify URL host ${hostname} resolves to an address that is not public`), { code: 'ADDRESS_NOT_PUBLIC' });
        return callback(failure, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

export interface PostResult {
  status?: number;
  error?: string;
}

/**
 * POSTs `body` to `url` and reports the status (a 3xx is a status like any other: never followed). Over https, or
 * http only where local shops are allowed; the address is checked at connection time unless they are.
 */
export function postChecked(url: string, headers: Record<string, string>, body: string, policy: AddressPolicy & { timeoutMs: number; signal?: AbortSignal }): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: 'the notify URL is malformed' });
    }
    if (target.protocol !== 'https:' && !(policy.allowLocal && target.protocol === 'http:')) return resolve({ error: 'the notify URL is not https' });
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!policy.allowLocal && isIP(host) && !isPublicAddress(host)) return resolve({ error: 'ADDRESS_NOT_PUBLIC' });
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let done = false;
    const finish = (result: PostResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(policy.allowLocal ? {} : { lookup: checkedLookup(policy) }),
        ...(policy.signal ? { signal: policy.signal } : {}),
      },
      (response: IncomingMessage) => {
        response.resume();
        response.on('end', () => finish({ status: response.statusCode ?? 0 }));
        response.on('error', () => finish({ status: response.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ error: 'no answer within the timeout' });
    }, policy.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
    request.end(body);
  });
}
