/**
 * The plugin-author kit: custom-elements.json documents exactly the public `<pay-checkout>` (its
 * attributes and events, its custom properties and parts), and the site's element reference is generated from it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
// @ts-expect-error plain ESM script, typed by its JSDoc only
import { apiMarkdown, publicElement } from '../../docs/tooling/element-api.mjs';
import { repoRoot, scratchDir } from './build-helpers.js';

interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string; fieldName?: string }[];
  members?: { name: string; privacy?: string; static?: boolean }[];
  events?: { name: string; type?: { text: string } }[];
  cssProperties?: { name: string; description?: string }[];
  cssParts?: { name: string; description?: string }[];
}
interface Manifest {
  modules: { path: string; declarations?: Declaration[]; exports?: { kind: string; name: string }[] }[];
}

const scratch = scratchDir('manifest');
let manifest: Manifest;

before(async () => {
  const cem = path.join(repoRoot, 'node_modules', '.bin', 'cem');
  // --outdir is relative to the working directory, as in `npm run analyze`.
  const outdir = path.relative(repoRoot, scratch.dir);
  await promisify(execFile)(cem, ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', outdir, '--quiet'], { cwd: repoRoot });
  manifest = JSON.parse(readFileSync(path.join(scratch.dir, 'custom-elements.json'), 'utf8')) as Manifest;
});
after(() => scratch.remove());

/** Where two texts first differ, as a few numbered lines of each: enough to see what changed in the source. */
function firstDifference(committed: string, generated: string): string {
  const was = committed.split('\n');
  const now = generated.split('\n');
  const at = was.findIndex((line, index) => line !== now[index]);
  const line = at === -1 ? was.length : at;
  const around = (lines: string[]) => lines.slice(Math.max(0, line - 2), line + 3).map((text, index) => `  ${Math.max(0, line - 2) + index + 1}: ${text}`).join('\n');
  return `first difference at line ${line + 1}\ncommitted:\n${around(was)}\ngenerated from the source:\n${around(now)}`;
}

const elementOf = () => {
  const elements = manifest.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.customElement);
  assert.equal(elements.length, 1, `documents ${elements.map((e) => e.tagName ?? e.name).join(', ')}`);
  return elements[0] as Declaration;
};

describe('custom-elements.json', () => {
  it('documents only the public tag, defined by pay-checkout/define', () => {
    const element = elementOf();
    assert.equal(element.tagName, 'pay-checkout');
    assert.ok(manifest.modules.every((module) => !module.path.includes('/internal/')), 'an internal module leaked');
    const definitions = manifest.modules.flatMap((module) => (module.exports ?? []).filter((e) => e.kind === 'custom-element-definition'));
    assert.deepEqual(definitions.map((d) => d.name), ['pay-checkout']);
  });

  it('has the public attributes and events', () => {
    const element = elementOf();
    const attributes = (element.attributes ?? []).map((a) => a.name);
    const prefill = ['id-type', 'id-number', 'phone', 'email', 'first-name', 'last-name'];
    for (const name of ['link', 'api-base', 'environment', 'locale', 'return-url', ...prefill, 'methods', 'amounts', 'privacy-url', 'consent']) {
      assert.ok(attributes.includes(name), `attribute ${name}`);
    }
    // Exactly the public ones: internal reactive state (`flow`, `messages`, `announcement`, `keyRefused`) stays out.
    assert.deepEqual(
      attributes.sort(),
      ['amounts', 'api-base', 'bot-check', 'consent', 'email', 'environment', 'first-name', 'id-number', 'id-type', 'last-name', 'link', 'locale', 'merchant-key', 'methods', 'phone', 'privacy-url', 'return-url', 'store-url', 'theme'],
    );
    // The prefill as one object, for frameworks: a property, never an attribute.
    assert.ok((element.members ?? []).some((m) => m.name === 'shopper'), 'the shopper property');
    for (const part of ['amount-presets', 'amount-preset', 'data-notice', 'consent', 'consent-checkbox', 'privacy-link']) {
      assert.ok((element.cssParts ?? []).some((p) => p.name === part), `part ${part}`);
    }
    assert.deepEqual(
      (element.events ?? []).map((e) => e.name).sort(),
      ['pay-cancelled', 'pay-error', 'pay-failed', 'pay-order-created', 'pay-paid', 'pay-ready', 'pay-status-change'],
    );
    for (const event of element.events ?? []) assert.ok(event.type?.text, `${event.name} has no type`);
  });

  it('has theming: --pay-* custom properties and parts, each described', () => {
    const element = elementOf();
    assert.ok((element.cssProperties ?? []).length > 0 && (element.cssParts ?? []).length > 0);
    for (const property of element.cssProperties ?? []) {
      assert.match(property.name, /^--pay-/);
      assert.ok(property.description, `${property.name} has no description`);
    }
    for (const part of element.cssParts ?? []) assert.ok(part.description, `part ${part.name} has no description`);
  });

  it('points at shipped files, and generates the framework typings and editor data beside it', () => {
    for (const module of manifest.modules) assert.match(module.path, /^dist\/[\w-]+\.js$/, `${module.path} is not a shipped file`);
    const frameworks = path.join(scratch.dir, 'dist', 'frameworks');
    for (const file of ['jsx.d.ts', 'vue.d.ts', 'svelte.d.ts', 'vscode.html-custom-data.json', 'web-types.json']) {
      const text = readFileSync(path.join(frameworks, file), 'utf8');
      assert.ok(text.includes('pay-checkout'), `${file} does not name the tag`);
      assert.ok(!text.includes('merchant-key'), `${file} offers a merchant key`);
    }
    assert.match(readFileSync(path.join(frameworks, 'jsx.d.ts'), 'utf8'), /"onpay-paid"\?: \(e: CustomEvent<PayPaidDetail>\) => void/);
  });

  it('shows no private or static members', () => {
    for (const member of elementOf().members ?? []) {
      assert.ok(!member.static && member.privacy !== 'private' && member.privacy !== 'protected', member.name);
      assert.doesNotMatch(member.name, /^[#_]/);
    }
  });

  it('is the committed custom-elements.json, so the published manifest never drifts from the source', () => {
    const generated = readFileSync(path.join(scratch.dir, 'custom-elements.json'), 'utf8');
    const committed = readFileSync(path.join(repoRoot, 'custom-elements.json'), 'utf8');
    assert.ok(generated === committed, `custom-elements.json is out of date: run \`npm run analyze\` and commit it.\n${firstDifference(committed, generated)}`);
  });
});

describe('the element reference tables (docs/tooling/element-api.mjs)', () => {
  it('lists every attribute, event, custom property and part', () => {
    const element = elementOf();
    const markdown = apiMarkdown(publicElement(manifest)) as string;
    const names = [...(element.attributes ?? []), ...(element.events ?? []), ...(element.cssProperties ?? []), ...(element.cssParts ?? [])].map((x) => x.name);
    for (const name of names) assert.ok(markdown.includes(`| \`${name}\` |`), `${name} is not in a table`);
    assert.doesNotMatch(markdown, /\n\|[^\n]*\n(?!\|)[^\n#<]/, 'a table row broke across lines');
  });

});
