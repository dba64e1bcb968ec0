// The hosted page as static files: dist/hosted/index.html + assets/. index.html names its files absolutely under
// /checkout/ (the sandbox's checkout_url), so /checkout/HASH, /checkout/HASH/ and deeper paths all find them with one
// rewrite rule (everything under it → index.html); the scripts import each other relatively, so moving the page to
// another path only means rewriting index.html (configureHostedPage in pay-checkout/sandbox).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { minifyTemplates } from './scripts/minify-templates.js';
import { pureSchemas } from './scripts/pure-schemas.js';
import { browserTarget } from './scripts/browser-target.js';
import { hostedBuildBase } from './src/sandbox/hosted-page.js';

export default defineConfig({
  root: fileURLToPath(new URL('./hosted/', import.meta.url)),
  base: hostedBuildBase,
  // Only the HTML carries the base; chunk imports and preloads resolve from the importing script's own URL.
  experimental: { renderBuiltUrl: (_file, { hostType }) => (hostType === 'html' ? undefined : { relative: true }) },
  publicDir: false,
  plugins: [minifyTemplates(), pureSchemas()],
  build: {
    outDir: fileURLToPath(new URL('./dist/hosted/', import.meta.url)),
    emptyOutDir: true,
    target: browserTarget,
    // Inlined assets would become data: URLs in CSS or scripts; keep every file a file the CSP allows as 'self'.
    assetsInlineLimit: 0,
    // The polyfill is for browsers without modulepreload, which can't run the element anyway.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        minify: true,
        // qrcode's entry is lib/browser.js; name its chunk after the package.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/qrcode/')) ? 'assets/qrcode-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
