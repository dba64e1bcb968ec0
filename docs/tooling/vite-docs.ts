/**
 * `docsSitePlugin()`: in `npm start`, the documentation site at `/docs/`, served from dist-docs/ as any static host
 * would; the first request builds it (`npm run docs:build`) when it was never built. Its live checkouts pay against
 * the site's own Service Worker sandbox at `/docs/v1` and `/docs/sandbox`, exactly as on a static host; the real
 * sandbox of `npm start` stays at `/v1` and `/sandbox`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { siteFile } from './static-files.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist-docs`;

let building: Promise<void> | undefined;

/** One build at a time, shared by every request that arrives while it runs. */
function built(log: (line: string) => void): Promise<void> {
  if (existsSync(`${site}/index.html`)) return Promise.resolve();
  building ??= new Promise<void>((resolve, reject) => {
    log('docs: dist-docs/ is missing, running npm run docs:build (about a minute)');
    const child = spawn('npm', ['run', 'docs:build'], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run docs:build exited with ${code}`))));
  }).finally(() => {
    building = undefined;
  });
  return building;
}

export function docsSitePlugin(prefix = '/docs/'): Plugin {
  return {
    name: 'pay-checkout-docs-site',
    apply: 'serve',
    configureServer(server) {
      const log = (line: string) => server.config.logger.info(line);
      server.middlewares.use((req, res, next) => {
        const pathname = (req.url ?? '').split(/[?#]/)[0] ?? '';
        if (pathname === prefix.slice(0, -1)) {
          res.writeHead(301, { Location: prefix }).end();
          return;
        }
        if (!pathname.startsWith(prefix) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        built(log)
          .then(() => siteFile(site, decodeURIComponent(pathname.slice(prefix.length))))
          .then((found) => {
            // Nothing under /docs/ falls through to the demo: a missing file is a 404, as on a static host.
            if (!found) return void res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
            res.writeHead(200, { 'Content-Type': found.type, 'Cache-Control': 'no-store' });
            res.end(req.method === 'HEAD' ? undefined : found.body);
          })
          .catch(next);
      });
    },
  };
}
