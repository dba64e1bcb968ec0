/** Types of test/harness/system-packages.mjs. */
export interface SystemPackage {
  name: string;
  why: string;
  steps: string[];
  engine?: string;
  programs: Record<string, () => string | null>;
}
export declare const SYSTEM_PACKAGES: SystemPackage[];
export declare const BASE_PROGRAMS: string[];
export declare function systemBinary(program: string): string;
export declare function missingPackages(steps: string[], engines: string[]): SystemPackage[];
export declare function preflight(steps: string[], engines: string[], log?: (line: string) => void): Promise<boolean>;
export declare function postgresBinDir(): string | null;
export declare function isExecutable(file: string): boolean;
export declare function onPath(name: string): string | null;
