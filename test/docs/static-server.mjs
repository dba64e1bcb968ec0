// A plain static file server, as any host would serve dist-docs/: files only, no rewrites, at a base path.
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm',
};

/** Serves `dir` under `base` (`/` or `/docs/`) on 127.0.0.1; resolves with its origin and a close function. */
export async function serveStatic(dir, base = '/') {
  const root = path.resolve(dir);
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = pathname.startsWith(base) ? path.join(root, pathname.slice(base.length)) : null;
    const target = file && file.startsWith(root) ? ((await stat(file).catch(() => null))?.isDirectory() ? path.join(file, 'index.html') : file) : null;
    const body = target ? await readFile(target).catch(() => null) : null;
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(target)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
