/**
 * `liteLinkCheck()`: a build plugin for the two browser builds. The element's link request imports the link reader
 * (client/checkout-link.ts, zod); here that import becomes a generated module that runs client/link-reader-lite.ts
 * over compact shapes made from the very zod schemas (`liteShape`), so the chunk fetched beside the first script
 * carries no zod. The later steps still validate with zod, in their own chunk.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type * as z from 'zod/mini';
import { CheckoutLinkSchema } from '../src/contract/checkout-link.js';
import { ErrorResponseSchema } from '../src/contract/errors.js';
import type { LiteShape } from '../src/client/link-reader-lite.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  entries?: Record<string, unknown>;
  values?: unknown[];
  format?: string;
  checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp; value?: number; inclusive?: boolean } } }[];
}

/** A zod/mini schema as a `LiteShape`; throws on anything the lite reader cannot check the way zod does. */
export function liteShape(schema: z.ZodMiniType): LiteShape {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  const unsupported = () => new Error(`liteShape: ${def.type} with ${JSON.stringify(checks)} is not supported`);
  switch (def.type) {
    case 'string': {
      if (checks.length === 0) return 's';
      const [only] = checks;
      if (checks.length === 1 && only?.format === 'regex' && only.pattern) return ['s', only.pattern.source];
      throw unsupported();
    }
    case 'number': {
      const kind = def.format === 'safeint' ? 'i' : def.format === undefined ? 'n' : undefined;
      if (!kind) throw unsupported();
      if (checks.length === 0) return kind;
      const [only] = checks;
      if (kind === 'i' && checks.length === 1 && only?.check === 'greater_than' && only.inclusive && only.value !== undefined) return ['i', only.value];
      throw unsupported();
    }
    case 'boolean':
      return 'b';
    case 'unknown':
      return 'u';
    case 'enum':
      return ['e', Object.values(def.entries ?? {})];
    case 'literal':
      return ['e', def.values ?? []];
    case 'optional':
      return ['?', liteShape(def.innerType as z.ZodMiniType)];
    case 'nullable':
      return ['0', liteShape(def.innerType as z.ZodMiniType)];
    case 'array':
      return ['a', liteShape(def.element as z.ZodMiniType)];
    case 'object':
      return ['o', Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, inner]) => [key, liteShape(inner)]))];
    default:
      throw unsupported();
  }
}

const reader = fileURLToPath(new URL('../src/client/link-reader-lite.ts', import.meta.url));
const generated = '\0pay-checkout-lite-link-reader';

export function liteLinkCheck(): Plugin {
  return {
    name: 'pay-checkout-lite-link-check',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source.endsWith('/client/checkout-link.js') && importer?.endsWith('/src/element/internal/link-request.ts')) return generated;
      return null;
    },
    load(id) {
      if (id !== generated) return null;
      const shapes = [liteShape(CheckoutLinkSchema), liteShape(ErrorResponseSchema)].map((shape) => JSON.stringify(shape)).join(', ');
      return `import { linkReader } from ${JSON.stringify(reader)};\nexport const { readLinkAnswer, pageLink } = linkReader(${shapes});\n`;
    },
  };
}
