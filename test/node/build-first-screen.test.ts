/**
 * What the script-tag build puts before the first screen (dist/pay-checkout.js: the loading screen and the link
 * request, no zod), what it fetches in parallel with the link call (the zod-free reader of the link's answer, over
 * shapes generated from the contract's schemas, which checks it before the first interactive screen) and what it leaves to the later steps' chunk (docs/site/contributing/architecture.md, budgets). Reads the built
 * files, so a regression in the split (a barrel import, a static import of a schema or a later step) shows by name.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWith, scratchDir, type BuiltFile } from './build-helpers.js';
import { withoutMark } from '../../build/own-order-schemas.js';

describe('the script-tag build: first screen and later steps', () => {
  const scratch = scratchDir('first-screen');
  let files: BuiltFile[] = [];
  let entry = '';
  let later = '';
  let schemas: BuiltFile | undefined;
  const moduleOf = (file: BuiltFile) => file.moduleIds.map((id) => withoutMark(id).replace(/\\/g, '/'));

  before(async () => {
    files = await buildWith('vite.script.config.ts', scratch.dir);
    const read = (name: string) => readFileSync(path.join(scratch.dir, name), 'utf8');
    entry = read('pay-checkout.js');
    const laterFile = files.find((f) => f.fileName.startsWith('pay-checkout.later-steps-'));
    assert.ok(laterFile, `no later-steps chunk in ${files.map((f) => f.fileName).join(', ')}`);
    later = read(laterFile.fileName);
    schemas = files.find((f) => moduleOf(f).some((id) => id.endsWith('src/client/link-reader-lite.ts')));
    assert.ok(schemas, `no link-reader chunk in ${files.map((f) => f.fileName).join(', ')}`);
  });
  after(() => scratch.remove());

  it('the first script holds the first screens, and only them', () => {
    const first = moduleOf(files.find((f) => f.fileName === 'pay-checkout.js') as BuiltFile);
    for (const part of ['src/flow/first-screen.ts', 'src/client/send.ts', 'src/element/internal/link-request.ts', 'src/i18n/es-first.ts', 'src/element/steps/pay-step-method.ts']) {
      assert.ok(first.some((id) => id.endsWith(part)), `${part} is missing from the first script`);
    }
    assert.ok(!first.some((id) => id.includes('/node_modules/zod/')), 'zod is in the first script');
    for (const part of ['src/client/checkout-link.ts', 'src/contract/checkout-link.ts', 'src/client/http.ts', 'src/flow/machine.ts', 'src/flow/before-order.ts', 'src/element/order/resume-order.ts', 'src/flow/waiting.ts', 'src/client/checkout-client.ts', 'src/element/order/order-tracker.ts', 'src/i18n/es.ts', 'src/element/steps/pay-step-details.ts', 'src/element/order/status-checks.ts']) {
      assert.ok(!first.some((id) => id.endsWith(part)), `${part} is in the first script`);
    }
    assert.ok(entry.includes('Elige cómo pagar') && !entry.includes('Confirmar pago'), 'the first screens’ strings only');
  });

  it('the receipt (its step, its storage) is a later step: in the lazy chunk, not the first script', () => {
    const first = moduleOf(files.find((f) => f.fileName === 'pay-checkout.js') as BuiltFile);
    const lazy = moduleOf(files.find((f) => f.fileName.startsWith('pay-checkout.later-steps-')) as BuiltFile);
    for (const part of ['src/element/steps/pay-step-receipt.ts', 'src/element/order/receipt-store.ts']) {
      assert.ok(!first.some((id) => id.endsWith(part)) && lazy.some((id) => id.endsWith(part)), `${part} is not in the later chunk alone`);
    }
  });

  it('the first script starts the link reader’s and (after its first screen) the later steps’ chunks, relative to its URL', () => {
    const first = files.find((f) => f.fileName === 'pay-checkout.js') as BuiltFile;
    assert.ok(first.dynamicImports.some((name) => name.startsWith('pay-checkout.later-steps-')));
    assert.ok(first.dynamicImports.includes(schemas?.fileName ?? '?'));
    assert.deepEqual(first.imports, [], 'nothing else is fetched before it runs');
    // A plain fetch of the link, started by the first script itself.
    assert.ok(entry.includes('/checkout/links/'), 'the link request is not in the first script');
  });

  it('the link reader’s chunk checks the answer without zod; the later steps bring zod and the schemas', () => {
    const held = moduleOf(schemas as BuiltFile);
    assert.ok(!held.some((id) => id.includes('/node_modules/zod/')), 'zod rides with the link reader');
    // It imports only the first script (already running), so the first interactive screen needs one chunk, not a chain.
    assert.deepEqual(schemas?.imports.filter((name) => name !== 'pay-checkout.js'), []);
    // The order schemas and the order client stay out of it.
    assert.ok(!held.some((id) => /src\/(contract\/checkout|contract\/orders|client\/checkout-client|client\/link-client)\.ts/.test(id)), 'order schemas ride with the link');
    const laterFile = files.find((f) => f.fileName.startsWith('pay-checkout.later-steps-')) as BuiltFile;
    assert.ok(moduleOf(laterFile).some((id) => id.includes('/node_modules/zod/v4/core/schemas')), 'the later steps have no zod of their own');
  });

  it('templates lose their indentation, and unused contract schemas stay out of the later chunk', () => {
    assert.ok(!/ {4}/.test(entry), 'a run of four spaces left in the first script');
    assert.ok(!/ {4}/.test(later), 'a run of four spaces left in the later chunk');
    // `device_key` exists only in the merchant API's CreateOrderBodySchema, which the element never uses.
    assert.ok(!later.includes('device_key') && !entry.includes('device_key'), 'an unused contract schema was bundled');
  });
});
