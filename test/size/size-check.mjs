#!/usr/bin/env node
// The size budget (docs/site/contributing/architecture.md), as a check `npm test` runs, for both builds a buyer's browser loads: the script-tag
// file (vite.script.config.ts) and the hosted page (vite.hosted.config.ts). Each is built into a scratch directory (so a
// test run never races `npm run build` over dist/), then measured: what loads before the first screen (the entry script
// and everything it imports statically), each lazy chunk, and what the first interactive screen costs: that plus the
// chunks fetched in parallel with the link call. Fails when the initial script is over 20 kB gzip, when that
// first-interactive total is over 20 kB gzip or pulls in more than the link schemas' chunk, when qrcode, the `en`
// catalog or zod is in the initial graph, or when a lazy chunk is not loaded relative to the script.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, parseSync } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** kB as Vite prints them (1000 bytes): the stricter reading of "20 KB". */
export const initialBudgetGzip = 20_000;
/** Script requested before the first interactive screen (the first script and the link's reader): 20 kB. */
export const firstInteractiveBudgetGzip = 20_000;
export const entryFile = 'pay-checkout.js';

/** Code that must only ever arrive by dynamic import, recognised by the source modules in a chunk. */
export const mustBeLazy = [
  { name: 'qrcode', test: (id) => /[\\/]node_modules[\\/](qrcode|dijkstrajs)[\\/]/.test(id) },
  { name: 'en catalog', test: (id) => /[\\/]src[\\/]i18n[\\/]en\.ts$/.test(id) },
  // The loading screen and the link request need no schemas: zod arrives with the chunk that validates the answer.
  { name: 'zod', test: (id) => /[\\/]node_modules[\\/]zod[\\/]/.test(id) },
];

/**
 * The chunks the first script fetches in parallel with `GET /checkout/links/{hash}` because the first interactive
 * screen waits for them (the link reader: zod-free in the browser builds, build/lite-link-check.ts), recognised by a source module.
 * The later steps and the `es` catalog are fetched after them, while the buyer reads the first screen.
 */
export const withTheLinkCall = [{ name: 'link schemas', test: (id) => /[\\/]src[\\/]client[\\/](checkout-link|link-reader-lite)\.ts$/.test(id) }];

export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;
export const brotliSize = (bytes) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length;
export const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;

/**
 * The two builds a buyer's browser loads: the script tag a merchant's page embeds, and the hosted page
 * (`{checkout_url}/HASH`), whose entry is its one module script. Both are held to the same budget.
 */
export const sizeTargets = [
  { name: 'script-tag embed', configFile: 'vite.script.config.ts', isEntry: (chunk) => chunk.fileName === entryFile },
  { name: 'hosted page', configFile: 'vite.hosted.config.ts', isEntry: (chunk) => chunk.isEntry, serve: servedHostedEntry },
];

/** The texts of a page's inline module scripts (the hosted page's entry, as a server puts it in the page). */
export const inlineModuleScripts = (html) => [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');

/**
 * The hosted page's entry as a server sends it: inside the page renderHostedPage draws for a link, with its first
 * statement (it waits for the drawn screen's first paint) and its chunks' URLs made absolute, with the small classic
 * script the page runs before it (a tap kept for the element). That, not the file, is what a phone downloads before
 * the first screen answers.
 */
async function servedHostedEntry(outDir, entryScript) {
  const { tsImport } = await import('tsx/esm/api');
  const { renderHostedPage } = await tsImport('../../src/server/hosted-page/index.ts', import.meta.url);
  const gateway = { id_payment_gateway: 1, name: 'Nequi', kind: 'push', required_fields: [], id_types: [1], min_amount: 1_000, max_amount: 5_000_000, icon: 'https://api.example.com/icons/1.svg' };
  const link = { hash: 'size', store_name: 'Tienda', description: 'Pedido', amount: 50_000, currency: 'COP', status: 'active', expires_at: null, collect_shopper_data: false, gateways: [gateway], document_types: [] };
  const html = await renderHostedPage(readFileSync(path.join(outDir, 'index.html'), 'utf8'), { hash: 'size', link, entryScript });
  const inline = inlineModuleScripts(html);
  if (inline.length !== 1) throw new Error(`the hosted page drew ${inline.length} inline module scripts, not its entry (is Lit SSR installed?)`);
  // With the small classic script before it (the early-tap keeper): first-screen script too.
  const classic = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  return [...classic, inline[0]].join('\n');
}

/** Builds one target and its chunks into `outDir`; returns rolldown's chunk metadata (imports, modules). */
async function buildTarget(target, outDir) {
  const result = await build({
    configFile: `${root}${target.configFile}`,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((output) => ('output' in output ? output.output : [])).filter((item) => item.type === 'chunk');
}

/**
 * Measures the script family. `initial`: the entry and its static imports, transitively (what the browser
 * fetches before it runs anything); `lazy`: every chunk reached only through a dynamic import.
 */
export async function measureScriptSize(target = sizeTargets[0]) {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pay-checkout-size-'));
  try {
    return { target: target.name, ...(await measureBuild(outDir, await buildTarget(target, outDir), target)) };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function measureBuild(outDir, chunks, target) {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entryFileName = chunks.find(target.isEntry)?.fileName;
  if (!entryFileName) throw new Error(`the ${target.name} build produced no entry script`);

  const initial = new Set();
  const visit = (fileName) => {
    if (initial.has(fileName)) return;
    initial.add(fileName);
    for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(entryFileName);

  const measure = (chunk) => {
    const bytes = readFileSync(path.join(outDir, chunk.fileName)); // the written file, as it ships
    const moduleIds = Object.keys(chunk.modules);
    const code = bytes.toString('utf8');
    const { module } = parseSync(chunk.fileName, code);
    return {
      file: chunk.fileName,
      initial: initial.has(chunk.fileName),
      bytes: bytes.length,
      gzip: gzipSize(bytes),
      brotli: brotliSize(bytes),
      holds: mustBeLazy.filter((part) => moduleIds.some(part.test)).map((part) => part.name),
      dynamicImports: chunk.dynamicImports,
      // Every module specifier as written in the file: static imports, re-exports, dynamic imports.
      specifiers: [
        ...module.staticImports.map((entry) => entry.moduleRequest.value),
        ...module.staticExports.flatMap((entry) => entry.entries.flatMap((item) => (item.moduleRequest ? [item.moduleRequest.value] : []))),
        ...module.dynamicImports.map((entry) => code.slice(entry.moduleRequest.start, entry.moduleRequest.end).replace(/^["'`]|["'`]$/g, '')),
      ],
      modules: Object.entries(chunk.modules).map(([id, info]) => ({ id, renderedLength: info.renderedLength })),
    };
  };
  // The chunks holding `withTheLinkCall`'s modules and whatever they import statically, outside the initial graph.
  const parallel = new Set();
  const visitParallel = (fileName) => {
    if (parallel.has(fileName) || initial.has(fileName)) return;
    parallel.add(fileName);
    for (const imported of byFile.get(fileName)?.imports ?? []) visitParallel(imported);
  };
  for (const chunk of byFile.values()) {
    if (Object.keys(chunk.modules).some((id) => withTheLinkCall.some((part) => part.test(id)))) visitParallel(chunk.fileName);
  }

  const files = [...byFile.values()].map(measure).sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
  const served = target.serve ? await target.serve(outDir, readFileSync(path.join(outDir, entryFileName), 'utf8')) : undefined;
  const initialFiles = files.filter((file) => file.initial);
  // Sizes of the initial graph compressed file by file, as the browser fetches them.
  const total = (key) => initialFiles.reduce((sum, file) => sum + file[key], 0);
  const parallelFiles = files.filter((file) => parallel.has(file.file));
  const sum = (list, key) => list.reduce((acc, file) => acc + file[key], 0);
  return {
    files,
    // The entry as the page serves it, where a server rewrites it (the hosted page's inline script), gzip.
    served: served === undefined ? undefined : { bytes: Buffer.byteLength(served), gzip: gzipSize(Buffer.from(served)) },
    initial: { files: initialFiles.map((f) => f.file), bytes: total('bytes'), gzip: total('gzip'), brotli: total('brotli') },
    // What the first interactive screen costs (checked against `firstInteractiveBudgetGzip`).
    firstInteractive: {
      parallelFiles: parallelFiles.map((f) => f.file),
      bytes: total('bytes') + sum(parallelFiles, 'bytes'),
      gzip: total('gzip') + sum(parallelFiles, 'gzip'),
      brotli: total('brotli') + sum(parallelFiles, 'brotli'),
    },
  };
}

/** The verdicts: each a line and whether it passed. */
export function checkBudget(report) {
  const checks = [];
  const initialFiles = report.files.filter((file) => file.initial);
  checks.push({
    bytes: true,
    ok: report.initial.gzip <= initialBudgetGzip,
    line: `initial script ${kB(report.initial.gzip)} gzip (budget ${kB(initialBudgetGzip)})`,
  });
  if (report.served) {
    checks.push({
      bytes: true,
      ok: report.served.gzip <= initialBudgetGzip,
      line: `initial script as the page serves it (inline, its first statement, absolute chunk URLs) ${kB(report.served.gzip)} gzip (budget ${kB(initialBudgetGzip)})`,
    });
  }
  // Before the first interactive screen: the first script and the link schemas' chunk, and nothing else (the later
  // steps and the rest of the catalog are fetched once it is painted, so they must not be static imports of either).
  const fi = report.firstInteractive;
  const extra = fi.parallelFiles.filter((file) => !report.files.find((f) => f.file === file)?.modules.some((m) => withTheLinkCall.some((part) => part.test(m.id))));
  checks.push({
    bytes: true,
    ok: fi.gzip <= firstInteractiveBudgetGzip && extra.length === 0,
    line:
      extra.length > 0
        ? `before the first interactive screen the link schemas pull in ${extra.join(', ')} too`
        : `script before the first interactive screen ${kB(fi.gzip)} gzip (budget ${kB(firstInteractiveBudgetGzip)})`,
  });
  for (const part of mustBeLazy) {
    const inInitial = initialFiles.filter((file) => file.holds.includes(part.name)).map((file) => file.file);
    const inLazy = report.files.filter((file) => !file.initial && file.holds.includes(part.name)).map((file) => file.file);
    checks.push({
      ok: inInitial.length === 0 && inLazy.length > 0,
      line:
        inInitial.length > 0
          ? `${part.name} is in the initial script (${inInitial.join(', ')})`
          : inLazy.length > 0
            ? `${part.name} is lazy (${inLazy.join(', ')})`
            : `${part.name} is in no chunk at all (is it still imported dynamically?)`,
    });
  }
  // A chunk URL resolves against the importing module's URL (the script's own) only when the specifier is relative.
  const imports = report.files.flatMap((file) => file.specifiers.map((specifier) => ({ file: file.file, specifier })));
  const dynamicCount = report.files.reduce((sum, file) => sum + file.dynamicImports.length, 0);
  const notRelative = imports.filter(({ specifier }) => !specifier.startsWith('./'));
  checks.push({
    ok: dynamicCount > 0 && notRelative.length === 0,
    line:
      notRelative.length > 0
        ? `chunks not loaded relative to the script: ${notRelative.map(({ file, specifier }) => `${file} → ${specifier}`).join(', ')}`
        : `every chunk loads relative to the script (${imports.length} imports, ${dynamicCount} of them dynamic)`,
  });
  return checks;
}

/** Whether a byte budget failed (then the largest parts of the initial script are worth printing). */
export const overBytes = (checks) => checks.some((check) => check.bytes && !check.ok);

/** The figure before the first interactive screen, as a line (its verdict is one of `checkBudget`'s). */
export function firstInteractiveLine(report) {
  const { firstInteractive: f } = report;
  const chunks = f.parallelFiles.length ? f.parallelFiles.join(' + ') : 'none';
  return `before the first interactive screen: initial + the chunks loaded in parallel with the link call (${chunks}) = ${kB(f.gzip)} gzip, ${kB(f.brotli)} brotli`;
}

/** The largest source parts of the initial graph, by size before minification: where to look when over budget. */
export function largestInitialParts(report, count = 8) {
  const parts = new Map();
  for (const file of report.files.filter((f) => f.initial)) {
    for (const { id, renderedLength } of file.modules) {
      const relative = id.startsWith(root) ? id.slice(root.length) : id.replace(/^\0/, '');
      const inPackage = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(relative);
      const part = inPackage ? inPackage[1] : relative.split('/').slice(0, 2).join('/');
      parts.set(part, (parts.get(part) ?? 0) + renderedLength);
    }
  }
  return [...parts.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function main() {
  let passed = 0;
  let failed = 0;
  for (const target of sizeTargets) {
    let report;
    try {
      report = await measureScriptSize(target);
    } catch (error) {
      console.log(`FAIL could not build the ${target.name}: ${error instanceof Error ? error.message : String(error)}`);
      failed += 1;
      continue;
    }
    console.log(`# ${target.name}`);
    for (const file of report.files) {
      const kind = file.initial ? 'initial' : 'lazy   ';
      const holds = file.holds.length ? `  (${file.holds.join(', ')})` : '';
      console.log(`${kind} ${file.file.padEnd(44)} ${kB(file.bytes).padStart(10)}  gzip ${kB(file.gzip).padStart(9)}  brotli ${kB(file.brotli).padStart(9)}${holds}`);
    }
    console.log(`initial total (${report.initial.files.length} files)`.padEnd(53) + `${kB(report.initial.bytes).padStart(10)}  gzip ${kB(report.initial.gzip).padStart(9)}  brotli ${kB(report.initial.brotli).padStart(9)}`);
    console.log(firstInteractiveLine(report));
    const checks = checkBudget(report);
    for (const check of checks) console.log(`${check.ok ? 'PASS' : 'FAIL'} ${target.name}: ${check.line}`);
    if (overBytes(checks)) {
      console.log('largest parts of the initial script (before minification):');
      for (const [part, length] of largestInitialParts(report)) console.log(`  ${part.padEnd(40)} ${kB(length).padStart(10)}`);
    }
    const failing = checks.filter((check) => !check.ok).length;
    passed += checks.length - failing;
    failed += failing;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
