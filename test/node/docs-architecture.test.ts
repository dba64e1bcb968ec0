/**
 * The design lives in the repository: docs/site/contributing/architecture.md is the page a newcomer reads first, the
 * README and the contributing page lead to it, nothing cites a design file the repository does not have, and its
 * table of which part imports which matches the imports in src/ (each part only from the parts below it), and inside
 * src/element each folder imports only from the folders the page lists after it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './build-helpers.js';

const architecture = 'docs/site/contributing/architecture.md';
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

/** Every file under `dir` (repo-relative), build output and dependencies left out. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(repoRoot, relative), { withFileTypes: true })) {
      const name = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'dist-docs', 'projects'].includes(entry.name)) walk(name);
      } else found.push(name);
    }
  };
  walk(dir);
  return found;
}

/** The part a source file belongs to: its folder under src/, or the file itself at the top (`cli.ts`). */
const partOf = (file: string) => path.posix.relative('src', file).split('/')[0] ?? file;

/** The files a source file imports, repo-relative (relative imports, static, dynamic and type-only alike). */
const importsOf = (file: string, source = read(file)): string[] =>
  [...source.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)|^import\s+'(\.[^']+)'/gm)].map((match) =>
    path.posix.join(path.posix.dirname(file), (match[1] ?? match[2] ?? match[3] ?? '').replace(/\.js$/, '.ts')),
  );

/** Part → the parts it imports. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder('src').filter((f) => f.endsWith('.ts'))) {
    const from = partOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of importsOf(file).map(partOf)) if (target !== from) edges.add(target);
  }
  return graph;
}

/** The element's folders, top first, as the page's element row lists them ("Its folders, each importing only from the ones after it"). */
function elementFolders(): string[] {
  const row = /^\| element \|.*$/m.exec(read(architecture))?.[0] ?? '';
  const after = row.slice(row.indexOf('Its folders'));
  return [...after.matchAll(/`([a-z-]+)\/`/g)].map((match) => match[1] ?? '');
}

/**
 * Imports inside src/element that run from a lower folder back up: the element's own files (`pay-checkout.ts`, its
 * settings and styles) sit above every folder, then the folders in `folders`' order. `sources` may stand in for files.
 */
function upwardElementImports(folders: readonly string[], sources: ReadonlyMap<string, string> = new Map()): string[] {
  /** -1 for the element's own files, else the folder's place; undefined for a folder the page does not list. */
  const rank = (file: string): number | undefined => {
    const [first = '', ...rest] = path.posix.relative('src/element', file).split('/');
    if (rest.length === 0) return -1;
    return folders.includes(first) ? folders.indexOf(first) : undefined;
  };
  const files = [...new Set([...filesUnder('src/element').filter((f) => f.endsWith('.ts')), ...sources.keys()])];
  const problems: string[] = [];
  for (const file of files) {
    const from = rank(file);
    if (from === undefined) {
      problems.push(`${file} is in a folder the page does not list`);
      continue;
    }
    for (const target of importsOf(file, sources.get(file) ?? read(file)).filter((t) => t.startsWith('src/element/'))) {
      const to = rank(target);
      if (to !== undefined && to < from) problems.push(`${file} imports ${target}, a folder above it`);
    }
  }
  return problems;
}

describe('the architecture page', () => {
  it('no file cites a design document the repository does not have', () => {
    const missing = ['design', 'md'].join('.'); // spelled apart so this file does not cite it
    const places = ['src', 'test', 'docs', 'build', 'bench', 'hosted', 'demo', 'examples'].flatMap(filesUnder).concat('README.md');
    const citing = places.filter((file) => !/\.(png|jpe?g|webp|ico|woff2?)$/.test(file) && read(file).includes(missing));
    assert.deepEqual(citing, [], `cite ${missing}; point them at ${architecture} or the page that holds the fact`);
  });

  it('is in the site navigation, first on the contributing page, and reached from the README', async () => {
    const navFile = ['docs'].flatMap(filesUnder).find((file) => path.posix.basename(file) === 'nav.mjs');
    assert.ok(navFile, 'no nav.mjs under docs/');
    const { nav } = (await import(pathToFileURL(path.join(repoRoot, navFile)).href)) as { nav: [string, [string, string][]][] };
    assert.ok(nav.some(([, pages]) => pages.some(([, source]) => source === 'contributing/architecture.md')), `${navFile} does not list it`);
    const firstLink = /\]\(([^)]+)\)/.exec(read('docs/site/contributing/index.md'))?.[1];
    assert.equal(firstLink, 'architecture.md');
    assert.match(read('README.md'), /\(https:\/\/github\.com\/pay-checkout\/pay-checkout\/blob\/main\/docs\/site\/contributing\/architecture\.md\)/);
  });

  it("lists every part's imports, each only from the parts below it", () => {
    const section = /## Which part may import which\n([\s\S]*?)\n## /.exec(read(architecture))?.[1] ?? '';
    const rows = [...section.matchAll(/^\| ([^|]+) \| ([^|]+) \|$/gm)].filter(([, first]) => first !== 'part'); // not the header
    assert.ok(rows.length > 5, 'the import table is missing');
    const level = new Map<string, { row: number; text: string }>();
    rows.forEach(([, parts = '', text = ''], row) => {
      for (const part of parts.split(',').map((p) => p.replace(/`/g, '').trim())) level.set(part, { row, text });
    });
    const problems: string[] = [];
    for (const [from, targets] of importGraph()) {
      const here = level.get(from);
      if (!here) {
        problems.push(`src/${from} is not in the table`);
        continue;
      }
      for (const target of targets) {
        const there = level.get(target);
        const name = target.replace(/\.ts$/, '');
        if (!there || there.row <= here.row) problems.push(`${from} imports ${target}, which is not below it`);
        else if (!new RegExp(`\\b${name}\\b`).test(here.text)) problems.push(`${from} imports ${target}; its row does not say so`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("lists the element's folders, and no import inside src/element runs from a lower folder back up", () => {
    const folders = elementFolders();
    assert.deepEqual(folders, ['controllers', 'steps', 'order', 'internal', 'events']);
    assert.deepEqual(upwardElementImports(folders), []);
    // The check sees one: an order file reaching up into the controllers, and a helper up to the element.
    const upward = new Map([
      ['src/element/order/upward.ts', "import type { FlowRunner } from '../controllers/flow-runner.js';\n"],
      ['src/element/internal/upward.ts', "import { PayCheckout } from '../pay-checkout.js';\n"],
    ]);
    assert.deepEqual(upwardElementImports(folders, upward), [
      'src/element/order/upward.ts imports src/element/controllers/flow-runner.ts, a folder above it',
      'src/element/internal/upward.ts imports src/element/pay-checkout.ts, a folder above it',
    ]);
  });
});
