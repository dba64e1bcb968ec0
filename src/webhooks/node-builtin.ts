/**
 * A Node built-in module where the runtime is Node, through `process.getBuiltinModule` (Node 20.16+): no import an
 * edge bundler would choke on. Undefined elsewhere, and on Next.js's and Vercel's edge runtime, which throws on any
 * Node API it meets, `process.getBuiltinModule` included; so call it when first needed, never at module load.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const runtime = globalThis as { EdgeRuntime?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof runtime.EdgeRuntime === 'string') return undefined;
  try {
    return runtime.process?.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}
