// A test is named for the behaviour it guards: no test file or title (describe, it, test, suite) names an issue, a
// defect or bug number, or "polish", which say when a test was written, not what breaks when it fails.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
const history = /\b(?:issue|defect|bug)s?\s*#?\d+|#\d{2,}\b|polish/i;
const historyInFileName = /polish|(?:issue|defect|bug)[-_ ]?\d+/i;
const TITLED = new Set(['describe', 'it', 'test', 'suite']);

/** Every file under test/ but the throwaway projects' and fixtures' own trees. */
function testTree(): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory() && !['node_modules', 'projects', 'fixtures'].includes(entry.name)) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('test');
  return out;
}

/** The titles a source gives its tests and groups: the first argument of describe/it/test/suite (and .skip, .only…). */
export function testTitles(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const titles: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      let callee: ts.Expression = node.expression;
      if (ts.isPropertyAccessExpression(callee) && ['skip', 'only', 'todo'].includes(callee.name.text)) callee = callee.expression;
      // `test(…)`, or a subtest on the test context (`t.test(…)`); never a method that happens to be called test (`re.test`).
      const onContext = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ['t', 'context'].includes(callee.expression.text);
      const name = ts.isIdentifier(callee) ? callee.text : onContext ? (callee as ts.PropertyAccessExpression).name.text : '';
      const [first] = node.arguments;
      if (TITLED.has(name) && first && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first))) titles.push(first.getText(source).slice(1, -1));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return titles;
}

test('no test file is named after an issue, a defect or a round of work', () => {
  const named = testTree().filter((file) => historyInFileName.test(path.basename(file)));
  assert.deepEqual(named, [], 'name the file after the behaviour its tests guard');
});

test('no test title names an issue, a defect or bug number, or a round of work', () => {
  const named: string[] = [];
  for (const file of testTree().filter((name) => /\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.mts'))) {
    for (const title of testTitles(file, readFileSync(path.join(root, file), 'utf8'))) if (history.test(title)) named.push(`${file}: ${title}`);
  }
  assert.deepEqual(named, [], 'name each test after what it guards');
});

test('the checker reads titles of every kind and knows history from behaviour', () => {
  const sample = [
    "describe('the receipt (issue 10)', () => {",
    "  it.only(`keeps focus (defect 6)`, () => {});",
    "  test('amounts such as #123 in a key', () => {});",
    "  t.test('polish pass', () => {});",
    "  suite('refuses AB#12 in an id', () => {});",
    "  assert.ok(pattern.test('an issue 4 in a regex'));",
    "  assert.equal(html, '&#60;b&#62;');",
    '});',
  ].join('\n');
  const titles = testTitles('sample.ts', sample);
  assert.deepEqual(titles, ['the receipt (issue 10)', 'keeps focus (defect 6)', 'amounts such as #123 in a key', 'polish pass', 'refuses AB#12 in an id']);
  assert.deepEqual(titles.map((title) => history.test(title)), [true, true, true, true, true]);
  assert.equal(history.test('a 390 px phone at 200% text'), false);
  assert.equal(historyInFileName.test('server-polish.test.ts'), true);
  assert.equal(historyInFileName.test('sandbox-order-list.test.ts'), false);
});
