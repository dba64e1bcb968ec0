// Test harness for the sandbox suites: a real sandbox on 127.0.0.1 and an ephemeral port, with a
// frozen, injectable clock, and small helpers that speak the API over real HTTP.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createClock, type SandboxClock } from '../../src/sandbox/clock.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import type { SandboxTimings } from '../../src/sandbox/context.js';
import type { SandboxDialect } from '../../src/sandbox/dialect.js';

export const merchant = { 'merchant-key': 'mk_test_demo' } as const;
export const partner = { 'X-API-Key': 'pk_test_demo', 'X-API-Secret': 'sk_test_demo' } as const;
export const otherPartner = { 'X-API-Key': 'pk_test_other', 'X-API-Secret': 'sk_test_other' } as const;
export const startOfTime = Date.parse('2026-03-02T15:00:00.000Z');
export const gateways = { push: 1, otp: 2, transfer: 9, card: 4 } as const;

/** Parsed JSON of a reply: tests read into it freely, and the contract schemas check the shapes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Reply {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface TestSandbox {
  running: RunningSandbox;
  origin: string;
  clock: SandboxClock;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  raw(path: string, init: RequestInit): Promise<Reply>;
  reset(): Promise<void>;
  /** Moves the sandbox clock through the control API, as a partner would. */
  advance(ms: number): Promise<void>;
  orderCount(): number;
  close(): Promise<void>;
}

/** `defaultReceiver` is off unless asked for: the suites count deliveries exactly, to receivers of their own. */
export async function startTestSandbox(timings: SandboxTimings = {}, { defaultReceiver = false, orderKeyDedupe = true, dialect = 'contract' as SandboxDialect } = {}): Promise<TestSandbox> {
  const clock = createClock(startOfTime);
  // The suites forward to receivers of their own on many ports; sandbox-guard.test.ts checks the default (the first one).
  const running = await startSandbox({ port: 0, clock, defaultReceiver, orderKeyDedupe, dialect, guard: { allowedForwards: 'loopback' }, timings: { webhookTimeoutMs: 500, webhookRetryDelayMs: 20, ...timings } });
  const origin = running.url;
  const raw = async (path: string, init: RequestInit): Promise<Reply> => {
    const response = await fetch(`${origin}${path}`, { redirect: 'manual', ...init });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: response.status, headers: response.headers, body, text };
  };
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    raw(path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    running,
    origin,
    clock,
    api,
    raw,
    async reset() {
      const r = await api('POST', '/sandbox/reset');
      assert.equal(r.status, 200);
    },
    async advance(ms: number) {
      const r = await api('POST', '/sandbox/clock', { advance_ms: ms });
      assert.equal(r.status, 200, r.text);
    },
    orderCount: () => running.sandbox.state.orders.size,
    close: () => running.close(),
  };
}

/** Asserts the contract's ErrorResponse with this api_code and HTTP status. */
export function assertError(reply: Reply, status: number, apiCode: string, code?: number): void {
  assert.equal(reply.status, status, `expected ${status} ${apiCode}, got ${reply.status}: ${reply.text}`);
  assert.equal(reply.body?.error, true, reply.text);
  assert.equal(reply.body?.api_code, apiCode, reply.text);
  assert.equal(typeof reply.body?.message, 'string');
  assert.equal(Number.isInteger(reply.body?.code), true);
  if (code !== undefined) assert.equal(reply.body.code, code);
}

export function assertFieldError(reply: Reply, field: string): void {
  const fields = (reply.body?.validation_errors ?? []).map((e: { field: string }) => e.field);
  assert.ok(fields.includes(field), `expected a validation error on ${field}, got ${JSON.stringify(reply.body)}`);
}

export const shopper = (extra: Record<string, unknown> = {}) => ({
  first_name: 'Ana',
  last_name: 'Pérez',
  email: 'ana@example.com',
  phone_number: '+573001234567',
  country: 'CO',
  id_number: '12345678',
  id_type: 1,
  ...extra,
});

let orderKeyCounter = 0;
/** Each call has its own `order_key`: the sandbox deduplicates order_key per store, and each call means a new order. */
export const directOrderBody = (gateway: number, extra: Record<string, unknown> = {}) => ({
  amount: 20_000,
  description: 'Pedido de prueba',
  currency: 'COP',
  order_key: `order-${++orderKeyCounter}`,
  payment_gateway: { id_payment_gateway: gateway },
  shopper: shopper(),
  ...extra,
});

let keyCounter = 0;
/** A buyer order through the buyer API; returns the reply. */
export function checkoutOrder(
  sb: TestSandbox,
  hash: string,
  gateway: number,
  { amount, phone = '3001234567', key = `key-${++keyCounter}`, extra = {} }: { amount?: number; phone?: string; key?: string; extra?: Record<string, unknown> } = {},
) {
  return sb.api(
    'POST',
    `/v1/checkout/links/${hash}/orders`,
    { ...(amount === undefined ? {} : { amount }), payment_gateway: { id_payment_gateway: gateway }, shopper: { id_number: '12345678', id_type: 1, phone_number: phone }, ...extra },
    { 'Idempotency-Key': key },
  );
}

/** A Vite dev server on an ephemeral port with the sandbox plugin, as `npm start` runs it. */
export async function startViteWithSandbox() {
  const { createServer } = await import('vite');
  const { paySandbox } = await import('../../src/sandbox/vite-plugin.js');
  const server = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('../../demo/', import.meta.url)),
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [paySandbox()],
  });
  await server.listen();
  return { server, origin: new URL(server.resolvedUrls?.local[0] ?? '').origin };
}
