import * as z from 'zod/mini';

/**
 * A contract schema as zod compiles it (`z.compile`): the same checks run by a parser generated once for the schema,
 * where zod/mini walks the schema on every parse; an input the generated parser refuses is parsed again by the
 * original, so its problems are worded exactly as before. Compiled on first use (tens of milliseconds each), not at
 * import. For the server's hot paths; the browser keeps the plain schemas (nothing it loads imports this module).
 * Where code cannot be generated (`new Function` refused, as on some edge runtimes), `z.compile` hands back the
 * schema itself.
 */
export function compiledOnUse<S extends z.ZodMiniType>(schema: S): () => S {
  let compiled: S | undefined;
  return () => (compiled ??= z.compile(schema));
}
