/** `paySandbox()`: serves the sandbox's API, control API and pages from Vite's dev server, on the same port. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createSandbox, type SandboxOptions } from './app.js';
import { sandboxBanner } from './banner.js';
import { nodeFetch } from './node-listener.js';

/** Path prefixes the sandbox answers; everything else stays Vite's (the demo, and later the hosted page). */
export const sandboxPrefixes = ['/v1', '/sandbox', '/onboarding'] as const;

const handles = (url: string | undefined) =>
  !!url && sandboxPrefixes.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

export function paySandbox(options: SandboxOptions = {}): Plugin {
  const sandbox = createSandbox(options);
  // Node request → web Request → sandbox → Node response, with the body limit enforced while reading.
  const listener = getRequestListener(nodeFetch(sandbox));
  const middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (!handles(req.url)) return next();
    listener(req, res).catch(next);
  };
  const announce = (server: ViteDevServer | PreviewServer) => {
    server.httpServer?.once('listening', () => {
      const local = server.resolvedUrls?.local[0];
      if (!local) return;
      const origin = new URL(local).origin;
      if (!options.publicUrl) sandbox.setPublicUrl(origin);
      server.config.logger.info(`\n${sandboxBanner(sandbox, options.publicUrl ?? origin)}\n`);
    });
  };
  return {
    name: 'pay-checkout-sandbox',
    configureServer(server) {
      server.middlewares.use(middleware);
      announce(server);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
      announce(server);
    },
    async buildEnd() {
      await sandbox.close();
    },
  };
}
