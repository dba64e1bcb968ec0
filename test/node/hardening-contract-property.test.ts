// No input crashes a schema parse: every schema the contract exports meets arbitrary values and JSON-ish
// objects built from its own field names; safeParse and parseWith always answer, never throw.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import * as contract from '../../src/contract/index.js';
import { parseWith } from '../../src/contract/index.js';
import { fieldNames, jsonish } from './hardening-arbitraries.js';

const seed = 20_260_302;
const numRuns = 200;

const isSchema = (value: unknown): value is z.ZodMiniType =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { safeParse?: unknown }).safeParse === 'function';

/** Every schema exported by src/contract/index.ts, found by shape so a new one is tested without listing it. */
const schemas = Object.entries(contract as Record<string, unknown>).filter((entry): entry is [string, z.ZodMiniType] => isSchema(entry[1]));

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** The property: both entry points answer; they agree; a refusal names its fields in the service's shape. */
function parsesWithoutThrowing(schema: z.ZodMiniType, input: unknown): void {
  const result = schema.safeParse(input);
  assert.equal(typeof result.success, 'boolean');
  const parsed = parseWith(schema, input);
  assert.equal(parsed.ok, result.success);
  if (!parsed.ok) {
    assert.ok(parsed.problems.length > 0, 'a refusal says why');
    for (const problem of parsed.problems) {
      assert.equal(typeof problem.field, 'string');
      assert.equal(typeof problem.message, 'string');
      assert.ok(problem.message.length > 0);
    }
  }
}

describe('no input crashes a schema parse', () => {
  test('the contract exports schemas to test', () => {
    assert.ok(schemas.length >= 50, `found ${schemas.length}`);
    for (const name of ['ErrorResponseSchema', 'CreateOrderBodySchema', 'CheckoutOrderBodySchema', 'OrderPaymentPayloadSchema', 'SandboxFaultBodySchema']) {
      assert.ok(schemas.some(([n]) => n === name), name);
    }
  });

  for (const [name, schema] of schemas) {
    const fields = [...fieldNames(schema)];
    test(`${name}: arbitrary values and objects keyed by ${fields.length} field names`, () => {
      fc.assert(fc.property(anything, (input) => parsesWithoutThrowing(schema, input)), { seed, numRuns });
      fc.assert(fc.property(jsonish(fields), (input) => parsesWithoutThrowing(schema, input)), { seed, numRuns });
    });
  }
});
