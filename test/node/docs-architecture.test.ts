/**
 * The design lives in the repository: docs/site/contributing/architecture.md is the page a newcomer reads first, the
 * README and the contributing page lead to it, nothing cites a design file the repository does not have, and its
 * table of which part imports which matches the imports in src/ (each part only from the parts below it).
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

/** Part → the parts it imports (relative imports, static, dynamic and type-only alike). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesUnder('src').filter((f) => f.endsWith('.ts'))) {
    const from = partOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of read(file).matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)|^import\s+'(\.[^']+)'/gm)) {
      const target = partOf(path.posix.join(path.posix.dirname(file), (match[1] ?? match[2] ?? match[3] ?? '').replace(/\.js$/, '.ts')));
      if (target !== from) edges.add(target);
    }
  }
  return graph;
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
});
