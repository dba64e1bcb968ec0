/**
 * The rest of what the sandbox imports from Node, for its Service Worker build: no files (the hosted page is not
 * served from the worker), timers as promises, and no listener limits to lift.
 */
export const existsSync = (): boolean => false;
export const statSync = (): never => {
  throw new Error('no file system in the Service Worker sandbox');
};
export const readFileSync = statSync;
export const cpSync = statSync;
export const writeFileSync = statSync;
export const fileURLToPath = (url: string | URL): string => String(url);
export const setMaxListeners = (): void => undefined;
export const setTimeout = (ms: number): Promise<void> => new Promise((resolve) => globalThis.setTimeout(resolve, ms));

const join = (...parts: string[]) => parts.join('/').replace(/\/+/g, '/');
export const path = { join, resolve: join, dirname: (p: string) => p.replace(/\/[^/]*$/, ''), extname: (p: string) => /\.[^./]*$/.exec(p)?.[0] ?? '', sep: '/' };
export default path;
