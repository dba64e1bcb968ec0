// Test helpers: a partner's webhook receiver written the way a partner would, with node:crypto only (no
// project code), that deduplicates as the contract says; and a man-in-the-middle proxy that alters deliveries.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** HMAC-SHA256 of the raw bytes, compared as hex text in constant time: only the exact form the service sends passes. */
export function signatureMatches(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const orderEvents = new Set(['order_payment', 'link_paid', 'order_cancelled', 'order_refunded']);
const storeEvents = new Set(['store_onboarded', 'store_updated', 'store_deleted', 'integration_installed', 'integration_uninstalled']);

/** The contract's dedupe key: `id_order` / `id_external` for order events, `id_store` for store events; per event name. */
export function dedupeKey(payload: Record<string, unknown>): string | null {
  const event = String(payload.event);
  if (orderEvents.has(event)) return `${event}:order:${String(payload.id_order ?? payload.id_external)}`;
  if (storeEvents.has(event)) return `${event}:store:${String(payload.id_store)}`;
  return null; // test.ping has no effect to repeat
}

export interface PartnerDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  signatureValid: boolean;
  payload: Record<string, unknown> | null;
  /** Its dedupe key was seen before: answered, but no effect applied. */
  duplicate: boolean;
}

/** How the receiver answers the Nth delivery (0-based), after it has verified and processed it. */
export type PartnerAnswer = number | 'hang';

export interface PartnerReceiver {
  url: string;
  deliveries: PartnerDelivery[];
  /** Dedupe keys in the order their effect was applied (e.g. "ship the goods"), once each. */
  effects: string[];
  /** Waits until some delivery matches, or fails after `timeoutMs`. */
  waitFor(match: (d: PartnerDelivery) => boolean, timeoutMs?: number): Promise<PartnerDelivery>;
  close(): Promise<void>;
}

export async function startPartnerReceiver(secret: string, answer: (index: number, d: PartnerDelivery) => PartnerAnswer = () => 200): Promise<PartnerReceiver> {
  const deliveries: PartnerDelivery[] = [];
  const effects: string[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signatureValid = signatureMatches(raw, req.headers['x-service-signature'], secret);
      let payload: Record<string, unknown> | null = null;
      let duplicate = false;
      if (signatureValid) {
        try {
          payload = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          payload = {}; // signed but not JSON: no key, no effect; the test sees payload without an event
        }
        const key = dedupeKey(payload);
        duplicate = key !== null && seen.has(key);
        if (key !== null && !duplicate) {
          seen.add(key);
          effects.push(key);
        }
      }
      const delivery: PartnerDelivery = { path: req.url ?? '', headers: req.headers, raw, signatureValid, payload, duplicate };
      const index = deliveries.push(delivery) - 1;
      // A forged or altered delivery is refused with a 4xx, which the sender never retries.
      const reply = signatureValid ? answer(index, delivery) : 401;
      if (reply === 'hang') return; // processed, but never answered: the sender times out and retries
      res.writeHead(reply, { 'content-type': 'application/json' });
      res.end(reply < 300 ? '{"received":true}' : '{"received":false}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    effects,
    async waitFor(match, timeoutMs = 3_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(match);
        if (found) return found;
        if (performance.now() > deadline) throw new Error(`no matching delivery within ${timeoutMs} ms; got ${deliveries.map((d) => `${d.path} ${String(d.headers['x-service-event'])}`).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface InFlight {
  headers: Record<string, string>;
  body: Buffer;
}

export interface TamperingProxy {
  url: string;
  close(): Promise<void>;
}

/** Sits between the sandbox and `target`: alters each request, passes the receiver's answer back unchanged. */
export async function startTamperingProxy(target: string, alter: (request: InFlight) => InFlight): Promise<TamperingProxy> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
      }
      const altered = alter({ headers, body: Buffer.concat(chunks) });
      const outgoing = http.request(target, { method: 'POST', headers: { ...altered.headers, 'content-length': String(altered.body.length) } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      outgoing.on('error', () => res.destroy());
      outgoing.end(altered.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/proxy`,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
