/**
 * What the script-tag build puts before the first screen (dist/pay-checkout.js) and what it leaves to the later
 * steps' chunk, which the element fetches while the link loads (design.md §7). Reads the built files, so a
 * regression in the split (a barrel import, a static import of a later step) shows here by name.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWith, scratchDir, type BuiltFile } from './build-helpers.js';

describe('the script-tag build: first screen and later steps', () => {
  const scratch = scratchDir('first-screen');
  let files: BuiltFile[] = [];
  let entry = '';
  let later = '';
  const moduleOf = (file: BuiltFile) => file.moduleIds.map((id) => id.replace(/\\/g, '/'));

  before(async () => {
    files = await buildWith('vite.script.config.ts', scratch.dir);
    const read = (name: string) => readFileSync(path.join(scratch.dir, name), 'utf8');
    entry = read('pay-checkout.js');
    const laterFile = files.find((f) => f.fileName.startsWith('pay-checkout.later-steps-'));
    assert.ok(laterFile, `no later-steps chunk in ${files.map((f) => f.fileName).join(', ')}`);
    later = read(laterFile.fileName);
  });
  after(() => scratch.remove());

  it('the first script holds the first screens, and only them', () => {
    const first = moduleOf(files.find((f) => f.fileName === 'pay-checkout.js') as BuiltFile);
    for (const part of ['src/flow/before-order.ts', 'src/client/checkout-link.ts', 'src/i18n/es-first.ts', 'src/element/internal/pay-step-method.ts']) {
      assert.ok(first.some((id) => id.endsWith(part)), `${part} is missing from the first script`);
    }
    for (const part of ['src/flow/machine.ts', 'src/flow/waiting.ts', 'src/client/checkout-client.ts', 'src/element/internal/order-tracker.ts', 'src/i18n/es.ts', 'src/element/internal/pay-step-details.ts', 'src/element/controllers/status-controller.ts']) {
      assert.ok(!first.some((id) => id.endsWith(part)), `${part} is in the first script`);
    }
    assert.ok(entry.includes('Elige cómo pagar') && !entry.includes('Confirmar pago'), 'the first screens’ strings only');
  });

  it('the first script starts the later steps’ chunk itself, relative to its own URL', () => {
    const first = files.find((f) => f.fileName === 'pay-checkout.js') as BuiltFile;
    assert.ok(first.dynamicImports.some((name) => name.startsWith('pay-checkout.later-steps-')));
    assert.deepEqual(first.imports, [], 'nothing else is fetched before it runs');
  });

  it('templates lose their indentation, and unused contract schemas stay out of the later chunk', () => {
    assert.ok(!/ {4}/.test(entry), 'a run of four spaces left in the first script');
    assert.ok(!/ {4}/.test(later), 'a run of four spaces left in the later chunk');
    // `device_key` exists only in the merchant API's CreateOrderBodySchema, which the element never uses.
    assert.ok(!later.includes('device_key') && !entry.includes('device_key'), 'an unused contract schema was bundled');
  });
});
