/**
 * Bench section "package": what `npm pack` would publish from the current dist/ (run `npm run build` first):
 * packed and unpacked size, file count, and where the unpacked bytes go.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Package path → the group a reader would name it by. */
const groups: [string, RegExp][] = [
  ['script tag (dist/pay-checkout*.js)', /^dist\/pay-checkout[^/]*\.js$/],
  ['hosted page (dist/hosted/)', /^dist\/hosted\//],
  ['type declarations (dist/types/)', /^dist\/types\//],
  ['framework typings, editor data (dist/frameworks/)', /^dist\/frameworks\//],
  ['ESM library and sandbox (dist/*.js, dist/chunks/)', /^dist\/(chunks\/)?[^/]+\.js$/],
  ['source maps', /\.map$/],
];

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export async function benchPackage(): Promise<boolean> {
  console.log('\n## package: the npm tarball');
  if (!existsSync(`${root}dist/index.js`)) {
    console.log('skipped: no dist/ (run `npm run build`)');
    return true;
  }
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [packed] = JSON.parse(output) as { size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
  if (!packed) throw new Error('npm pack printed nothing');
  console.log(`packed ${kB(packed.size)}, unpacked ${kB(packed.unpackedSize)}, ${packed.files.length} files`);
  const totals = new Map<string, number>();
  for (const file of packed.files) {
    const group = groups.find(([, pattern]) => pattern.test(file.path))?.[0] ?? 'other (README, LICENSE, manifest, notices)';
    totals.set(group, (totals.get(group) ?? 0) + file.size);
  }
  const width = Math.max(...[...totals.keys()].map((name) => name.length));
  for (const [group, bytes] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`  ${group.padEnd(width)}  ${kB(bytes).padStart(9)}`);
  return true;
}
