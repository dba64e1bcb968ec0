/**
 * `entryByGlobal()`: a build plugin for the hosted page. The entry hands what the lazy chunks import from it through
 * one global instead of an ES export, so a server may put the entry in the page itself (renderHostedPage's
 * `entryScript`): an inline module has no URL, and a chunk importing `./main-*.js` would fetch and run a second copy of
 * Lit and the element. Loaded by URL (static hosting), the entry sets the same global, so both pages run one build.
 * A chunk reads the entry's bindings once, when it runs (after the entry); the build fails if any of those bindings
 * is ever assigned again, since a chunk would keep its first value.
 */
import { analyze } from 'eslint-scope';
import { KEYS } from 'eslint-visitor-keys';
import { parse } from 'espree';
import type { Plugin, Rolldown } from 'vite';

/** The global the hosted entry's bindings ride on (a registered symbol: no page name can collide with it). */
export const hostedEntryGlobal = 'globalThis[Symbol.for("pay-checkout.hosted-entry")]';

const exportStatement = /export\s*\{([^}]*)\};?\s*$/;

export function entryByGlobal(): Plugin {
  return {
    name: 'pay-checkout-hosted-entry-by-global',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('entryByGlobal: no entry chunk');
      const exported = exportStatement.exec(entry.code);
      const pairs = (exported?.[1] ?? '')
        .split(',')
        .map((spec) => spec.trim())
        .filter(Boolean)
        .map((spec) => {
          const [local = '', name = local] = spec.split(/\s+as\s+/);
          return { local, name };
        });
      assertNeverReassigned(entry.code, pairs.map((p) => p.local));
      entry.code = exported
        ? entry.code.slice(0, exported.index) + `${hostedEntryGlobal}={${pairs.map((p) => `${p.name}:${p.local}`).join(',')}};`
        : entry.code;
      const entryFile = entry.fileName.split('/').pop() ?? '';
      const fromEntry = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']\\./${entryFile.replace(/[.$]/g, '\\$&')}["'];?`, 'g');
      for (const chunk of chunks) {
        if (chunk === entry) continue;
        chunk.code = chunk.code.replace(fromEntry, (_m: string, specs: string) => {
          const names = specs
            .split(',')
            .map((spec) => spec.trim())
            .filter(Boolean)
            .map((spec) => spec.split(/\s+as\s+/).join(':'));
          return `const{${names.join(',')}}=${hostedEntryGlobal};`;
        });
        if (chunk.code.includes(entryFile)) throw new Error(`entryByGlobal: ${chunk.fileName} still names ${entryFile} in a way this plugin does not rewrite`);
      }
      // In a page the entry's relative imports would resolve against the page's URL: renderHostedPage rewrites each
      // `import(\`./…` to the entry's own folder, so every dynamic import must be written that way.
      const relative = entry.code.match(/\bimport\((["'`])\.\//g)?.length ?? 0;
      if (relative !== entry.dynamicImports.length) throw new Error(`entryByGlobal: ${relative} relative import() in the entry, ${entry.dynamicImports.length} dynamic imports`);
      // The entry goes in a page as a script element's text: nothing in it may end that element.
      if (/<\/script|<!--/i.test(entry.code)) throw new Error('entryByGlobal: the entry contains "</script" or "<!--" and cannot be put in a page');
    },
  };
}

/** Throws if any of `names` (top-level bindings of `code`) is written after its declaration. */
export function assertNeverReassigned(code: string, names: readonly string[]): void {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', range: true });
  const scope = analyze(program, { ecmaVersion: 2022, sourceType: 'module', childVisitorKeys: KEYS, fallback: 'iteration' }).acquire(program, true);
  if (!scope) throw new Error('entryByGlobal: no module scope');
  const wanted = new Set(names);
  for (const variable of scope.variables) {
    if (!wanted.has(variable.name)) continue;
    const writes = variable.references.filter((ref) => ref.isWrite());
    const declaredWithValue = writes.filter((ref) => ref.init);
    if (writes.length > declaredWithValue.length || declaredWithValue.length > 1) {
      throw new Error(`entryByGlobal: the entry's exported binding ${variable.name} is assigned after its declaration; a lazy chunk would keep a stale value`);
    }
  }
}
