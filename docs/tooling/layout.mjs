// The page around every Markdown page: relative links only (the site is served at a host's root and at /docs/),
// a skip link, the navigation by audience, the offline search (pagefind) and, on pages that ask, the live sandbox.
import { htmlPath, nav } from './nav.mjs';

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** `../` once per folder between this page and the site root. */
export const rootOf = (url) => '../'.repeat(Math.max(0, url.split('/').length - 2)) || './';

/** `description` is the page's front matter: each page says in a sentence what it holds (search results, link previews). */
export function renderPage({ content: rendered, page, live, description }) {
  // Code blocks and tables may scroll sideways: a keyboard must reach them.
  const content = rendered.replace(/<(pre|table)>/g, '<$1 tabindex="0">');
  const root = rootOf(page.url);
  const here = page.inputPath.replace(/^.*docs\/site\//, '');
  const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(content)?.[1]?.replace(/<[^>]+>/g, '') ?? 'pay-checkout';
  const sections = nav
    .map(([section, pages]) => {
      const items = pages
        .map(([name, source]) => `<li><a href="${root}${htmlPath(source)}"${source === here ? ' aria-current="page"' : ''}>${escape(name)}</a></li>`)
        .join('');
      return `<li><span class="nav-section">${escape(section)}</span><ul>${items}</ul></li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === 'pay-checkout' ? 'pay-checkout documentation' : `${title} · pay-checkout`}</title>
${description ? `<meta name="description" content="${escape(description)}">` : ''}
<link rel="stylesheet" href="${root}assets/site.css">
<link rel="stylesheet" href="${root}pagefind/pagefind-ui.css">
<link rel="icon" href="${root}assets/favicon.svg" type="image/svg+xml">
<script type="module" src="${root}assets/search.js"></script>
${live ? `<script type="module" src="${root}assets/live/live.js"></script>` : ''}
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="site-header">
<a class="brand" href="${root}index.html">pay-checkout</a>
<div id="search" class="search" data-root="${root}"></div>
</header>
<div class="site">
<nav class="site-nav" aria-label="Documentation"><ul>${sections}</ul></nav>
<main id="content" data-pagefind-body>
${content}
</main>
</div>
</body>
</html>
`;
}
