// `npm start`: the demo (demo/index.html at /) on one port; `npm start -- --port N` picks the port.
// TypeScript goes through Oxc, which reads this repo's tsconfig.json: `experimentalDecorators` and
// `useDefineForClassFields: false` are what Lit's decorators need.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { paySandbox } from './src/sandbox/vite-plugin.js';
import { examplePagesPlugin, hostedPagePlugin } from './build/vite-hosted.js';
import { docsSitePlugin } from './docs/tooling/vite-docs.js';
import { libraryBuild } from './build/vite-base.js';

const fromRoot = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** `pay-checkout/<name>` → source entry (design.md §2). `index` is the bare `pay-checkout`. */
const packageEntries: Record<string, string> = {
  index: 'src/index.ts',
  define: 'src/define.ts',
  contract: 'src/contract/index.ts',
  client: 'src/client/index.ts',
  webhooks: 'src/webhooks/index.ts',
  server: 'src/server/index.ts',
  // Lit SSR of the hosted page: its own subpath, so pay-checkout/server never names @lit-labs/ssr (edge bundlers).
  'server-hosted-page': 'src/server/hosted-page/index.ts',
  // Its own file, so only a server that imports it ever resolves `redis` (an optional peer).
  'server-redis': 'src/server/redis/index.ts',
  'server-postgres': 'src/server/postgres/index.ts',
  sandbox: 'src/sandbox/index.ts',
  react: 'src/react.ts',
  // The `bin` (npx pay-checkout sandbox), over the sandbox entry.
  cli: 'src/cli.ts',
};

// Dependencies and peers stay imports for the merchant's bundler; node builtins only matter to server/sandbox.
// Bundled instead: hono and @hono/node-server into the sandbox (their only user), so a browser-only install never
// gets them; @lit/react (1 KB) into pay-checkout/react, so React users install nothing more than React.
const externalPackages = ['lit', 'zod', 'qrcode', 'react', 'redis', 'pg', 'rate-limiter-flexible', '@lit-labs/ssr'];
const isExternal = (id: string) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  externalPackages.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig(libraryBuild({
  root: 'demo',
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  plugins: [
    // ── Sandbox plugin goes here (src/sandbox): /v1, /sandbox, /checkout/{hash}, /onboarding on the same port. ──
    paySandbox(),
    // The hosted page (hosted/index.html) at /checkout/{hash}, as `npm run sandbox` serves dist/hosted/.
    hostedPagePlugin(),
    // The plugin-author examples at /examples/NAME.html (examples/ is outside the demo root).
    examplePagesPlugin(),
    // The documentation site (dist-docs/, built on the first request if missing) at /docs/.
    docsSitePlugin(),
    // build/vite-base.ts adds the template and schema transforms every build runs.
  ],
  // `vite build`: the ESM library for bundlers (dist/*.js, one file per subpath export). The script-tag file and the
  // hosted page are vite.script.config.ts and vite.hosted.config.ts; `npm run build` runs all three.
  // root is demo/, so entries and outDir are absolute.
  build: {
    outDir: fromRoot('dist'),
    emptyOutDir: true,
    lib: {
      // An entry whose source is not written yet is skipped, so the rest still builds (build-exports test catches it).
      entry: Object.fromEntries(
        Object.entries(packageEntries)
          .filter(([, file]) => existsSync(fromRoot(file)))
          .map(([name, file]) => [name, fromRoot(file)]),
      ),
      formats: ['es'],
    },
    rolldownOptions: {
      external: isExternal,
      output: {
        entryFileNames: '[name].js',
        // pay-checkout/react is a client boundary for React Server Components (Next.js App Router): the directive
        // must open the file, after minification, which would drop it as an unused string.
        postBanner: (chunk) => (chunk.isEntry && chunk.name === 'react' ? "'use client';" : ''),
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
}));
