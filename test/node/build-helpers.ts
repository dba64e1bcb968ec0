/** Builds with the repo's Vite configs into scratch directories, so build tests never touch dist/. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import ts from 'typescript';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A scratch directory inside the repo (node_modules/.cache/pay-checkout/), so built chunks resolve `lit`, `zod`
 * and the rest from node_modules like dist/ does, without being dist/.
 */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const parent = path.join(repoRoot, 'node_modules', '.cache', 'pay-checkout');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, `${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Emits the package's declarations into `outDir`, as `tsc -p tsconfig.build.json` does; returns the compiler's complaints. */
export function emitDeclarations(outDir: string): readonly ts.Diagnostic[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, 'tsconfig.build.json'), { outDir, declarationMap: false }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const result = program.emit(undefined, undefined, undefined, true);
  return [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
}

/** How a merchant's TypeScript project compiles against the package: strict, ES2022 modules, a bundler, DOM types. */
export const consumerCompilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  skipLibCheck: true,
  experimentalDecorators: true,
};

export interface BuiltFile {
  fileName: string;
  /** Source modules bundled into a chunk (none for assets). */
  moduleIds: string[];
  imports: string[];
  dynamicImports: string[];
}

/** `vite build -c CONFIG` with its output redirected to `outDir`; returns what it emitted. */
export async function buildWith(config: string, outDir: string): Promise<BuiltFile[]> {
  const previous = process.cwd();
  process.chdir(repoRoot); // vite.config.ts's `root: 'demo'` is relative to the working directory
  try {
    const result = await build({
      configFile: path.join(repoRoot, config),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    const outputs = Array.isArray(result) ? result : [result];
    return outputs.flatMap((output) =>
      'output' in output
        ? output.output.map((item) =>
            item.type === 'chunk'
              ? { fileName: item.fileName, moduleIds: item.moduleIds, imports: item.imports, dynamicImports: item.dynamicImports }
              : { fileName: item.fileName, moduleIds: [], imports: [], dynamicImports: [] },
          )
        : [],
    );
  } finally {
    process.chdir(previous);
  }
}
