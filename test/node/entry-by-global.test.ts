// The hosted entry hands the lazy chunks its bindings through a global, so a server can put it in the page.
// A chunk reads each binding once; the build refuses an entry whose shared binding is assigned again.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { assertNeverReassigned } from '../../build/entry-by-global.js';

describe('the hosted entry’s shared bindings', () => {
  it('passes bindings set once, however inner scopes reuse their names', () => {
    assert.doesNotThrow(() => assertNeverReassigned('var a=1,b=class{};function c(){var a;a=2;b:for(;;)break b}export{a as A,b as B,c as C};', ['a', 'b', 'c']));
  });

  it('refuses a binding assigned after its declaration, anywhere in the module', () => {
    assert.throws(() => assertNeverReassigned('var a=1;a=2;export{a as A};', ['a']), /binding a is assigned after its declaration/);
    assert.throws(() => assertNeverReassigned('let a;function set(){a=3}export{a as A,set};', ['a', 'set']), /binding a/);
    assert.throws(() => assertNeverReassigned('var n=0;const f=()=>n++;export{n,f};', ['n', 'f']), /binding n/);
  });

  it('in the hosted build: the entry sets the global, no chunk imports the entry’s URL', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'pay-hosted-'));
    try {
      const root = fileURLToPath(new URL('../../', import.meta.url));
      await build({ configFile: path.join(root, 'vite.hosted.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
      const assets = path.join(outDir, 'assets');
      const files = readdirSync(assets).filter((file) => file.endsWith('.js'));
      const entry = files.find((file) => file.startsWith('main-'));
      assert.ok(entry, 'the build has its entry');
      assert.match(readFileSync(path.join(assets, entry), 'utf8'), /globalThis\[Symbol\.for\("pay-checkout\.hosted-entry"\)\]=\{/);
      assert.ok(files.length > 3, 'lazy chunks');
      for (const file of files) assert.doesNotMatch(readFileSync(path.join(assets, file), 'utf8'), new RegExp(entry.replace('.', '\\.')), file);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
