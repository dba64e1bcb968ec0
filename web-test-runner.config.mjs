// Browser tests: real Chromium (never downloaded: Debian's /usr/bin/chromium or $CHROME_PATH),
// TypeScript through esbuild with this repo's tsconfig (Lit's experimental decorators), and the real
// sandbox behind the dev server, so tests `fetch('/v1/...')` and `fetch('/sandbox/...')` same-origin.
import { fileURLToPath } from 'node:url';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';
import { startSandbox, proxyMiddleware } from './scripts/sandbox-process.mjs';

const commonjs = fromRollup(rollupCommonjs);

const sandbox = await startSandbox();
if (sandbox) console.log(`[sandbox] ${sandbox.baseUrl} proxied at /v1 and /sandbox`);

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/browser/**/*.test.ts'],
  // `browser: true` honours package.json "browser" maps (qrcode's lib/index.js -> lib/browser.js, no `fs`).
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  // One file at a time: every file shares one sandbox, whose state tests reset.
  concurrency: 1,
  concurrentBrowsers: 1,
  browserStartTimeout: 120_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 20_000 } },
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions(),
    }),
  ],
  middleware: sandbox ? [proxyMiddleware(sandbox.origin, ['/v1', '/sandbox'])] : [],
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)), target: 'es2022' }),
    // qrcode 1.5 ships CommonJS only (its browser build needs dijkstrajs, also CommonJS).
    // React 19 is CommonJS too and picks its build by process.env.NODE_ENV (pay-checkout/react's test).
    {
      name: 'react-node-env',
      transform(context) {
        if (/\/node_modules\/(react|react-dom|scheduler)\//.test(context.path) && typeof context.body === 'string') {
          return { body: context.body.replace(/process\.env\.NODE_ENV/g, JSON.stringify('development')) };
        }
      },
    },
    commonjs({
      include: [
        '**/node_modules/qrcode/**',
        '**/node_modules/dijkstrajs/**',
        '**/node_modules/react/**',
        '**/node_modules/react-dom/**',
        '**/node_modules/scheduler/**',
      ],
    }),
  ],
  reporters: [defaultReporter(), countReporter()],
};
