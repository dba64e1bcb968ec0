/**
 * One name, one thing: no exported name is declared in two files under src/server/ (two `deliveriesCommand`s, one
 * listing over a relay and one the CLI command, were). Re-exports (`export { x } from './y.js'`) are not declarations
 * and pass. Read with the TypeScript compiler's parser, so a name in a comment or a string never counts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot } from './build-helpers.js';

/** The .ts files under `dir` (repo-relative). */
function tsFilesUnder(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const name = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(name);
    return entry.name.endsWith('.ts') ? [name] : [];
  });
}

const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file binds by importing them. */
function importedNames(tree: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of tree.statements) {
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (!clause) continue;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

/**
 * The names a file declares and exports: exported declarations, and `export { local as name }` of a binding it declares
 * itself (an imported one passed on, `import { X } …; export { X };`, is a re-export).
 */
function exportedDeclarations(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imported = importedNames(tree);
  const names: string[] = [];
  for (const statement of tree.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          if (!imported.has((element.propertyName ?? element.name).text)) names.push(element.name.text);
        }
      }
      continue;
    }
    if (!exported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.push(statement.name.text);
    } else if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) {
      names.push(statement.name.text);
    }
  }
  // A function's overloads, or an interface merged with a namespace, are one name in one file.
  return [...new Set(names)];
}

/** Each exported name declared in more than one of `files`, with the files. */
function declaredTwice(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const [file, source] of files) {
    for (const name of exportedDeclarations(file, source)) where.set(name, [...(where.get(name) ?? []), file]);
  }
  return new Map([...where].filter(([, places]) => places.length > 1));
}

describe('exported names under src/server/', () => {
  it('are each declared in one file only', () => {
    const files = new Map(tsFilesUnder('src/server').map((file) => [file, readFileSync(path.join(repoRoot, file), 'utf8')]));
    assert.ok(files.size > 40, `only ${files.size} files read under src/server/`);
    const twice = [...declaredTwice(files)].map(([name, places]) => `${name}: ${places.join(', ')}`);
    assert.deepEqual(twice, [], 'rename one of each pair so that the name says which thing it is');
  });

  it('a name declared in two files is caught, a re-export is not', () => {
    const files = new Map([
      ['src/server/a.ts', "export async function listThings(): Promise<number> { return 0; }\nexport const shared = 1;\n"],
      ['src/server/b/c.ts', "/** listThings in a comment */\nexport interface Input { x: string }\nexport { shared } from '../a.js';\nconst listThings = () => 2;\nexport { listThings };\n"],
      ['src/server/e.ts', "import { shared } from './a.js';\nexport { shared };\n"],
      ['src/server/d.ts', "export type Input = { y: number };\nexport function f(a: string): void;\nexport function f(a: number): void;\nexport function f(): void {}\n"],
    ]);
    assert.deepEqual(declaredTwice(files), new Map([
      ['listThings', ['src/server/a.ts', 'src/server/b/c.ts']],
      ['Input', ['src/server/b/c.ts', 'src/server/d.ts']],
    ]));
  });
});
