/**
 * The browser's files for `pay-checkout serve`, from the installed package's `dist/`: the element's script
 * (`/pay-checkout.js` and its lazy chunks `/pay-checkout.*-HASH.js`) for the shop's pages, and the hosted page's files
 * under `/checkout/`. Read once at start; each compressed once (br and gzip, chosen by `Accept-Encoding`), when first
 * asked for. Names with a content hash never change, so they are cached for a year (`immutable`); `/pay-checkout.js`
 * itself for five minutes, so a new version reaches the shop's pages soon after an upgrade.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export const assetCache = {
  /** A name with a content hash: its bytes never change. */
  immutable: 'public, max-age=31536000, immutable',
  /** `/pay-checkout.js`: the one name the shop's pages write; a new version is picked up within five minutes. */
  entry: 'public, max-age=300',
  /** Any other file without a hash in its name. */
  other: 'public, max-age=3600',
} as const;

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const compressible = new Set(['.js', '.css', '.html', '.json', '.svg', '.txt', '.webmanifest', '.ico']);
/** Rolldown's `[hash]`: eight characters after a dash, before the extension. */
const hashedName = /-[\w-]{8}\.[a-z0-9]+$/i;
/** The script-tag build's family: the entry and its lazy chunks (vite.script.config.ts). */
const scriptFamily = /^pay-checkout(\.[\w-]+)?\.js$/;

export interface Asset {
  type: string;
  cacheControl: string;
  body: Uint8Array;
  etag: string;
  /** Compressed forms, made on first ask and kept. */
  encoded: Map<'br' | 'gzip', Promise<Uint8Array>>;
  compressible: boolean;
}

/**
 * The package's `dist/` beside this file: the bundled CLI sits in `dist/` or `dist/chunks/`, the sources three
 * levels below the repository. Undefined where no build is there.
 */
export function findDist(configured?: string): string | undefined {
  const candidates = configured ? [configured] : ['./', '../', '../../../dist/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.map((dir) => path.resolve(dir)).find((dir) => existsSync(path.join(dir, 'pay-checkout.js')) && existsSync(path.join(dir, 'hosted', 'index.html')));
}

function asset(file: string, body: Uint8Array, cacheControl: string): Asset {
  const ext = path.extname(file);
  return {
    type: types[ext] ?? 'application/octet-stream',
    cacheControl,
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    encoded: new Map(),
    compressible: compressible.has(ext) && body.byteLength >= 1_024,
  };
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.isFile() && !entry.name.endsWith('.map') ? [full] : [];
  });

/**
 * `apiBaseLine`: a statement put into `/pay-checkout.js` after its compile hint, which tells the element where its
 * buyer API is (the script's own server) unless the page sets `api-base`.
 */
export function loadAssets(dist: string, { apiBaseLine }: { apiBaseLine: string }): Map<string, Asset> {
  const files = new Map<string, Asset>();
  for (const name of readdirSync(dist)) {
    if (!scriptFamily.test(name) || !statSync(path.join(dist, name)).isFile()) continue;
    let body: Uint8Array = readFileSync(path.join(dist, name));
    if (name === 'pay-checkout.js') body = Buffer.from(withStatement(Buffer.from(body).toString('utf8'), apiBaseLine));
    files.set(`/${name}`, asset(name, body, name === 'pay-checkout.js' ? assetCache.entry : hashedName.test(name) ? assetCache.immutable : assetCache.other));
  }
  const hosted = path.join(dist, 'hosted');
  for (const file of walk(hosted)) {
    const rel = path.relative(hosted, file).split(path.sep).join('/');
    // The page itself is drawn per link (hosted-route.ts), never sent as a file.
    if (rel === 'index.html') continue;
    files.set(`/checkout/${rel}`, asset(file, readFileSync(file), hashedName.test(rel) ? assetCache.immutable : assetCache.other));
  }
  return files;
}

/** `script` with `statement` first, after the leading compile-hint comment that must stay on the first line. */
function withStatement(script: string, statement: string): string {
  const hint = /^\/\/# allFunctionsCalledOnLoad\n/.exec(script)?.[0] ?? '';
  return `${hint}${statement}\n${script.slice(hint.length)}`;
}

/** The encoding to send for this `Accept-Encoding`: br first, then gzip, else none. */
export function encodingFor(accept: string | null): 'br' | 'gzip' | undefined {
  if (!accept) return undefined;
  const offered = new Map(
    accept.split(',').map((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return [name.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const takes = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : undefined;
}

/** The body in `encoding`, compressed once per file (kept for every later ask). */
export function encoded(file: Asset, encoding: 'br' | 'gzip'): Promise<Uint8Array> {
  let pending = file.encoded.get(encoding);
  if (!pending) {
    pending =
      encoding === 'br'
        ? brotli(file.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.byteLength } })
        : gzipped(file.body, { level: 9 });
    file.encoded.set(encoding, pending);
  }
  return pending;
}

/** Every compressible file in both encodings, so no buyer waits for the first compression of a file. */
export async function precompress(files: Map<string, Asset>): Promise<void> {
  for (const file of files.values()) {
    if (!file.compressible) continue;
    await encoded(file, 'br');
    await encoded(file, 'gzip');
  }
}
