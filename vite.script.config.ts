// The script-tag build: dist/pay-checkout.js registers <pay-checkout> and bundles everything it needs, for
// `<script type="module" src=".../pay-checkout.js">`. qrcode and the `en` catalog stay dynamic imports, so they
// become sibling chunks (dist/pay-checkout.*.js) fetched relative to the script's own URL.
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { browserBuild, compileHint } from './build/vite-base.js';

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

// Target, minification, production Lit and the first screen's plugins come from build/vite-base.ts.
export default defineConfig(browserBuild({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [dropOldScriptChunks()],
  build: {
    outDir: dist,
    // The library build (vite.config.ts) shares dist/ and runs first.
    emptyOutDir: false,
    lib: {
      entry: { 'pay-checkout': fileURLToPath(new URL('./src/script-tag.ts', import.meta.url)) },
      formats: ['es'],
    },
    rolldownOptions: {
      output: {
        entryFileNames: '[name].js',
        postBanner: compileHint({ entry: false }),
        // qrcode's entry is lib/browser.js; name its chunk after the package so the family reads at a glance.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/qrcode/')) ? 'pay-checkout.qrcode-[hash].js' : 'pay-checkout.[name]-[hash].js',
      },
    },
  },
}));
