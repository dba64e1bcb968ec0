import * as z from 'zod/mini';
import type { FieldProblem } from './problems.js';
import { issueField } from './problems.js';

export { issueField, summarizeProblems } from './problems.js';
export type { FieldProblem } from './problems.js';

type Issue = z.core.$ZodIssue;

// zod/mini ships no message catalog (it keeps the browser bundle small), so the
// contract words its own plain-English messages from the issue codes.
export function issueMessage(issue: Issue, missing = false): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) {
    return 'is required';
  }
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${String(issue.minimum)} characters`
        : issue.origin === 'array'
          ? `must have at least ${String(issue.minimum)} items`
          : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${String(issue.maximum)} characters`
        : issue.origin === 'array'
          ? `must have at most ${String(issue.maximum)} items`
          : `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format === 'regex' ? 'value' : issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      return 'does not match any accepted shape';
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is invalid';
  }
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Turns a zod error into the service's `validation_errors` list, one entry per problem. */
export function toFieldProblems(error: { issues: readonly Issue[] }, input?: unknown): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issueField(issue),
    message: issueMessage(issue, valueAt(input, issue.path) === undefined),
  }));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** Parses without throwing and reports problems in the service's own shape. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problems: toFieldProblems(result.error, input) };
}
