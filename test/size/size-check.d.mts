/** Types of test/size/size-check.mjs, for the bench section (bench/size.ts). */
export interface MeasuredFile {
  file: string;
  initial: boolean;
  bytes: number;
  gzip: number;
  brotli: number;
  /** Which must-be-lazy parts (`qrcode`, `en catalog`) the chunk holds. */
  holds: string[];
  dynamicImports: string[];
  /** Module specifiers as written in the file (static, re-export, dynamic). */
  specifiers: string[];
  modules: { id: string; renderedLength: number }[];
}
export interface SizeReport {
  /** Which build: `script-tag embed` or `hosted page`. */
  target: string;
  files: MeasuredFile[];
  /** The entry as the page serves it, where a server rewrites it (the hosted page's inline script). */
  served?: { bytes: number; gzip: number };
  initial: { files: string[]; bytes: number; gzip: number; brotli: number };
  /** The initial graph plus the chunks fetched in parallel with the link call (`withTheLinkCall`). */
  firstInteractive: { parallelFiles: string[]; bytes: number; gzip: number; brotli: number };
}
export interface SizeCheck {
  /** A byte budget's check (not a laziness or URL rule). */
  bytes?: boolean;
  ok: boolean;
  line: string;
}
export const initialBudgetGzip: number;
/** Script requested before the first interactive screen: the first script and the link schemas, gzip. */
export const firstInteractiveBudgetGzip: number;
export const entryFile: string;
export const mustBeLazy: { name: string; test: (id: string) => boolean }[];
export function gzipSize(bytes: Uint8Array): number;
/** The texts of a page's inline module scripts. */
export function inlineModuleScripts(html: string): string[];
export function overBytes(checks: SizeCheck[]): boolean;
export function brotliSize(bytes: Uint8Array): number;
export function kB(bytes: number): string;
/** A build the budget applies to: its Vite config and how its entry chunk is recognised. */
export interface SizeTarget {
  name: string;
  configFile: string;
  isEntry: (chunk: { fileName: string; isEntry: boolean }) => boolean;
  /** The entry's text as a server sends it, given the build's folder and the entry file's text. */
  serve?: (outDir: string, entryScript: string) => Promise<string>;
}
/** The script-tag embed (first) and the hosted page. */
export const sizeTargets: SizeTarget[];
/** Measures one target; the script-tag embed when none is given. */
export function measureScriptSize(target?: SizeTarget): Promise<SizeReport>;
export const withTheLinkCall: { name: string; test: (id: string) => boolean }[];
export function firstInteractiveLine(report: SizeReport): string;
export function checkBudget(report: SizeReport): SizeCheck[];
export function largestInitialParts(report: SizeReport, count?: number): [string, number][];
