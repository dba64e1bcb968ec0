/**
 * The live examples' scripts: the page script (the element, the phone simulator) into assets/live/, and the
 * Service Worker (the sandbox, with the few Node modules it imports replaced by browser shims) into sw.js.
 */
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig } from 'vite';
import { browserTarget } from '../../build/browser-target.js';

const fromRoot = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const misc = fromRoot('docs/live/shims/node-misc.ts');

const common = (outDir: string): InlineConfig => ({
  configFile: false,
  root: fromRoot(''),
  logLevel: 'warn',
  define: { 'process.env.NODE_ENV': '"production"' },
  build: { outDir, emptyOutDir: false, target: browserTarget, sourcemap: false, minify: true, copyPublicDir: false },
});

export async function buildLive(out: string): Promise<void> {
  const page = common(`${out}/assets/live`);
  await build({
    ...page,
    build: {
      ...page.build,
      lib: { entry: fromRoot('docs/live/live.ts'), formats: ['es'], fileName: () => 'live.js' },
      rolldownOptions: { output: { chunkFileNames: '[name]-[hash].js' } },
    },
  });
  const worker = common(out);
  await build({
    ...worker,
    // The sandbox finds its hosted page beside its file; in the worker there is none (its fs shim finds nothing).
    define: { ...worker.define, 'import.meta.url': JSON.stringify('https://sandbox.invalid/sw.js') },
    resolve: {
      alias: [
        { find: 'node:crypto', replacement: fromRoot('docs/live/shims/crypto.ts') },
        { find: /^node:(fs|url|events|path|timers\/promises)$/, replacement: misc },
        { find: /^qrcode$/, replacement: fromRoot('docs/live/shims/qrcode.ts') },
      ],
    },
    build: { ...worker.build, lib: { entry: fromRoot('docs/live/sw.ts'), formats: ['iife'], name: 'paySandboxWorker', fileName: () => 'sw.js' } },
  });
}
