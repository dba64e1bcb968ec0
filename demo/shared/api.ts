/**
 * The demo's calls to the sandbox: the control API (`/sandbox/*`), plus the merchant and partner calls the
 * dashboard makes with the sandbox's published test keys. Every answer is parsed with the contract's schemas.
 */
import * as z from 'zod/mini';
import {
  CancelledOrderSchema,
  dataOf,
  DeliveryRecordSchema,
  ErrorResponseSchema,
  merchantKeyHeader,
  partnerKeyHeader,
  partnerSecretHeader,
  RefundResponseSchema,
  SandboxClockSchema,
  SandboxFixturesSchema,
  SandboxForwardSchema,
  SandboxOnboardedSchema,
  SandboxOrderListSchema,
  SandboxOrderSchema,
  StoreListSchema,
  type ErrorResponse,
  type SandboxOnboardingBody,
} from '../../src/contract/index.js';
import { demoMerchantKey, demoPartnerKeys } from './demo-keys.js';

/** A failed call: the service's ErrorResponse when it sent one, else what went wrong on the way. */
export class DemoApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly response: ErrorResponse | null = null,
  ) {
    super(message);
    this.name = 'DemoApiError';
  }
}

/** `4011 INVALID_ORDER_STATUS: The order is … (why)`: everything the ErrorResponse says, in one line. */
export function describeError(error: unknown): string {
  if (error instanceof DemoApiError && error.response) {
    const r = error.response;
    const head = [r.code, r.api_code].filter((part) => part !== undefined).join(' ');
    const fields = (r.validation_errors ?? []).map((v) => `${v.field} ${v.message}`).join('; ');
    return `${head}: ${r.message}${r.description ? ` (${r.description})` : ''}${fields ? ` [${fields}]` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function call<S extends z.ZodMiniType>(path: string, schema: S, init: RequestInit = {}): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new DemoApiError(`No se pudo conectar con el sandbox (${path}).`, 0);
  }
  const json: unknown = await response.json().catch(() => null);
  const failure = ErrorResponseSchema.safeParse(json);
  if (!response.ok || failure.success) {
    throw new DemoApiError(failure.success ? failure.data.message : `HTTP ${response.status} en ${path}`, response.status, failure.success ? failure.data : null);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new DemoApiError(`Respuesta inesperada de ${path}: ${z.prettifyError(parsed.error)}`, response.status);
  return parsed.data;
}

const postJson = (body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const orderPath = (id: number, action = '') => `/sandbox/orders/${encodeURIComponent(String(id))}${action}`;

/** The control API (never under /v1): drives the simulators and shows what the sandbox knows. */
export const sandbox = {
  fixtures: async () => (await call('/sandbox/fixtures', dataOf(SandboxFixturesSchema))).data,
  orders: async () => (await call('/sandbox/orders', dataOf(SandboxOrderListSchema))).data,
  order: async (id: number) => (await call(orderPath(id), dataOf(SandboxOrderSchema))).data,
  approve: async (id: number) => (await call(orderPath(id, '/approve'), dataOf(SandboxOrderSchema), postJson())).data,
  decline: async (id: number) => (await call(orderPath(id, '/decline'), dataOf(SandboxOrderSchema), postJson())).data,
  pay: async (id: number) => (await call(orderPath(id, '/pay'), dataOf(SandboxOrderSchema), postJson())).data,
  advanceClock: async (ms: number) => (await call('/sandbox/clock', dataOf(SandboxClockSchema), postJson({ advance_ms: ms }))).data,
  reset: async () => {
    await call('/sandbox/reset', z.unknown(), postJson());
  },
  deliveries: async () => (await call('/sandbox/deliveries', dataOf(z.array(DeliveryRecordSchema)))).data,
  forwardTargets: async () => (await call('/sandbox/forward', dataOf(SandboxForwardSchema))).data.urls,
  forward: async (url: string) => (await call('/sandbox/forward', dataOf(SandboxForwardSchema), postJson({ url }))).data.urls,
  stopForwarding: async (url: string) =>
    (await call('/sandbox/forward', dataOf(SandboxForwardSchema), { ...postJson({ url }), method: 'DELETE' })).data.urls,
  completeOnboarding: async (body: SandboxOnboardingBody) =>
    (await call('/sandbox/onboarding', dataOf(SandboxOnboardedSchema), postJson(body))).data,
};

/** The merchant API with the demo store's test key: fine in this sandbox dashboard, never in a real page. */
export const demoMerchant = {
  refund: async (id: number) =>
    (await call(`/v1/orders/refund/${id}`, RefundResponseSchema, postJson({}, { [merchantKeyHeader]: demoMerchantKey }))).result,
  cancel: async (id: number) =>
    (await call(`/v1/orders/cancel/${id}`, dataOf(CancelledOrderSchema), postJson(undefined, { [merchantKeyHeader]: demoMerchantKey }))).data,
};

/** The partner API with the demo partner's test pair. */
export const demoPartner = {
  stores: async () =>
    (
      await call('/v1/partners/stores', dataOf(StoreListSchema), {
        headers: { [partnerKeyHeader]: demoPartnerKeys.apiKey, [partnerSecretHeader]: demoPartnerKeys.apiSecret },
      })
    ).data,
};
