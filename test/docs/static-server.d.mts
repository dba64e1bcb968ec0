/** Serves `dir` under `base` (`/` or `/docs/`) on 127.0.0.1; resolves with its origin and a close function. */
export function serveStatic(dir: string, base?: string): Promise<{ origin: string; close: () => Promise<void> }>;
