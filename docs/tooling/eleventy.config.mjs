// Eleventy turns docs/site/*.md into dist-docs/*.html: GitHub-style heading ids, `.md` links rewritten to `.html`
// (so the sources link correctly on GitHub too), generated reference sections, one layout.
import { readFileSync } from 'node:fs';
import { renderPage } from './layout.mjs';
import { elementReference, httpReference, playground } from './generated.mjs';

const repo = new URL('../../', import.meta.url);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens (as test/node/readme-links.test.ts). */
export const slug = (heading) =>
  heading.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function headingIds(md) {
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open' || token.attrGet('id')) return;
      const base = slug(state.tokens[i + 1].children.map((child) => child.content).join(''));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      token.attrSet('id', count === 0 ? base : `${base}-${count}`);
    });
  });
}

function mdLinksToHtml(md) {
  const original = md.renderer.rules.link_open ?? ((tokens, i, options, env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const href = tokens[i].attrGet('href') ?? '';
    if (!/^[a-z]+:/i.test(href) && !href.startsWith('/')) tokens[i].attrSet('href', href.replace(/\.md(#|$)/, '.html$1'));
    return original(tokens, i, options, env, self);
  };
}

/** Width and height of a PNG, from its IHDR chunk; undefined for a file that is not one. */
function pngSize(file) {
  const bytes = readFileSync(file);
  if (bytes.length < 24 || bytes.toString('latin1', 1, 4) !== 'PNG') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * Screenshots carry their own width and height, so the page keeps their room before they arrive instead of moving
 * under the reader (the layout shift Lighthouse counts), and load lazily, since most are below the fold.
 */
function imageSizes(md) {
  const original = md.renderer.rules.image;
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const name = /(?:^|\/)screenshots\/([\w.-]+\.png)$/.exec(token.attrGet('src') ?? '')?.[1];
    const size = name ? pngSize(new URL(`docs/screenshots/${name}`, repo)) : undefined;
    if (size) {
      token.attrSet('width', String(size.width));
      token.attrSet('height', String(size.height));
    }
    token.attrSet('loading', 'lazy');
    token.attrSet('decoding', 'async');
    return original(tokens, i, options, env, self);
  };
}

/** `<!-- generated: NAME -->` and `<!-- include: FILE -->` markers, filled before the Markdown is rendered. */
function fillMarkers(content, { openapiFile }) {
  return content
    .replace('<!-- generated: element -->', () => elementReference(readJson(new URL('custom-elements.json', repo))))
    .replace('<!-- generated: playground -->', () => playground(readJson(new URL('custom-elements.json', repo))))
    .replace('<!-- generated: openapi -->', () => httpReference(readJson(openapiFile)))
    .replace(/<!-- include: ([\w/.-]+) -->/g, (_m, file) => readFileSync(new URL(file, repo), 'utf8').replace(/^# .*\n/, ''));
}

export default function (eleventyConfig) {
  const openapiFile = process.env.DOCS_OPENAPI ?? new URL('dist-docs/openapi.json', repo).pathname;
  eleventyConfig.amendLibrary('md', (md) => {
    md.set({ html: true, linkify: false });
    md.use(headingIds).use(mdLinksToHtml).use(imageSizes);
  });
  eleventyConfig.addPreprocessor('generated', 'md', (_data, content) => fillMarkers(content, { openapiFile }));
  eleventyConfig.addGlobalData('layout', 'page.11ty.js');
  // Pages with live checkouts or the playground load the live script (and with it the Service Worker sandbox).
  eleventyConfig.addGlobalData('eleventyComputed', { permalink: (data) => `${data.page.filePathStem}.html`, live: (data) => /class="(live-example|playground)"|generated: playground/.test(data.page.rawInput ?? '') });
  eleventyConfig.addTemplateFormats('11ty.js');
  eleventyConfig.addPassthroughCopy({ 'docs/screenshots/*.png': 'screenshots', 'docs/site-assets': 'assets' });
  eleventyConfig.ignores.add('docs/site/**/README.md');
  return {
    dir: { input: 'docs/site', output: 'dist-docs', includes: '../site-layouts' },
    markdownTemplateEngine: false,
    htmlTemplateEngine: false,
  };
}

export { renderPage };
