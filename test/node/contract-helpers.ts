import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type * as z from 'zod/mini';
import { parseWith } from '../../src/contract/index.js';

/** Asserts the schema accepts `input` and returns the parsed value. */
export function accepts<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = parseWith(schema, input);
  if (!result.ok) assert.fail(`expected the input to pass, got: ${JSON.stringify(result.problems)}`);
  return result.value;
}

/** Asserts the schema refuses `input` and that one of the problems names `field`. */
export function refuses(schema: z.ZodMiniType, input: unknown, field: string): void {
  const result = parseWith(schema, input);
  assert.equal(result.ok, false, `expected the input to fail on ${field}`);
  if (result.ok) return;
  const fields = result.problems.map((p) => p.field);
  assert.ok(fields.includes(field), `expected a problem on "${field}", got ${JSON.stringify(result.problems)}`);
  for (const p of result.problems) assert.ok(p.message.length > 0, `problem on ${p.field} has no message`);
}

/** A copy of `base` with `changes` applied; `undefined` removes the key. Dotted keys reach into objects. */
export function changed<T extends object>(base: T, changes: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const last = keys.pop() as string;
    let target = copy;
    for (const key of keys) target = target[key] as Record<string, unknown>;
    if (value === undefined) delete target[last];
    else target[last] = value;
  }
  return copy;
}

/** The `order_payment` payload of the contract's Resources table, as the tests' shared example. */
export const exampleOrderPayment = {
  event: 'order_payment',
  timestamp: '2025-06-01T12:00:00Z',
  id_order: 123,
  id_external: 'order-12345',
  status: 'confirmed',
  total_price: 50000,
  currency: 'COP',
  payment_method: { gateway: 'nequi', status: 'processed' },
  totalItems: 1,
  shopper: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com' },
  external_store_id: 'demo-store',
};

export const demoSigningSecret = 'whsec_test_demo';
/** The reference signature: Node's own HMAC, independent of the code under test. */
export const referenceHmac = (text: string, key = demoSigningSecret) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
