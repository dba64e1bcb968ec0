// The Mocha globals web-test-runner provides in the browser. No @types/mocha is installed (and types: ["node"]
// keeps stray globals out), so browser tests get exactly this much Mocha: suites, tests, hooks, this.timeout().

interface MochaContext {
  timeout(ms: number): void;
  slow(ms: number): void;
  retries(count: number): void;
  skip(): never;
}

type MochaDone = (error?: unknown) => void;
type MochaTestFn = (this: MochaContext, done: MochaDone) => unknown;
type MochaSuiteFn = (this: MochaContext) => void;

interface MochaSuite {
  (title: string, fn: MochaSuiteFn): void;
  only(title: string, fn: MochaSuiteFn): void;
  skip(title: string, fn: MochaSuiteFn): void;
}

interface MochaTest {
  (title: string, fn?: MochaTestFn): void;
  only(title: string, fn?: MochaTestFn): void;
  skip(title: string, fn?: MochaTestFn): void;
}

type MochaHook = (fn: MochaTestFn) => void;

declare const describe: MochaSuite;
declare const it: MochaTest;
declare const before: MochaHook;
declare const after: MochaHook;
declare const beforeEach: MochaHook;
declare const afterEach: MochaHook;
