// `npm test` is one entry point (test/run.mjs) whose parts also run alone: it names every part, and every part it
// names is a runner in the repository, so no suite is skipped because its file moved.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { E2E_PART, NODE_ALONE, PARTS } from '../harness/parts.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('every part the entry point runs is a runner in the repository that ends with the counts line', () => {
  for (const part of [E2E_PART, ...PARTS]) {
    const file = path.join(root, part.file);
    assert.ok(existsSync(file), `${part.file} (the ${part.key} part) exists`);
    // Each part prints `${passed} passed, ${failed} failed` last, which the entry adds to its summary.
    assert.match(readFileSync(file, 'utf8'), /console\.log\(`\$\{[^}]+\} passed, \$\{[^}]+\} failed`\)/, `${part.file} prints the counts line`);
  }
});

test('the entry point offers every step and part by name, and refuses an unknown one before running anything', async () => {
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(process.execPath, ['test/run.mjs', 'no-such-step'], { cwd: root, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
  assert.equal(result.code, 2);
  const offered = /Steps: (.*)\./.exec(result.output)?.[1]?.split(', ');
  assert.deepEqual(offered, ['typecheck', 'lint', 'lit', 'openapi', 'node', 'browser', E2E_PART.key, ...PARTS.map((part) => part.key)]);
  assert.doesNotMatch(result.output, /━━━/, 'no step started');
});

test('the Node test files named to run alone exist, so a renamed one is not left to run beside the others unnoticed', () => {
  assert.ok(NODE_ALONE.length > 0);
  for (const file of NODE_ALONE) {
    assert.match(file, /^test\/node\/.+\.test\.ts$/, `${file} is a Node test file`);
    assert.ok(existsSync(path.join(root, file)), `${file} (run alone) exists`);
  }
});
