/**
 * Every PHP block in the docs parses (`php -l`), so a shop that copies one gets code that runs: the signature checks
 * of any-stack.md, the partner calls of the For platforms page. What the blocks do is run elsewhere: the signature
 * checks in any-stack-signatures.test.ts, the partner calls against serve in test/e2e/php-platform.e2e.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { systemBinary } from '../harness/system-packages.mjs';
import { repoRoot } from './build-helpers.js';

/** Each ```php block of the docs site: page, line and text. */
function phpBlocks(): { page: string; line: number; text: string }[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) pages.push(relative);
    }
  };
  walk('docs/site');
  return pages.flatMap((page) => {
    const source = readFileSync(path.join(repoRoot, page), 'utf8');
    return [...source.matchAll(/^```php\n([\s\S]*?)^```$/gm)].map((match) => ({
      page,
      line: source.slice(0, match.index).split('\n').length,
      text: match[1] ?? '',
    }));
  });
}

describe('the PHP in the docs', () => {
  let scratch: string;
  before(() => (scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-docs-php-'))));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('every ```php block opens with <?php and parses under php -l', async () => {
    const blocks = phpBlocks();
    assert.ok(blocks.some((block) => block.page.endsWith('platforms.md')), 'the For platforms page has its PHP calls');
    const failures: string[] = [];
    for (const [i, block] of blocks.entries()) {
      const where = `${block.page}:${block.line}`;
      // Without the opening tag, php -l would read the block as HTML and pass anything.
      if (!block.text.startsWith('<?php')) {
        failures.push(`${where}: does not open with <?php`);
        continue;
      }
      const file = path.join(scratch, `block-${i}.php`);
      writeFileSync(file, block.text);
      await promisify(execFile)(systemBinary('php'), ['-l', file]).catch((error: { stdout?: string; stderr?: string }) =>
        failures.push(`${where}: ${(error.stdout ?? '') + (error.stderr ?? '')}`.trim()),
      );
    }
    assert.deepEqual(failures, []);
  });
});
