/** `paySandbox()`: serves the sandbox's API, control API and pages from Vite's dev server, on the same port. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
import { sandboxBanner } from './banner.js';
import { nodeFetch } from './node-listener.js';

/** Path prefixes the sandbox answers; everything else stays Vite's (the demo, and later the hosted page). */
export const sandboxPrefixes = ['/v1', '/sandbox', '/onboarding', '/openapi.json'] as const;

const handles = (url: string | undefined) =>
  !!url && sandboxPrefixes.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

/**
 * Vite restarts on an edit to vite.config.ts or a server file, re-importing this module: the sandbox lives on
 * globalThis (a registered Symbol, the same across module copies) so its orders, deliveries and clock survive.
 */
const kept = Symbol.for('pay-checkout.sandbox');
type KeptSandbox = { [kept]?: Sandbox };

/** The process's sandbox: the first call creates it with `options`; restarts reuse it as it is. */
function keptSandbox(options: SandboxOptions = {}): Sandbox {
  const holder = globalThis as KeptSandbox;
  return (holder[kept] ??= createSandbox(options));
}

export function paySandbox(options: SandboxOptions = {}): Plugin {
  let listener: ReturnType<typeof getRequestListener> | undefined;
  // Created on the first server, not for `vite build`, which never serves it.
  const attach = (server: ViteDevServer | PreviewServer) => {
    const sandbox = keptSandbox(options);
    // Node request → web Request → sandbox → Node response, with the body limit enforced while reading.
    listener ??= getRequestListener(nodeFetch(sandbox));
    const serve = listener;
    server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
      if (!handles(req.url)) return next();
      serve(req, res).catch(next);
    });
    server.httpServer?.once('listening', () => {
      const local = server.resolvedUrls?.local[0];
      if (!local) return;
      // The hosts Vite serves at (its --host addresses) are the sandbox's too.
      for (const url of [...(server.resolvedUrls?.local ?? []), ...(server.resolvedUrls?.network ?? [])]) sandbox.guard.serve(url);
      const origin = new URL(local).origin;
      if (!options.publicUrl) sandbox.setPublicUrl(origin);
      sandbox.listeningAt(origin);
      server.config.logger.info(`\n${sandboxBanner(sandbox, options.publicUrl ?? origin)}\n`);
    });
  };
  // No close on buildEnd: a restart closes the old server after the new one took the sandbox over.
  return {
    name: 'pay-checkout-sandbox',
    configureServer: attach,
    configurePreviewServer: attach,
  };
}
