// A plain static file server, as any host would serve dist-docs/: files only, no rewrites, at a base path.
import { createServer } from 'node:http';
import path from 'node:path';
import { siteFile } from '../../docs/tooling/static-files.mjs';

/** Serves `dir` under `base` (`/` or `/docs/`) on 127.0.0.1; resolves with its origin and a close function. */
export async function serveStatic(dir, base = '/') {
  const root = path.resolve(dir);
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const found = pathname.startsWith(base) ? await siteFile(root, pathname.slice(base.length)) : null;
    if (!found) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': found.type, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : found.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
