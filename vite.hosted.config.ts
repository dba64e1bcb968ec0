// The hosted page as static files: dist/hosted/index.html + assets/. index.html names its entry absolutely under
// /checkout/ (the sandbox's checkout_url), so /checkout/HASH, /checkout/HASH/ and deeper paths all find it with one
// rewrite rule (everything under it → index.html); the scripts import each other relatively, so moving the page to
// another path only means rewriting index.html (configureHostedPage in pay-checkout/server/hosted-page).
// Built in library mode, like the script tag: an app build wraps every dynamic import in Vite's preload helper,
// script the first interactive screen would carry for chunks it never needs before it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { browserBuild, compileHint } from './build/vite-base.js';
import { entryByGlobal } from './build/entry-by-global.js';
import { withPageStyle } from './build/hosted-page-style.js';
import { hostedBuildBase } from './src/server/hosted-page/deploy.js';

const hosted = (file: string) => fileURLToPath(new URL(`./hosted/${file}`, import.meta.url));

/** Writes index.html with the built entry (under `hostedBuildBase`) in place of hosted/index.html's `./main.ts`. */
function hostedPage(): Plugin {
  return {
    name: 'pay-checkout-hosted-page-html',
    apply: 'build',
    generateBundle(_, bundle) {
      const entry = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry);
      if (!entry) throw new Error('the hosted build produced no entry chunk');
      // The link schemas' chunk is fetched beside the entry, not after it: the first interactive screen waits for it.
      const schemas = Object.values(bundle).find((item) => item.type === 'chunk' && item !== entry && item.moduleIds.some((id) => /\/src\/client\/(checkout-link|link-reader-lite)\.ts$/.test(id)));
      const preload = schemas ? `\n    <link rel="modulepreload" href="${hostedBuildBase}${schemas.fileName}" />` : '';
      const html = withPageStyle(readFileSync(hosted('index.html'), 'utf8')).replace(/( *)<script type="module" src="\.\/main\.ts"><\/script>/, (line) => line.replace('./main.ts', `${hostedBuildBase}${entry.fileName}`) + preload);
      if (html.includes('main.ts')) throw new Error('hosted/index.html no longer names ./main.ts');
      this.emitFile({ type: 'asset', fileName: 'index.html', source: withoutComments(html) });
    },
  };
}

/**
 * The page without the source's comments, which are for whoever edits it, not for the buyer (nor the bytes of a
 * phone's first round trip): every `<!-- … -->` goes with its line. The page has no conditional comment or other
 * comment a browser reads; one that ever carries meaning would be kept here by name.
 */
function withoutComments(html: string): string {
  return html.replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*\n/gm, '').replace(/<!--[\s\S]*?-->/g, '');
}

/**
 * The link reader (client/checkout-link.ts, made lite by liteLinkCheck) in the entry, not a chunk of its own: a hosted
 * page always reads a link before its first screen, and a server-rendered page carries the entry in itself, where a
 * separate chunk would be a round trip on the way to the first interactive screen. The script-tag build keeps it apart.
 */
function linkReaderInEntry(): Plugin {
  const dynamicImport = "linkCheck ??= import('../../client/checkout-link.js')";
  return {
    name: 'pay-checkout-hosted-link-reader-in-entry',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/element/internal/link-request.ts')) return;
      if (!code.includes(dynamicImport)) this.error(`link-request.ts no longer has ${dynamicImport}`);
      // Named, not a namespace import: a namespace object would pull Rolldown's runtime into a chunk of its own.
      return `import { readLinkAnswer, pageLink } from '../../client/checkout-link.js';\n${code.replace(dynamicImport, 'linkCheck ??= Promise.resolve({ readLinkAnswer, pageLink })')}`;
    },
  };
}

// Target, minification, production Lit and the first screen's plugins come from build/vite-base.ts, as for the script tag.
export default defineConfig(browserBuild({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  plugins: [linkReaderInEntry(), entryByGlobal(), hostedPage()],
  build: {
    outDir: fileURLToPath(new URL('./dist/hosted/', import.meta.url)),
    emptyOutDir: true,
    // Inlined assets would become data: URLs in CSS or scripts; keep every file a file the CSP allows as 'self'.
    assetsInlineLimit: 0,
    lib: { entry: { main: hosted('main.ts') }, formats: ['es'] },
    rolldownOptions: {
      output: {
        postBanner: compileHint({ entry: true }),
        entryFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        // qrcode's entry is lib/browser.js; name its chunk after the package.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/qrcode/')) ? 'assets/qrcode-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
}));
