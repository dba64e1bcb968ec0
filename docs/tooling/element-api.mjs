// The element's API tables (attributes, events, custom properties, parts, slots) from custom-elements.json, so the
// site's element reference can't drift from the element's JSDoc; the site's generated pages share its table helpers.
// `node docs/tooling/element-api.mjs` prints the Markdown.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One table cell: no line breaks, no unescaped pipes. */
export const cell = (text) => String(text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
export const code = (text) => (text ? `\`${cell(text)}\`` : '');

export function table(head, rows) {
  if (rows.length === 0) return '';
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The public element's declaration: the one custom element the manifest documents. */
export function publicElement(manifest, tagName = 'pay-checkout') {
  for (const module of manifest.modules ?? []) {
    for (const declaration of module.declarations ?? []) {
      if (declaration.customElement && declaration.tagName === tagName) return declaration;
    }
  }
  throw new Error(`custom-elements.json documents no <${tagName}>; run \`npm run analyze\`.`);
}

export function apiMarkdown(element) {
  const sections = [
    [
      'Attributes',
      table(
        ['attribute', 'property', 'type', 'default', 'description'],
        (element.attributes ?? []).map((a) => [code(a.name), code(a.fieldName), code(a.type?.text), code(a.default), cell(a.description)]),
      ),
    ],
    [
      'Events',
      table(
        ['event', 'type', 'description'],
        (element.events ?? []).map((e) => [code(e.name), code(e.type?.text), cell(e.description)]),
      ),
    ],
    [
      'CSS custom properties',
      table(
        ['property', 'default', 'description'],
        (element.cssProperties ?? []).map((p) => [code(p.name), code(p.default), cell(p.description)]),
      ),
    ],
    ['CSS parts', table(['part', 'description'], (element.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]))],
    ['Slots', table(['slot', 'description'], (element.slots ?? []).map((s) => [code(s.name || '(default)'), cell(s.description)]))],
  ];
  const body = sections
    .filter(([, markdown]) => markdown)
    .map(([title, markdown]) => `#### ${title}\n\n${markdown}`)
    .join('\n\n');
  return `<!-- Generated from custom-elements.json by docs/tooling/element-api.mjs when the site is built; edit the element's JSDoc instead. -->\n\n${body}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(apiMarkdown(publicElement(JSON.parse(readFileSync(`${root}custom-elements.json`, 'utf8')))));
}
