/**
 * Bench section "size": for the script-tag embed and the hosted page, the script loaded before the first screen and each lazy chunk,
 * gzip (level 9) and brotli (quality 11), against the budget (initial ≤ 20 kB gzip; qrcode and `en` lazy).
 * The same measurement as `test/size/size-check.mjs`, which `npm test` runs as the check.
 */
import { checkBudget, firstInteractiveLine, initialBudgetGzip, kB, largestInitialParts, measureScriptSize, overBytes, sizeTargets } from '../test/size/size-check.mjs';

export async function benchSize(): Promise<boolean> {
  let ok = true;
  for (const target of sizeTargets) ok = (await benchTarget(target)) && ok;
  return ok;
}

async function benchTarget(target: (typeof sizeTargets)[number]): Promise<boolean> {
  const report = await measureScriptSize(target);
  const rows: string[][] = report.files.map((file) => [
    file.initial ? 'initial' : 'lazy',
    file.file + (file.holds.length ? ` (${file.holds.join(', ')})` : ''),
    kB(file.bytes),
    kB(file.gzip),
    kB(file.brotli),
  ]);
  rows.push(['initial', `total of ${report.initial.files.length} files (budget ${kB(initialBudgetGzip)} gzip)`, kB(report.initial.bytes), kB(report.initial.gzip), kB(report.initial.brotli)]);
  const fi = report.firstInteractive;
  rows.push(['+parallel', `initial + ${fi.parallelFiles.join(' + ') || 'nothing'} (first interactive screen)`, kB(fi.bytes), kB(fi.gzip), kB(fi.brotli)]);
  const head = ['load', 'file', 'minified', 'gzip', 'brotli'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\n## size: the ${target.name}'s script and its chunks (${target.configFile})`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log(firstInteractiveLine(report));
  const checks = checkBudget(report);
  for (const check of checks) console.log(`${check.ok ? 'PASS' : 'OVER'} ${check.line}`);
  if (overBytes(checks)) {
    console.log('largest parts of the initial script (before minification):');
    for (const [part, length] of largestInitialParts(report)) console.log(`  ${part.padEnd(40)} ${kB(length).padStart(10)}`);
  }
  return checks.every((check) => check.ok);
}
