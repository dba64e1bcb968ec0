/** Types of test/harness/parts.mjs. */
export interface TestPart {
  key: string;
  name: string;
  file: string;
}
export const E2E_PART: TestPart;
export const PARTS: TestPart[];
