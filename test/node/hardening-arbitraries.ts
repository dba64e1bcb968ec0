// fast-check arbitraries shared by the hardening property tests: awkward values and JSON-ish objects
// keyed by the contract's own field names, so random input reaches past the first check.
import fc from 'fast-check';

/** Values a JSON body can hold (or JSON.parse makes of a hostile one: `1e309` is Infinity), picked for trouble. */
export const awkwardScalar = fc.constantFrom<unknown>(0, -0, -1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, Number.MAX_SAFE_INTEGER + 2, 1.5, '', ' ', '0', '1e309', 'abc', '..', '\u0000', '😀', 'x'.repeat(10_000), true, false, null);

/** Field names anywhere inside a zod schema (object shapes, through optionals, arrays, unions, pipes, records). */
export function fieldNames(schema: unknown, seen = new Set<unknown>(), names = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return names;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return names;
  for (const [key, value] of Object.entries(def)) {
    if (key === 'shape' && value && typeof value === 'object') {
      for (const [field, inner] of Object.entries(value)) {
        names.add(field);
        fieldNames(inner, seen, names);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) fieldNames(item, seen, names);
    } else {
      fieldNames(value, seen, names);
    }
  }
  return names;
}

/** Objects, up to 4 levels deep, whose keys are mostly `fields`, with awkward and random JSON values. */
export function jsonish(fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const own = fc.constantFrom(...(fields.length ? fields : ['field']));
  // The schema's own names twice as often as strangers, so values land where the schema looks.
  const key = fc.oneof(own, own, fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'));
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'jsonish' },
      awkwardScalar,
      fc.jsonValue({ maxDepth: 1 }),
      fc.dictionary(key, tie('node'), { maxKeys: 5 }),
      fc.array(tie('node'), { maxLength: 3 }),
    ),
  }));
  return fc.dictionary(key, node, { minKeys: 1, maxKeys: 8 });
}
