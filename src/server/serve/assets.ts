/**
 * The browser's files for `pay-checkout serve`, from the installed package's `dist/`: the element's script
 * (`/pay-checkout.js` and its lazy chunks `/pay-checkout.*-HASH.js`) for the shop's pages, and the hosted page's files
 * under `/checkout/`. Read once at start; each compressed once (br and gzip, chosen by `Accept-Encoding`), when first
 * asked for. Names with a content hash never change, so they are cached for a year (`immutable`); `/pay-checkout.js`
 * itself for five minutes, so a new version reaches the shop's pages soon after an upgrade. The hashed files of the
 * versions before stay served for a week (`keepAssets`): a page loaded under one of them still finds its chunks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

/** How long an earlier version's hashed files stay served after the last start that served them as its own. */
export const keptAssetsMs = 7 * 24 * 60 * 60 * 1000;

/**
 * Where an installed package keeps its hashed files for the versions after it: `node_modules/.cache/pay-checkout/assets`
 * beside the package, the folder build tools keep their caches in (`npm install` of a new version leaves it, and only
 * who installed the package writes there). None for a dist/ outside node_modules (a checkout of this repository).
 */
export function keptAssetsDir(dist: string): string | undefined {
  const parts = path.resolve(dist).split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  return at < 1 ? undefined : path.join(parts.slice(0, at + 1).join(path.sep), '.cache', 'pay-checkout', 'assets');
}

/** A kept file's URL path may be served again: a hashed name of the script's family, or of the hosted page's files. */
const keepable = (urlPath: string) => hashedName.test(urlPath) && (scriptFamily.test(urlPath.slice(1)) || /^\/checkout\/[\w./-]+$/.test(urlPath)) && !urlPath.includes('..');

/**
 * Keeps this version's hashed files in `dir` (each file's time: this start), then adds to `files` what earlier versions
 * kept there within `keptAssetsMs`, deleting older ones. After an upgrade, a buyer's page still running the earlier
 * script (or holding it from a cache for its five minutes) finds the chunks it asks for; the element's own reload
 * (element/internal/new-build.ts) is for a server that has lost them. Each file is written under a temporary name and
 * renamed, so another instance on this machine never serves half of one. Best effort: what fails is returned, and
 * the current version is served all the same.
 */
export function keepAssets(files: Map<string, Asset>, dir: string, now = Date.now()): { kept: number; earlier: number; failed?: string } {
  let kept = 0;
  let earlier = 0;
  try {
    const at = new Date(now);
    for (const [urlPath, file] of files) {
      if (file.cacheControl !== assetCache.immutable || !keepable(urlPath)) continue;
      const target = path.join(dir, ...urlPath.slice(1).split('/'));
      if (existsSync(target)) utimesSync(target, at, at);
      else {
        mkdirSync(path.dirname(target), { recursive: true });
        const temporary = `${target}.${process.pid}.tmp`;
        writeFileSync(temporary, file.body);
        renameSync(temporary, target);
      }
      kept += 1;
    }
    for (const file of existsSync(dir) ? walk(dir) : []) {
      const urlPath = `/${path.relative(dir, file).split(path.sep).join('/')}`;
      if (files.has(urlPath) || !keepable(urlPath)) continue;
      if (now - statSync(file).mtimeMs > keptAssetsMs) {
        rmSync(file, { force: true });
        continue;
      }
      files.set(urlPath, asset(file, readFileSync(file), assetCache.immutable));
      earlier += 1;
    }
    return { kept, earlier };
  } catch (error) {
    return { kept, earlier, failed: error instanceof Error ? error.message : String(error) };
  }
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
