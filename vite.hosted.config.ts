// The hosted page as static files: dist/hosted/index.html + assets/, every URL relative, so the page works
// under any checkout path with one rewrite rule (everything under it → index.html; see README).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { minifyTemplates } from './scripts/minify-templates.js';
import { pureSchemas } from './scripts/pure-schemas.js';
import { browserTarget } from './scripts/browser-target.js';

export default defineConfig({
  root: fileURLToPath(new URL('./hosted/', import.meta.url)),
  base: './',
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
