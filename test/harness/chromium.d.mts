/** Types of test/harness/chromium.mjs. */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };
