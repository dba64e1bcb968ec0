#!/usr/bin/env node
// Where the bytes of the initial script come from: builds vite.script.config.ts into a scratch directory and
// attributes every minified byte of dist/pay-checkout.js to its source module through the sourcemap's mappings.
// `node bench/size-breakdown.mjs [--file NAME] [--top N] [--by module|part] [--show PART]`: NAME a file or the start
// of a lazy chunk's name (`pay-checkout.later-steps`); --show prints one part's minified text. A measuring aid;
// size-check.mjs is the gate.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { gzipSize, kB } from '../test/size/size-check.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const fileName = option('file', 'pay-checkout.js');
const top = Number(option('top', '40'));
const by = option('by', 'module');

const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Sourcemap `mappings` → per generated line, segments [column, source index?] (absolute, as in the spec). */
export function decodeMappings(mappings) {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter(Boolean)
      .map((segment) => {
        const values = [];
        let value = 0;
        let shift = 0;
        for (const char of segment) {
          const digit = base64.indexOf(char);
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            values.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += values[0];
        if (values.length === 1) return [column];
        source += values[1];
        return [column, source];
      });
  });
}

/** The minified text as [source, slice] pieces in file order (unmapped bytes go to "(unmapped)"). */
export function attributeInOrder(code, map) {
  const lines = code.split('\n');
  const text = [];
  const add = (source, slice) => text.push([source, slice]);
  decodeMappings(map.mappings).forEach((segments, lineIndex) => {
    const line = lines[lineIndex] ?? '';
    let cursor = 0;
    let source = '(unmapped)';
    for (const segment of segments) {
      add(source, line.slice(cursor, segment[0]));
      cursor = segment[0];
      source = segment.length > 1 ? (map.sources[segment[1]] ?? '(unknown)') : '(unmapped)';
    }
    add(source, `${line.slice(cursor)}\n`);
  });
  return text;
}

let outDirOf = root;
const partOf = (source) => {
  if (source.startsWith('(')) return source;
  const inPackage = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](.*)/.exec(source);
  if (inPackage) return by === 'part' ? inPackage[1] : `${inPackage[1]}/${inPackage[2]}`;
  const relative = path.relative(root, path.resolve(outDirOf, source));
  return by === 'part' ? relative.split('/').slice(0, 2).join('/') : relative;
};

async function main() {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pay-checkout-breakdown-'));
  try {
    outDirOf = outDir;
    await build({ configFile: `${root}vite.script.config.ts`, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: true } });
    // A lazy chunk's name carries a hash: `--file pay-checkout.later-steps` finds it.
    const file = readdirSync(outDir).find((name) => name === fileName || (name.startsWith(fileName) && name.endsWith('.js')));
    if (!file) throw new Error(`no ${fileName} in the build: ${readdirSync(outDir).join(', ')}`);
    const code = readFileSync(path.join(outDir, file), 'utf8');
    const map = JSON.parse(readFileSync(path.join(outDir, `${file}.map`), 'utf8'));
    const groups = new Map();
    const pieces = attributeInOrder(code, map);
    for (const [source, text] of pieces) {
      const part = partOf(source);
      groups.set(part, (groups.get(part) ?? '') + text);
    }
    // Marginal gzip: what the whole file saves when this part's text is cut out of it (a fair share in context).
    const whole = gzipSize(Buffer.from(code));
    const without = (part) => {
      let rest = '';
      for (const [source, text] of pieces) rest += partOf(source) === part ? '' : text;
      return gzipSize(Buffer.from(rest));
    };
    const rows = [...groups.entries()].map(([part, text]) => ({ part, bytes: Buffer.byteLength(text), gzip: whole - without(part) }));
    rows.sort((a, b) => b.bytes - a.bytes);
    const total = Buffer.byteLength(code);
    console.log(`${file}: ${kB(total)} minified, ${kB(gzipSize(Buffer.from(code)))} gzip; per ${by} (gzip: what cutting it out of the file saves):`);
    if (args.includes('--show')) console.log(groups.get(option('show', '(unmapped)')) ?? `no ${option('show', '')}; parts: ${[...groups.keys()].join(', ')}`);
    for (const row of rows.slice(0, top))
      console.log(`  ${row.part.padEnd(70)} ${kB(row.bytes).padStart(10)} ${((100 * row.bytes) / total).toFixed(1).padStart(5)}%  gzip ${kB(row.gzip).padStart(9)}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
