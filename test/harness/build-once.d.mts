/** Types of test/harness/build-once.mjs. */
export const BUILD_INPUTS: string[];
export const BUILD_OUTPUTS: string[];
export function buildIsCurrent(): boolean;
export function ensureBuilt(options?: { stdio?: 'inherit' | 'ignore'; log?: (line: string) => void }): Promise<{ built: boolean; code: number }>;
export function markBuilt(startedAt: number): void;
export function newestMtime(entry: string): number;
