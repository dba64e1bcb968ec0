/** The handler's default `onDialect`: one line in the merchant's log per shape the service speaks, once per process. */
import type { DialectReport } from '../client/index.js';

export function logDialect(report: DialectReport): void {
  console.info(`[pay-checkout] ${report.message} (first seen on ${report.route})`);
}
