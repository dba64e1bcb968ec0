// A web-test-runner reporter that writes {passed, failed, skipped} as JSON to $WTR_COUNT_FILE,
// so test/run.mjs reads real counts instead of scraping the default reporter's output.
import { writeFileSync } from 'node:fs';

/** @param {import('@web/test-runner-core').TestSuiteResult | undefined} suite */
function countSuite(suite, counts) {
  if (!suite) return;
  for (const test of suite.tests) {
    if (test.skipped) counts.skipped += 1;
    else if (test.passed) counts.passed += 1;
    else counts.failed += 1;
  }
  for (const child of suite.suites) countSuite(child, counts);
}

/** @param {import('@web/test-runner-core').TestSession[]} sessions */
export function countSessions(sessions) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const session of sessions) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    countSuite(session.testResults, counts);
    // A session can fail with no failing test (import error, failing hook, timeout, browser crash): count it once.
    if (session.passed === false && counts.failed === 0) counts.failed = 1;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  return total;
}

/** @returns {import('@web/test-runner-core').Reporter} */
export function countReporter({ file = process.env.WTR_COUNT_FILE } = {}) {
  return {
    onTestRunFinished({ sessions }) {
      if (file) writeFileSync(file, JSON.stringify(countSessions(sessions)) + '\n');
    },
  };
}
