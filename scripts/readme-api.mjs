#!/usr/bin/env node
// The README's API tables (attributes, events, custom properties, parts) from custom-elements.json, so the
// README can't drift from the element's JSDoc. Prints the Markdown; `--write` puts it between the README's
// `<!-- api:start -->` / `<!-- api:end -->` markers (and says so when the markers are missing).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- api:start -->';
const END = '<!-- api:end -->';

/** One table cell: no line breaks, no unescaped pipes. */
const cell = (text) => (text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
const code = (text) => (text ? `\`${cell(text)}\`` : '');

function table(head, rows) {
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
  return `<!-- Generated from custom-elements.json by scripts/readme-api.mjs (npm run analyze); edit the element's JSDoc instead. -->\n\n${body}\n`;
}

/** The README with `markdown` between the markers, or null when it has none. */
export function replaceBetweenMarkers(readme, markdown) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start + START.length);
  if (start === -1 || end === -1) return null;
  return `${readme.slice(0, start + START.length)}\n${markdown}${readme.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = JSON.parse(readFileSync(`${root}custom-elements.json`, 'utf8'));
  const markdown = apiMarkdown(publicElement(manifest));
  if (!process.argv.includes('--write')) {
    process.stdout.write(markdown);
  } else {
    const readmePath = `${root}README.md`;
    const readme = readFileSync(readmePath, 'utf8');
    const updated = replaceBetweenMarkers(readme, markdown);
    if (updated === null) console.log(`README.md has no ${START} / ${END} markers: API tables not written (print them with \`node scripts/readme-api.mjs\`).`);
    else if (updated === readme) console.log('README.md API tables are up to date.');
    else {
      writeFileSync(readmePath, updated);
      console.log('README.md API tables updated from custom-elements.json.');
    }
  }
}
