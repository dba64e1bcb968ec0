/** Types of test/harness/parts.mjs. */
export interface TestPart {
  key: string;
  name: string;
  file: string;
  /** Runs in test/run.mjs's second lane, beside the browser and end-to-end steps. */
  beside?: boolean;
}
export const E2E_PART: TestPart;
export const PARTS: TestPart[];
export const NODE_ALONE: string[];
export const NODE_CONCURRENCY: number;
export const E2E_BESIDE: string[];
export const BROWSER_BESIDE: string[];
export const STATIC_CONCURRENCY: number;
