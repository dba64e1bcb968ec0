// `npm start`: the demo (demo/index.html at /) on one port; `npm start -- --port N` picks the port.
// TypeScript goes through Oxc, which reads this repo's tsconfig.json: `experimentalDecorators` and
// `useDefineForClassFields: false` are what Lit's decorators need.
import { defineConfig } from 'vite';
import { paySandbox } from './src/sandbox/vite-plugin.js';

export default defineConfig({
  root: 'demo',
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  plugins: [
    // ── Sandbox plugin goes here (src/sandbox): /v1, /sandbox, /checkout/{hash}, /onboarding on the same port. ──
    paySandbox(),
  ],
  // build: library mode (entry src/index.ts) is added with the package's entry points. Remember: root is demo/,
  // so entry and outDir must be absolute, and library output keeps whitespace unless
  // build.rolldownOptions.output.minify is true.
});
