/**
 * Field problems without their English wording: the type, the path of a zod issue, and the one-line summary.
 * Kept apart from validation.ts (which words each issue) so the element's first script, whose errors name
 * problems but never word a zod issue, carries no wording.
 */

/** One field-level problem, as the service reports it in `validation_errors`. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** Dotted path of an issue (`shopper.id_number`, `events.2`); `body` for the root. */
export function issueField(issue: { path: readonly PropertyKey[] }): string {
  return issue.path.length ? issue.path.map(String).join('.') : 'body';
}

/** A one-line summary such as `shopper.id_number is required; amount must be at least 1`. */
export function summarizeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.field} ${p.message}`).join('; ');
}

/**
 * The problems of a zod error by issue code alone (`gateways.0.kind invalid value`): what the element's link reader
 * reports, where nobody reads a worded message (the buyer sees the error screen; `pay-error` names the category).
 */
export function issueCodes(error: { issues: readonly { code: string; path: readonly PropertyKey[] }[] }): FieldProblem[] {
  return error.issues.map((issue) => ({ field: issueField(issue), message: issue.code.replace(/_/g, ' ') }));
}
