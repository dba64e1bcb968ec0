// The script-tag build: dist/pay-checkout.js registers <pay-checkout> and bundles everything it needs, for
// `<script type="module" src=".../pay-checkout.js">`. qrcode and the `en` catalog stay dynamic imports, so they
// become sibling chunks (dist/pay-checkout.*.js) fetched relative to the script's own URL.
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { minifyTemplates } from './build/minify-templates.js';
import { ownOrderSchemas } from './build/own-order-schemas.js';
import { liteLinkCheck } from './build/lite-link-check.js';
import { pureSchemas } from './build/pure-schemas.js';
import { browserTarget } from './build/browser-target.js';

const dist = fileURLToPath(new URL('./dist/', import.meta.url));
export const scriptFamily = /^pay-checkout(\.[\w-]+)?\.js(\.map)?$/;

/** Earlier builds' lazy chunks have other hashes; drop them so the output holds one coherent script family. */
function dropOldScriptChunks(): Plugin {
  let outDir = dist;
  return {
    name: 'pay-checkout-drop-old-script-chunks',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.endsWith('/') ? config.build.outDir : `${config.build.outDir}/`;
    },
    buildStart() {
      let files: string[] = [];
      try {
        files = readdirSync(outDir);
      } catch {
        return;
      }
      for (const file of files) if (scriptFamily.test(file)) rmSync(`${outDir}${file}`, { force: true });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Lit and the libraries read the production condition; nothing here reads NODE_ENV at runtime after this.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [liteLinkCheck(), dropOldScriptChunks(), minifyTemplates(), pureSchemas(), ownOrderSchemas()],
  build: {
    outDir: dist,
    // The library build (vite.config.ts) shares dist/ and runs first.
    emptyOutDir: false,
    target: browserTarget,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: { 'pay-checkout': fileURLToPath(new URL('./src/define.ts', import.meta.url)) },
      formats: ['es'],
    },
    rolldownOptions: {
      // Library mode keeps the entry's exports strict, which forces code shared with lazy chunks into a third file
      // (one more request before the first screen); let the entry export it to them instead.
      preserveEntrySignatures: 'allow-extension',
      output: {
        minify: true,
        // The last build these files go through: no pure annotations (no later bundler reads them); licences are in
        // the third-party notices, as before.
        comments: false,
        entryFileNames: '[name].js',
        // qrcode's entry is lib/browser.js; name its chunk after the package so the family reads at a glance.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/qrcode/')) ? 'pay-checkout.qrcode-[hash].js' : 'pay-checkout.[name]-[hash].js',
      },
    },
  },
});
