/**
 * Who is asking, for the per-address limits: the socket's address (handed over by `toNodeListener`), or behind
 * `trustProxy` load balancers the `X-Forwarded-For` entry that many hops in, or the merchant's own
 * `clientAddress(request)` on serverless and edge runtimes. IPv6 counts per /64, what one customer usually holds.
 */

/** Socket addresses of requests made by `toNodeListener`; a WeakMap, so nothing outlives its request. */
const socketAddresses = new WeakMap<Request, string>();

export function rememberSocketAddress(request: Request, address: string | undefined): void {
  if (address) socketAddresses.set(request, address);
}

export const socketAddressOf = (request: Request): string | undefined => socketAddresses.get(request);

/** A request as the handler reads it (incoming.ts): its headers, its socket's address, and the web Request for callbacks. */
interface AddressSource {
  readonly headers: { get(name: string): string | null };
  readonly socketAddress: string | undefined;
  readonly request: Request;
}

export interface ClientAddressOptions {
  /** How many proxies in front of this server append to `X-Forwarded-For` (Fastify's `trustProxy` hop count); default 0. */
  trustProxy?: number;
  /** The buyer's address where the runtime knows it (e.g. `request.headers.get('cf-connecting-ip')` behind Cloudflare). */
  clientAddress?: (request: Request) => string | null | undefined;
}

/** The address to count a request under; undefined when nothing says (per-address limits are then skipped). */
export function clientAddressOf(source: Request | AddressSource, options: ClientAddressOptions): string | undefined {
  // `source.request` only when the merchant's callback needs it: on Node it is built on first use.
  if (options.clientAddress) return addressKey(options.clientAddress(source instanceof Request ? source : source.request) ?? undefined);
  const socket = source instanceof Request ? socketAddresses.get(source) : source.socketAddress;
  const hops = options.trustProxy ?? 0;
  if (hops <= 0) return addressKey(socket);
  const forwarded = (source.headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  // Read from the right: the last `hops` entries were written by our own proxies, the one before them is the client.
  const chain = socket ? [...forwarded, socket] : forwarded;
  return addressKey(chain[Math.max(0, chain.length - 1 - hops)]);
}

/** IPv4 as is (also when mapped into IPv6); IPv6 cut to its /64. */
export function addressKey(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const plain = address.replace(/^\[|\](:\d+)?$/g, '').replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1];
  if (!plain.includes(':')) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = plain.includes('::') && tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
