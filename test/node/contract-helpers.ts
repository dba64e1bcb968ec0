import assert from 'node:assert/strict';
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
