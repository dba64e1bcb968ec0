// The built site's files as a static host serves them: a path under the site's root to a file, a directory to its
// index.html, the content type from the extension. Shared by `npm start` (/docs/) and the docs test's plain server.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm',
};

/** `relative` (URL-decoded, from the site's root) in `root`: its bytes and type, or null outside root or missing. */
export async function siteFile(root, relative) {
  const file = path.join(root, relative);
  if (file !== root && !file.startsWith(`${root}${path.sep}`)) return null;
  const target = (await stat(file).catch(() => null))?.isDirectory() ? path.join(file, 'index.html') : file;
  const body = await readFile(target).catch(() => null);
  return body ? { body, type: types[path.extname(target)] ?? 'application/octet-stream' } : null;
}
