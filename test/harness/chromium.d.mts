/** Types of scripts/chromium.mjs. */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };
