// The hosted page as static files: dist/hosted/index.html + assets/, every URL relative, so the page works
// under any checkout path with one rewrite rule (everything under it → index.html; see README).
// Built in library mode, like the script tag: an app build wraps every dynamic import in Vite's preload helper,
// script the first interactive screen would carry for chunks it never needs before it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { minifyTemplates } from './scripts/minify-templates.js';
import { ownOrderSchemas } from './scripts/own-order-schemas.js';
import { pureSchemas } from './scripts/pure-schemas.js';

const hosted = (file: string) => fileURLToPath(new URL(`./hosted/${file}`, import.meta.url));

/** Writes index.html with the built entry in place of hosted/index.html's `./main.ts`. */
function hostedPage(): Plugin {
  return {
    name: 'pay-checkout-hosted-page-html',
    apply: 'build',
    generateBundle(_, bundle) {
      const entry = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry);
      if (!entry) throw new Error('the hosted build produced no entry chunk');
      const html = readFileSync(hosted('index.html'), 'utf8').replace('src="./main.ts"', `src="./${entry.fileName}"`);
      if (html.includes('main.ts')) throw new Error('hosted/index.html no longer names ./main.ts');
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [minifyTemplates(), pureSchemas(), ownOrderSchemas(), hostedPage()],
  build: {
    outDir: fileURLToPath(new URL('./dist/hosted/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    copyPublicDir: false,
    lib: { entry: { main: hosted('main.ts') }, formats: ['es'] },
    rolldownOptions: {
      // As in the script build: shared code stays in the entry instead of a third file fetched before the first screen.
      preserveEntrySignatures: 'allow-extension',
      output: {
        minify: true,
        entryFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        // qrcode's entry is lib/browser.js; name its chunk after the package.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/qrcode/')) ? 'assets/qrcode-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
