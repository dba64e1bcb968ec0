// The published types: the declarations `npm run build` emits (tsconfig.build.json, stripInternal) are what a user
// compiles against. A consumer fixture (test/types/fixtures/consumer.ts) must type-check against them, `@ts-expect-error`
// lines included; against the unstripped sources the same fixture must fail, so the test can tell the difference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { consumerCompilerOptions, emitDeclarations, repoRoot, scratchDir } from './build-helpers.js';

const fixture = path.join(repoRoot, 'test/types/fixtures/consumer.ts');

/** Type-checks the fixture with `pay-checkout` and `pay-checkout/client` mapped to `typesDir` (declarations or sources). */
function compileFixture(entries: { root: string; client: string }): string[] {
  const program = ts.createProgram([fixture], {
    ...consumerCompilerOptions,
    types: [],
    useDefineForClassFields: false,
    paths: { 'pay-checkout': [entries.root], 'pay-checkout/client': [entries.client] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('published types', () => {
  const scratch = scratchDir('types');
  const typesDir = path.join(scratch.dir, 'types');
  before(() => {
    const diagnostics = emitDeclarations(typesDir);
    assert.deepEqual(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);
  });
  after(() => scratch.remove());

  it('the element declaration has its public API and no test hooks (@internal, stripped)', () => {
    // The page's settings are declared in the class the element extends (pay-checkout-settings.ts).
    const element = readFileSync(path.join(typesDir, 'element/pay-checkout.d.ts'), 'utf8');
    assert.match(element, /class PayCheckout extends PayCheckoutSettings/);
    const declaration = element + readFileSync(path.join(typesDir, 'element/pay-checkout-settings.d.ts'), 'utf8');
    for (const member of ['link: string', 'apiBase', 'merchantKey', 'get step()']) assert.ok(declaration.includes(member), member);
    assert.doesNotMatch(declaration, /navigate|statusTimings/);
    assert.doesNotMatch(readFileSync(path.join(typesDir, 'index.d.ts'), 'utf8'), /StatusTimings/);
  });

  it('a consumer type-checks against them: nullable id_external in refund, test hooks refused', () => {
    assert.deepEqual(compileFixture({ root: path.join(typesDir, 'index.d.ts'), client: path.join(typesDir, 'client/index.d.ts') }), []);
  });

  it('the same fixture fails where the hooks are visible (the sources), so the check can fail', () => {
    const errors = compileFixture({ root: path.join(repoRoot, 'src/index.ts'), client: path.join(repoRoot, 'src/client/index.ts') });
    assert.equal(errors.filter((e) => /Unused '@ts-expect-error' directive/.test(e)).length, 2, errors.join('\n'));
  });
});
