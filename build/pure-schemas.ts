/**
 * `pureSchemas()`: a build plugin that marks every zod call in a module-level declaration of `src/contract/`
 * `/* @__PURE__ *\/`. Zod flags its own constructors side-effect free, but rolldown does not carry that into
 * calls nested in arguments (`z.object({ a: z.optional(z.string()) })`) nor through `.check()`, so it kept every
 * schema of a contract file the browser script touched, used or not. Schemas are values: building one has no
 * effect outside it, so a schema nobody reads can go. `z.config()` is the one zod call with an effect; it is left alone.
 */
import { RolldownMagicString } from 'rolldown';
import { parseSync, Visitor, type Plugin } from 'vite';

interface Node {
  type: string;
  start: number;
  end: number;
  name?: string;
  object?: Node;
  callee?: Node;
}
interface CallNode extends Node {
  callee: Node;
}

/** The identifier a callee chain starts from: `z` for `z.object`, `z.iso.datetime`, `z.string().check`. */
function rootName(node: Node | undefined): string | undefined {
  let current = node;
  while (current) {
    if (current.type === 'Identifier') return current.name;
    current = current.type === 'MemberExpression' ? current.object : current.type === 'CallExpression' ? current.callee : undefined;
  }
  return undefined;
}

/** The source with its module-level zod calls marked pure, or null when there is nothing to mark. */
export function markPureSchemas(code: string, id: string): RolldownMagicString | null {
  if (!code.includes('z.')) return null;
  const { program } = parseSync(id, code);
  const declarations = (program.body as (Node & { declaration?: Node })[])
    .map((statement) => (statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement))
    .filter((statement): statement is Node => statement?.type === 'VariableDeclaration');
  const functions: Node[] = [];
  const calls: CallNode[] = [];
  new Visitor({
    ArrowFunctionExpression: (node: Node) => void functions.push(node),
    FunctionExpression: (node: Node) => void functions.push(node),
    CallExpression: (node: CallNode) => void calls.push(node),
  } as ConstructorParameters<typeof Visitor>[0]).visit(program);
  const within = (node: Node, outer: Node) => node.start >= outer.start && node.end <= outer.end;
  const s = new RolldownMagicString(code);
  // `z.string().check(…)`: two calls start at one place; one mark there covers the outer one (zod marks the inner).
  const marked = new Set<number>();
  for (const call of calls) {
    // Only what a module-level declaration builds; a call inside a callback (a transform, a refine) runs later.
    if (!declarations.some((d) => within(call, d)) || functions.some((f) => within(call, f))) continue;
    if (rootName(call.callee) !== 'z' || code.slice(call.callee.start, call.callee.end) === 'z.config') continue;
    if (marked.has(call.start) || /\/\*\s*[#@]__PURE__\s*\*\/\s*$/.test(code.slice(Math.max(0, call.start - 20), call.start))) continue;
    s.appendLeft(call.start, '/* @__PURE__ */ ');
    marked.add(call.start);
  }
  return marked.size > 0 ? s : null;
}

export function pureSchemas(): Plugin {
  return {
    name: 'pay-checkout-pure-schemas',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]src[\\/]contract[\\/].*\.ts(\?[\w-]+)?$/ },
      handler(code, id) {
        const result = markPureSchemas(code, id);
        return result ? { code: result } : null;
      },
    },
  };
}
