/** Types of test/harness/engines.mjs. */
export type Engine = 'chromium' | 'firefox' | 'webkit';
export declare const ENGINES: readonly Engine[];
export declare const engineLabel: Record<Engine, string>;
export declare function chooseEngines(args?: string[], env?: Record<string, string | undefined>): { engines: Engine[]; rest: string[] };
export declare function currentEngine(env?: Record<string, string | undefined>): Engine;
export declare function missingFor(engine: Engine): string | null;
export declare function firefoxPath(): string;
export declare function miniBrowserPath(): string;
export declare function webkitDriverPath(): string;
export declare function firefoxLaunchOptions(): {
  browser: 'firefox';
  executablePath: string;
  headless: boolean;
  extraPrefsFirefox: Record<string, unknown>;
};
export declare function webkitCapabilities(): {
  browserName: string;
  'wdio:enforceWebDriverClassic': boolean;
  'webkitgtk:browserOptions': { binary: string; args: string[] };
};
export declare function freePort(): Promise<number>;
export declare function startWebKitDriver(): Promise<{ hostname: string; port: number; stop: () => void }>;
export declare function isExecutable(file: string): boolean;
export declare function onPath(name: string): string | null;
