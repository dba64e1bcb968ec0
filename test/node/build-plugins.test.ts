/**
 * The two build transforms of the browser builds: whitespace out of Lit's `css`/`html` templates, and unused
 * contract schemas made droppable. Both must change bytes only, never what a template renders or a schema checks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSync } from 'vite';
import { minifyQuasi, minifyTemplatesIn } from '../../build/minify-templates.js';
import { markPureSchemas } from '../../build/pure-schemas.js';

describe('minifyTemplates', () => {
  it('css: drops comments and indentation, keeps quoted strings, combinators and calc() spacing', () => {
    const css = `
  /* the frame */
  :host {
    --pay-font: system-ui, 'Segoe  UI', sans-serif;
    padding: calc(var(--pay-space, 1rem) * 2);
  }
  .a .b > c,
  .d:hover {
    color: red;
  }
`;
    assert.equal(
      minifyQuasi('css', css, true, true),
      ":host{--pay-font:system-ui,'Segoe  UI',sans-serif;padding:calc(var(--pay-space,1rem) * 2)}.a .b > c,.d:hover{color:red}",
    );
  });

  it('html: a whitespace run with a line break becomes one space; the template edges are trimmed', () => {
    const html = `
      <p class="a">
        <span>Total</span> <strong>x</strong>
      </p>
    `;
    assert.equal(minifyQuasi('html', html, true, true), '<p class="a"> <span>Total</span> <strong>x</strong> </p>');
    // Between two expressions the space stays: it is text the buyer sees.
    assert.equal(minifyQuasi('html', ' \n  ', false, false), ' ');
  });

  it('touches only css`` and html`` templates, and leaves their expressions alone', () => {
    const source = [
      'const s = css`\n  p {\n    margin: 0;\n  }\n`;',
      'const t = html`<p>\n  ${a ? html`<b>\n  x</b>` : `keep  \n  me`}\n</p>`;',
      'const u = other`\n  untouched\n`;',
    ].join('\n');
    const out = minifyTemplatesIn(source, 'x.ts')?.toString() ?? '';
    assert.equal(
      out,
      ['const s = css`p{margin:0}`;', 'const t = html`<p> ${a ? html`<b> x</b>` : `keep  \n  me`} </p>`;', 'const u = other`\n  untouched\n`;'].join('\n'),
    );
    assert.doesNotThrow(() => parseSync('x.ts', out));
    assert.equal(minifyTemplatesIn('const n = `plain\n  text`;', 'x.ts'), null);
  });
});

describe('pureSchemas', () => {
  it('marks every zod call of a module-level declaration, nested ones and .check() chains too', () => {
    const out = markPureSchemas("export const S = z.object({ a: z.optional(z.string().check(z.minLength(1))) });", 'c.ts')?.toString() ?? '';
    assert.equal(
      out,
      'export const S = /* @__PURE__ */ z.object({ a: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1))) });',
    );
  });

  it('leaves calls inside callbacks, z.config, functions and already marked calls alone', () => {
    const source = [
      'z.config({ jitless: true });',
      'export const T = /* @__PURE__ */ z.pipe(z.string(), z.transform((s) => z.string().parse(s)));',
      'export function dataOf(s) { return z.object({ data: s }); }',
    ].join('\n');
    const out = markPureSchemas(source, 'c.ts')?.toString() ?? '';
    assert.ok(out.startsWith('z.config({ jitless: true });'), out);
    assert.ok(out.includes('(s) => z.string().parse(s)'), 'a call in a callback runs later: not marked');
    assert.ok(out.includes('/* @__PURE__ */ z.pipe(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.transform('), out);
    assert.ok(!out.includes('/* @__PURE__ */ /* @__PURE__ */ z.pipe'), 'marked once');
    assert.ok(out.includes('return z.object({ data: s });'), 'a function body is not a module-level declaration');
    assert.equal(markPureSchemas('export const n = 1;', 'c.ts'), null);
  });
});
