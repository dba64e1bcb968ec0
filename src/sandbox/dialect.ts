/** Which shapes the sandbox's merchant API answers in; a file of its own so the public types never name Hono. */

/** `contract` (default): the contract's shapes. `live`: the live service's (live-dialect.ts). */
export type SandboxDialect = 'contract' | 'live';
export const sandboxDialects: readonly SandboxDialect[] = ['contract', 'live'];
