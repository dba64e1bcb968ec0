// Browser tests in one real engine per run, chosen by $ENGINE (chromium when unset; firefox, webkit): Debian's
// browsers, never downloaded (test/harness/engines.mjs); `npm test` runs the engines one after another. TypeScript through
// esbuild with this repo's tsconfig (Lit's experimental decorators), and the real sandbox behind the dev server,
// so tests `fetch('/v1/...')` and `fetch('/sandbox/...')` same-origin.
import { fileURLToPath } from 'node:url';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteerCore from 'puppeteer-core';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { chromiumLaunchOptions } from './test/harness/chromium.mjs';
import { countReporter } from './test/harness/wtr-count-reporter.mjs';
import { currentEngine, firefoxLaunchOptions, freePort, startWebKitDriver, webkitCapabilities } from './test/harness/engines.mjs';
import { startSandbox, proxyMiddleware } from './test/harness/sandbox-process.mjs';
import { ssrMiddleware } from './test/harness/ssr-middleware.mjs';
import { slowChunkMiddleware } from './test/harness/slow-chunk-middleware.mjs';
import { axTreePlugin } from './test/harness/ax-tree-plugin.mjs';

const commonjs = fromRollup(rollupCommonjs);

const engine = currentEngine();

/** One launcher per engine; the browser is started by the runner, WebKitWebDriver (and Xvfb) here. */
async function launcher() {
  // puppeteer-core, never the full `puppeteer`: its install script downloads a Chrome this project never uses.
  if (engine === 'firefox') return chromeLauncher({ puppeteer: puppeteerCore, launchOptions: firefoxLaunchOptions() });
  if (engine === 'webkit') {
    const { hostname, port } = await startWebKitDriver();
    return webdriverLauncher({ hostname, port, logLevel: 'error', capabilities: webkitCapabilities() });
  }
  return playwrightLauncher({ product: 'chromium', launchOptions: chromiumLaunchOptions() });
}

const sandbox = await startSandbox();
if (sandbox) console.log(`[sandbox] ${sandbox.baseUrl} proxied at /v1 and /sandbox`);

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/browser/**/*.test.ts'],
  // A port of its own (not web-test-runner's search from 8000): `npm test` runs engines side by side (test/harness/parts.mjs).
  port: await freePort(),
  // `browser: true` honours package.json "browser" maps (qrcode's lib/index.js -> lib/browser.js, no `fs`).
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  // One file at a time: every file shares one sandbox, whose state tests reset (and WebKitWebDriver holds one session).
  concurrency: 1,
  concurrentBrowsers: 1,
  browserStartTimeout: 120_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  // Generous for a loaded 2-core machine; waits inside tests have their own limits (support/checkout.ts `settleMs`).
  testFramework: { config: { timeout: 60_000 } },
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  browsers: [await launcher()],
  middleware: [...(sandbox ? [proxyMiddleware(sandbox.origin, ['/v1', '/sandbox'])] : []), ssrMiddleware(), slowChunkMiddleware()],
  plugins: [
    // The screen-reader tests read Chromium's accessibility tree through CDP (test/harness/ax-tree-plugin.mjs).
    axTreePlugin(),
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
