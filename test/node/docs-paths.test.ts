/**
 * The contributing pages a newcomer reads to find their way (architecture.md, decisions.md) name only files and
 * folders the repository has: every path in a code span or a link must lead somewhere. A path may be written from the
 * repository's root (`src/element/steps/step-template.ts`), from the page, or as the tail of a real one
 * (`steps/step-template.ts`, `serve/`, `screen-policy.ts`). Not files of this repository, so not checked: what the build
 * writes (`dist/…`), URL paths (`/checkout/…`), a package's files (`zod/…`, `pay-checkout/openapi.json`), patterns
 * (`pay-step-NAME.ts`, `define-*.js`), a bare `.js` name (a built file or an import specifier) and an extension
 * alone (`.d.ts`).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './build-helpers.js';

const pages = ['docs/site/contributing/architecture.md', 'docs/site/contributing/decisions.md'];

/** Every file of the repository (repo-relative), its dependencies, build output and git's own left out. */
function repoFiles(dir = ''): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const name = dir ? `${dir}/${entry.name}` : entry.name;
    if (!entry.isDirectory()) return [name];
    return ['node_modules', 'dist', 'dist-docs', '.git'].includes(entry.name) ? [] : repoFiles(name);
  });
}

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
/** Names a path may start with and still be a package's: ours and every dependency's. */
const packages = new Set(['pay-checkout', ...['dependencies', 'devDependencies', 'peerDependencies'].flatMap((key) => Object.keys(packageJson[key] ?? {}))]);

/** The words of `markdown` that are written as paths: in code spans (each word of one), and relative link targets. */
function namedPaths(markdown: string): string[] {
  const words = [...markdown.matchAll(/`([^`\n]+)`/g)].flatMap((match) => (match[1] ?? '').split(/[\s,;]+/));
  const links = [...markdown.matchAll(/\]\(([^)\s#]+)/g)].map((match) => match[1] ?? '').filter((target) => !/^[a-z]+:/.test(target));
  const isPath = (word: string) => /^[\w.@/-]+$/.test(word) && (/\.(ts|mts|mjs|cjs|js|json|md|ya?ml|php|sh|css|html)$/.test(word) || (word.endsWith('/') && word.length > 1));
  const notOurs = (word: string) =>
    word.startsWith('/') ||
    /^\.[\w.-]+$/.test(word) ||
    word.startsWith('dist/') ||
    word.startsWith('node_modules/') ||
    /\*|[A-Z]{4,}/.test(word) ||
    (!word.includes('/') && word.endsWith('.js')) ||
    packages.has(word.split('/')[0] ?? '') ||
    packages.has(word.split('/').slice(0, 2).join('/'));
  return [...new Set([...words.filter(isPath), ...links])].filter((word) => !notOurs(word));
}

/** The paths of `named` that lead nowhere, read from `page`, among `files`. */
function missingPaths(page: string, named: readonly string[], files: readonly string[]): string[] {
  const folders = new Set(files.flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`)));
  const leads = (word: string) => {
    const fromPage = path.posix.normalize(path.posix.join(path.posix.dirname(page), word));
    if (existsSync(path.join(repoRoot, word)) || existsSync(path.join(repoRoot, fromPage))) return true;
    if (word.endsWith('/')) return [...folders].some((folder) => folder === word || folder.endsWith(`/${word}`));
    return files.some((file) => file === word || file.endsWith(`/${word}`));
  };
  return named.filter((word) => !leads(word));
}

describe('the contributing pages name real files', () => {
  const files = repoFiles();

  for (const page of pages) {
    it(`${path.posix.basename(page)} names only files and folders the repository has`, () => {
      const named = namedPaths(readFileSync(path.join(repoRoot, page), 'utf8'));
      assert.ok(named.length > 20, `only ${named.length} paths read from ${page}`);
      assert.deepEqual(missingPaths(page, named, files), [], `${page} names what does not exist: correct the path, or say the file is gone without naming it as one`);
    });
  }

  it('a made-up path is caught, wherever it is written, and real ones pass', () => {
    const page = 'docs/site/contributing/decisions.md';
    const markdown = [
      'Measured with `npm run build && node scripts/size-check.mjs`; templates in `internal/step-template.ts`.',
      'See [the handler](../../../src/server/handler-old.ts) and `src/element/no-such-folder/`.',
      'Real: `test/size/size-check.mjs`, `steps/step-template.ts`, `serve/`, `screen-policy.ts`, [testing](testing.md).',
      'Not ours: `dist/pay-checkout.js`, `/checkout/HASH`, `zod/v4/core/schemas.js`, `pay-step-NAME.ts`, `define.js`.',
    ].join('\n');
    assert.deepEqual(missingPaths(page, namedPaths(markdown), files), [
      'scripts/size-check.mjs',
      'internal/step-template.ts',
      'src/element/no-such-folder/',
      '../../../src/server/handler-old.ts',
    ]);
  });
});
