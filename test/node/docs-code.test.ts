/**
 * The docs' code compiles: every TypeScript and JavaScript block of README.md and docs/site/ type-checks against the
 * package's published types, imported as a merchant imports them. The types are built as `npm run build` builds them
 * (tsconfig.build.json's declarations, the manifest's framework typings) into a scratch `node_modules/pay-checkout/`
 * beside a copy of package.json, so `pay-checkout/server`, `pay-checkout/server/redis`, … resolve through `exports`.
 *
 * - Languages checked: ts, typescript, tsx, jsx, js, javascript, mjs. Vue, Svelte and Astro blocks are templates, not
 *   modules, and are skipped by language (html, css, sh, yaml… are not code the compiler reads).
 * - A block that is deliberately partial says so in its info string: ```ts partial. It may use names it does not
 *   define (`db`, `resolveLink`, `logger`…); everything else (imports, option names, types) is still checked, and a
 *   block marked partial that defines all it uses fails, so the marker stays true.
 * - A JavaScript block is checked as JavaScript (checkJs): a parameter with no contextual type is `any`, not an error.
 * - Every block is a module of its own, all in one ts.Program; a `declare module` in one (react.md's JSX typing)
 *   holds for all, as it would once in a project.
 * - Frameworks the repository does not install (Next.js, React Router, Angular, Nuxt, SvelteKit, the Vue plugin,
 *   web-vitals) are declared below with just the members the docs use, so the blocks' use of pay-checkout is checked.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import ts from 'typescript';
import { consumerCompilerOptions, emitDeclarations, repoRoot, scratchDir } from './build-helpers.js';

/** Info-string language → the file extension the block is compiled as. */
const checked: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', jsx: 'jsx', js: 'js', javascript: 'js', mjs: 'mjs' };
/** What a partial block may leave to its page: names it does not define (plain, "did you mean", shorthand property). */
const undefinedName = new Set([2304, 2552, 18004]);
/** JavaScript has no annotations to give: a parameter with no contextual type is `any` there, not an error. */
const implicitAny = new Set([7005, 7006, 7008, 7031, 7034]);
const isJavaScript = (block: Block) => ['js', 'mjs', 'jsx'].includes(checked[block.lang] ?? '');

interface Block {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  partial: boolean;
  code: string;
}

/** Fenced blocks of one Markdown file, indentation of list items removed. */
function fencedBlocks(page: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', lang = '', rest = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`).test(lines[j] ?? ''); j += 1) {
      body.push((lines[j] ?? '').replace(new RegExp(`^ {0,${indent.length}}`), ''));
    }
    blocks.push({ page, line: i + 1, lang: lang.toLowerCase(), partial: rest.trim().split(/\s+/).includes('partial'), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

function markdownPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const name = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (entry.name.endsWith('.md')) pages.push(name);
    }
  };
  walk('docs/site');
  return pages;
}

/** The frameworks' own modules, as far as the docs use them (the real ones are installed only by the pack test). */
const frameworkDeclarations = `
declare module 'next/navigation' { export function useRouter(): { push(href: string): void }; }
declare module 'react-router' {
  export function useNavigate(): (to: string) => void;
  export interface LoaderFunctionArgs { request: Request }
  export interface ActionFunctionArgs { request: Request }
}
declare module '@angular/core' {
  export const CUSTOM_ELEMENTS_SCHEMA: { name: string };
  export function Component(options: { selector: string; schemas?: { name: string }[]; template?: string }): ClassDecorator;
}
declare module '@vitejs/plugin-vue' {
  export default function vue(options?: { template?: { compilerOptions?: { isCustomElement?: (tag: string) => boolean } } }): { name: string };
}
declare module '$env/dynamic/private' { export const env: Record<string, string | undefined>; }
declare module 'web-vitals' {
  export interface Metric { name: string; value: number }
  export function onCLS(report: (metric: Metric) => void): void;
  export function onINP(report: (metric: Metric) => void): void;
  export function onLCP(report: (metric: Metric) => void): void;
}
// Nuxt's auto-imports (nuxt, h3).
declare function defineNuxtConfig(config: { vue?: { compilerOptions?: { isCustomElement?: (tag: string) => boolean } } }): unknown;
declare function defineNuxtPlugin(setup: () => void): unknown;
declare function defineEventHandler<T>(handle: (event: { readonly node: unknown }) => T): unknown;
declare function toWebRequest(event: { readonly node: unknown }): Request;
`;
/** SvelteKit's generated \`./$types\` for a +server.ts route. */
const svelteKitTypes = 'export type RequestHandler = (event: { request: Request }) => Response | Promise<Response>;\n';

const scratch = scratchDir('docs-code');
const packageDir = path.join(scratch.dir, 'node_modules', 'pay-checkout');
const blocksDir = path.join(scratch.dir, 'blocks');
const blocks = markdownPages().flatMap((page) => fencedBlocks(page, readFileSync(path.join(repoRoot, page), 'utf8')));
const toCheck = blocks.filter((block) => block.lang in checked);
const failures: string[] = [];
let checkMs = 0;

/** The package as `npm run build` lays it out: dist/types/ (declarations) and dist/frameworks/ (from the manifest). */
async function buildPackageTypes(): Promise<void> {
  mkdirSync(packageDir, { recursive: true });
  copyFileSync(path.join(repoRoot, 'package.json'), path.join(packageDir, 'package.json'));
  const complaints = emitDeclarations(path.join(packageDir, 'dist', 'types'));
  assert.deepEqual(complaints.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);
  // `npm run analyze` as package.json says it, with the output moved (relative to the working directory, as there).
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { analyze: string } };
  const [cem = '', ...args] = pkg.scripts.analyze.split(' ');
  const outdir = path.relative(repoRoot, packageDir);
  await promisify(execFile)(path.join(repoRoot, 'node_modules', '.bin', cem), [...args, '--outdir', outdir, '--quiet'], { cwd: repoRoot });
}

/** Type-checks every block in one program; fills `failures` with page, block and the compiler's words. */
function checkBlocks(): void {
  mkdirSync(blocksDir, { recursive: true });
  writeFileSync(path.join(blocksDir, 'frameworks.d.ts'), frameworkDeclarations);
  writeFileSync(path.join(blocksDir, '$types.d.ts'), svelteKitTypes);
  const byFile = new Map<string, Block>();
  toCheck.forEach((block, index) => {
    const file = path.join(blocksDir, `${block.page.replace(/[/.]/g, '_')}-${index}.${checked[block.lang]}`);
    writeFileSync(file, `${block.code}\nexport {};\n`); // a module of its own: top-level await, no names shared
    byFile.set(file, block);
  });
  const started = performance.now();
  const program = ts.createProgram([...byFile.keys(), path.join(blocksDir, 'frameworks.d.ts')], {
    ...consumerCompilerOptions,
    types: ['node'],
    typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
    jsx: ts.JsxEmit.ReactJSX,
    allowJs: true,
    checkJs: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  checkMs = performance.now() - started;
  const tolerated = new Map<Block, number>();
  for (const diagnostic of diagnostics) {
    const block = diagnostic.file ? byFile.get(path.resolve(diagnostic.file.fileName)) : undefined;
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ');
    if (!block || !diagnostic.file || diagnostic.start === undefined) {
      failures.push(`${diagnostic.file?.fileName ?? '(program)'}: TS${diagnostic.code} ${message}`);
      continue;
    }
    if (block.partial && undefinedName.has(diagnostic.code)) {
      tolerated.set(block, (tolerated.get(block) ?? 0) + 1);
      continue;
    }
    if (isJavaScript(block) && implicitAny.has(diagnostic.code)) continue;
    const at = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    failures.push(`${block.page}:${block.line + 1 + at.line}:${at.character + 1} (the \`\`\`${block.lang} block at line ${block.line}): TS${diagnostic.code} ${message}`);
  }
  for (const block of toCheck.filter((b) => b.partial && !tolerated.has(b))) {
    failures.push(`${block.page}:${block.line}: marked partial but defines every name it uses: drop "partial"`);
  }
}

before(async () => {
  await buildPackageTypes();
  checkBlocks();
});
after(() => scratch.remove());

describe('code in the README and the docs', () => {
  it('finds the blocks', () => {
    assert.ok(toCheck.length >= 30, `only ${toCheck.length} TypeScript or JavaScript blocks found`);
    const skipped = blocks.filter((block) => ['vue', 'svelte', 'astro'].includes(block.lang));
    console.log(
      `# ${toCheck.length} blocks checked (${toCheck.filter((b) => b.partial).length} partial) in ${Math.round(checkMs)} ms, one program; ${skipped.length} Vue, Svelte or Astro blocks skipped by language`,
    );
  });

  it('type-checks every block against the published types', () => {
    assert.equal(failures.length, 0, `\n${failures.join('\n')}`);
  });
});
