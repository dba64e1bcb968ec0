/**
 * `minifyTemplates()`: a build plugin that squeezes the whitespace out of Lit's `css` and `html` tagged templates
 * in our own sources (their indentation is a tenth of the script-tag file). Only the static text between `${}`
 * changes; what a browser renders does not:
 * - `css`: comments dropped, whitespace runs collapsed, spaces around `{ } ; , :`-after removed, quoted strings kept;
 * - `html`: each whitespace run that holds a line break becomes one space (HTML collapses it so anyway); no
 *   template of ours uses `<pre>` or `<textarea>`, the only places where that would show.
 * Positions move, so the edit goes through rolldown's MagicString and the sourcemap chain stays right.
 */
import { RolldownMagicString } from 'rolldown';
import { parseSync, Visitor, type Plugin } from 'vite';

type Tag = 'css' | 'html';

/** One template quasi's text, minified; `first`/`last` say whether it opens or closes the template. */
export function minifyQuasi(tag: Tag, text: string, first: boolean, last: boolean): string {
  let out = tag === 'css' ? minifyCss(text) : text.replace(/\s*\n\s*/g, ' ');
  if (first) out = out.replace(/^\s+/, '');
  if (last) out = out.replace(/\s+$/, '');
  return out;
}

/** CSS outside quoted strings: no comments, single spaces, none beside punctuation that never needs one. */
function minifyCss(text: string): string {
  return text
    .split(/("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};,])\s*/g, '$1')
            .replace(/:\s+/g, ':')
            .replace(/;}/g, '}'),
    )
    .join('');
}

interface TemplateNode {
  tag: { type: string; name?: string };
  quasi: { quasis: { start: number; end: number; value: { raw: string } }[] };
}

/** The source with every `css`/`html` tagged template minified, or null when it has none. */
export function minifyTemplatesIn(code: string, id: string): RolldownMagicString | null {
  if (!/\b(css|html)`/.test(code)) return null;
  const { program } = parseSync(id, code);
  const s = new RolldownMagicString(code);
  let changed = false;
  new Visitor({
    TaggedTemplateExpression(node: TemplateNode) {
      const tag = node.tag.type === 'Identifier' ? node.tag.name : undefined;
      if (tag !== 'css' && tag !== 'html') return;
      const quasis = node.quasi.quasis;
      quasis.forEach((quasi, i) => {
        // oxc's span covers the delimiters too (the backtick or `}` before, the backtick or `${` after).
        const raw = quasi.value.raw;
        const start = quasi.start + 1;
        const end = start + raw.length;
        if (raw === '' || code.slice(start, end) !== raw) return;
        const min = minifyQuasi(tag, raw, i === 0, i === quasis.length - 1);
        if (min === raw) return;
        if (min === '') s.remove(start, end);
        else s.overwrite(start, end, min);
        changed = true;
      });
    },
  } as ConstructorParameters<typeof Visitor>[0]).visit(program);
  return changed ? s : null;
}

export function minifyTemplates(): Plugin {
  return {
    name: 'pay-checkout-minify-templates',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]src[\\/].*\.ts$/ },
      handler(code, id) {
        const result = minifyTemplatesIn(code, id);
        return result ? { code: result } : null;
      },
    },
  };
}
